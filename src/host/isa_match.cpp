#include "host/isa_match.hpp"

#include <algorithm>

#include "host/host_tables.hpp"

namespace tailor {

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

std::vector<std::string> missing_for_level(const CpuInfo& cpu, std::string_view level, const HostTables& t) {
  std::vector<std::string> missing;
  for (const auto& l : t.x86_64_levels) {
    for (const auto& f : l.features)
      if (!cpu.has(f)) missing.push_back(f);
    if (level == l.name) break;
  }
  return missing;
}

std::string x86_64_level(const CpuInfo& cpu, const HostTables& t) {
  if (cpu.arch != "x86_64") return {};
  std::string level;
  for (const auto& l : t.x86_64_levels) {
    if (!std::all_of(l.features.begin(), l.features.end(), [&](const std::string& f) { return cpu.has(f); })) break;
    level = l.name;
  }
  return level;
}

}  // namespace tailor
