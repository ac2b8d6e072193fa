#include "host/isa_match.hpp"

#include <algorithm>
#include <initializer_list>

namespace tailor {

namespace {

struct Level {
  const char* name;
  std::initializer_list<const char*> features;  // cpuinfo spelling
};

// x86-64 psABI 1.0, "Micro-architecture levels" (each level includes the
// ones before it). cpuinfo names: pni = SSE3, abm = LZCNT; OSFXSR/OSXSAVE are
// implied by the kernel printing the flags at all.
const Level kLevels[] = {
    {"v1", {"cmov", "cx8", "fpu", "fxsr", "mmx", "syscall", "sse", "sse2"}},
    {"v2", {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"}},
    {"v3", {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}},
    {"v4", {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}},
};

}  // namespace

std::string host_platform(std::string_view arch, std::string_view os) {
  return std::string(arch) + "-" + std::string(os);
}

std::vector<std::string> missing_features(const CpuIsa& isa, const CpuInfo& cpu) {
  std::vector<std::string> missing;
  for (const auto& f : isa.requires_features)
    if (!cpu.has(f)) missing.push_back(f);
  return missing;
}

std::vector<const CpuIsa*> runnable_isas(const CpuInfo& cpu, std::string_view platform, const KnowledgeBase& kb) {
  std::vector<const CpuIsa*> out;
  for (const auto& isa : kb.isas)
    if (isa.platform == platform && missing_features(isa, cpu).empty()) out.push_back(&isa);
  std::stable_sort(out.begin(), out.end(), [](const CpuIsa* a, const CpuIsa* b) { return a->rank > b->rank; });
  return out;
}

std::vector<std::string> missing_for_level(const CpuInfo& cpu, std::string_view level) {
  std::vector<std::string> missing;
  for (const auto& l : kLevels) {
    for (const char* f : l.features)
      if (!cpu.has(f)) missing.emplace_back(f);
    if (level == l.name) break;
  }
  return missing;
}

std::string x86_64_level(const CpuInfo& cpu) {
  if (cpu.arch != "x86_64") return {};
  std::string level;
  for (const auto& l : kLevels) {
    if (!std::all_of(l.features.begin(), l.features.end(), [&](const char* f) { return cpu.has(f); })) break;
    level = l.name;
  }
  return level;
}

}  // namespace tailor
