// CPU detection against real (and a few synthetic) /proc/cpuinfo samples.
// Each sample under tests/data/cpuinfo is named after its expected answer,
// <arch>-<cpu>-<expected best ISA> (archspec's habit), and found by globbing.
#include "host/cpu_info.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "host/cpuid_x86.hpp"
#include "host/host_facts.hpp"
#include "host/hwcap_aarch64.hpp"
#include "host/isa_match.hpp"
#include "support/golden.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

std::vector<std::filesystem::path> samples() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/data/cpuinfo")))
    if (e.is_regular_file() && e.path().filename().string().find('-') != std::string::npos) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

HostFacts facts_of(const std::filesystem::path& p) {
  HostOptions o;
  o.cpuinfo_path = p.string();
  o.gpus = "none";
  return detect_host(o, embedded_kb(), embedded_host_tables());
}

TEST(CpuSamples, EnoughAreFound) {
  // The glob must not silently find nothing.
  EXPECT_GE(samples().size(), 13u);
}

TEST(CpuSamples, EachResolvesToTheIsaInItsName) {
  for (const auto& p : samples()) {
    std::string name = p.filename().string();
    std::string arch = name.substr(0, name.find('-'));
    std::string expected = name.substr(name.rfind('-') + 1);
    HostFacts h = facts_of(p);
    EXPECT_EQ(h.cpu.arch, arch) << name;
    EXPECT_EQ(h.best_isa.empty() ? "none" : h.best_isa, expected) << name;
  }
}

TEST(CpuSamples, RunnableIsasAreExactlyThoseWithAllFeatures) {
  for (const auto& p : samples()) {
    HostFacts h = facts_of(p);
    for (const auto& isa : embedded_kb().isas) {
      bool listed = std::find(h.isas.begin(), h.isas.end(), isa.name) != h.isas.end();
      // A baseline (no flags, nothing required) runs everywhere and is no target of the CPU's features.
      bool complete = !isa.baseline() && missing_features(isa, h.cpu).empty() && isa.platform == h.platform;
      EXPECT_EQ(listed, complete) << p.filename() << " " << isa.name;
    }
  }
}

TEST(CpuSamples, PsabiLevelIsAtLeastTheBestIsasLevel) {
  for (const auto& p : samples()) {
    HostFacts h = facts_of(p);
    if (h.cpu.arch != "x86_64") {
      EXPECT_EQ(h.x86_64_level, "") << p.filename();
      continue;
    }
    const CpuIsa* best = embedded_kb().isa(h.best_isa);
    ASSERT_NE(best, nullptr) << p.filename();
    EXPECT_GE(h.x86_64_level, best->x86_64_level) << p.filename();  // "v1" < "v2" < ...
  }
}

TEST(CpuSamples, PublishedEdgeCases) {
  auto f = [](const char* n) { return facts_of(test::source_path(std::string("tests/data/cpuinfo/") + n)); };
  // Graviton3: SVE without SVE2 is not armv9 (Arm Neoverse V1 TRM: SVE, no SVE2).
  HostFacts g3 = f("aarch64-graviton3-armv8_2");
  EXPECT_TRUE(g3.cpu.has("sve"));
  EXPECT_EQ(missing_features(*embedded_kb().isa("armv9"), g3.cpu), std::vector<std::string>{"sve2"});
  // Skylake-SP has AVX-512 but no VNNI (Intel ARK: AVX-512 VNNI arrives with Cascade Lake); Cascade Lake has VNNI, no
  // BF16.
  HostFacts sky = f("x86_64-skylake_sp-avx512");
  EXPECT_EQ(sky.isas, (std::vector<std::string>{"avx512", "avx2", "avx"}));
  HostFacts clx = f("x86_64-cascadelake-avx512vnni");
  EXPECT_EQ(clx.isas, (std::vector<std::string>{"avx512vnni", "avx512", "avx2", "avx"}));
  EXPECT_EQ(f("x86_64-sandybridge-avx").x86_64_level, "v2");
  EXPECT_EQ(f("x86_64-haswell-avx2").x86_64_level, "v3");
  EXPECT_EQ(clx.x86_64_level, "v4");
  // The real H200 host (an Emerald Rapids VM).
  HostFacts gpu_host = f("x86_64-emeraldrapids-avx512bf16");
  EXPECT_EQ(gpu_host.cpu.vendor, "GenuineIntel");
  EXPECT_EQ(gpu_host.cpu.model, "Intel(R) Xeon(R) Processor");
  EXPECT_EQ(f("aarch64-grace-armv9").cpu.model, "Neoverse-V2 (0xd4f)");
  HostFacts mac = f("aarch64-apple_m2-none");
  EXPECT_EQ(mac.os, Os::darwin);
  EXPECT_EQ(mac.platform, "aarch64-darwin");
  EXPECT_TRUE(mac.cpu.has("bf16") && mac.cpu.has("asimddp") && !mac.cpu.has("sve"));
}

TEST(ParseCpuinfo, ReadsTheFirstProcessorBlockOnly) {
  std::string text =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: A\nflags\t\t: fpu avx\n\n"
      "processor\t: 1\nvendor_id\t: Other\nmodel name\t: B\nflags\t\t: fpu avx avx2\n\n";
  CpuInfo c = parse_cpuinfo(text, "t", embedded_host_tables());
  EXPECT_EQ(c.model, "A");
  EXPECT_EQ(c.features, (std::set<std::string>{"fpu", "avx"}));
  // Without a trailing blank line and with CRLF-free odd spacing.
  c = parse_cpuinfo("flags: a  b\tc", "t", embedded_host_tables());
  EXPECT_EQ(c.arch, "x86_64");
  EXPECT_EQ(c.features, (std::set<std::string>{"a", "b", "c"}));
}

TEST(ParseCpuinfo, RejectsTextWithoutFeatures) {
  try {
    parse_cpuinfo("hello: world\n", "notes.txt", embedded_host_tables());
    FAIL();
  } catch (const DiagnosticError& e) {
    test::expect_golden(e.diagnostic().render(), "tests/golden/host/cpuinfo-no-features.txt");
  }
}

TEST(Cpuid, FeatureSpellingMatchesRealCpuinfo) {
  // Every name the CPUID table reports appears in a real x86 sample.
  std::set<std::string> seen;
  for (const char* n : {"x86_64-emeraldrapids-avx512bf16", "x86_64-zen5-avx512bf16"}) {
    HostFacts h = facts_of(test::source_path(std::string("tests/data/cpuinfo/") + n));
    seen.insert(h.cpu.features.begin(), h.cpu.features.end());
  }
  for (const auto& name : cpuid_feature_names(embedded_host_tables())) EXPECT_TRUE(seen.count(name)) << name;
}

TEST(Cpuid, OsMustEnableTheVectorState) {
  CpuidRegs r;
  r.max_leaf = 7;
  r.l1_ecx = (1u << 28) | (1u << 12) | (1u << 27);  // avx, fma, osxsave
  r.l7_ebx = (1u << 5) | (1u << 16);                // avx2, avx512f
  r.xcr0 = 0x7;                                     // x87, SSE, AVX; no AVX-512 state
  EXPECT_EQ(cpuid_features(r, embedded_host_tables()), (std::set<std::string>{"avx", "avx2", "fma"}));
  r.xcr0 = 0xe7;
  EXPECT_EQ(cpuid_features(r, embedded_host_tables()), (std::set<std::string>{"avx", "avx2", "avx512f", "fma"}));
  r.l1_ecx &= ~(1u << 27);  // no OSXSAVE: nothing that needs saved YMM/ZMM state
  EXPECT_EQ(cpuid_features(r, embedded_host_tables()), std::set<std::string>{});
}

TEST(Cpuid, AgreesWithThisHostsCpuinfo) {
  auto regs = read_cpuid();
  if (!regs) GTEST_SKIP() << "not an x86 host";
  std::ifstream in("/proc/cpuinfo");
  if (!in) GTEST_SKIP() << "no /proc/cpuinfo";
  std::stringstream s;
  s << in.rdbuf();
  CpuInfo c = parse_cpuinfo(s.str(), "/proc/cpuinfo", embedded_host_tables());
  std::set<std::string> ids = cpuid_features(*regs, embedded_host_tables());
  for (const auto& isa : embedded_kb().isas)
    for (const auto& f : isa.requires_features)
      if (isa.platform == "x86_64-linux") {
        EXPECT_EQ(c.has(f), ids.count(f) == 1) << f;
      }
}

TEST(CrossCheck, CountsOnlyWhatBothSourcesReport) {
  CpuInfo c;
  c.features = {"avx", "avx2", "flag_only_in_cpuinfo"};
  cross_check(c, {"avx", "avx512f"}, {"avx", "avx2", "avx512f"}, "cpuid");
  EXPECT_EQ(c.features, (std::set<std::string>{"avx", "flag_only_in_cpuinfo"}));
  EXPECT_EQ(c.notes, (std::vector<std::string>{
                         "/proc/cpuinfo lists avx2 but cpuid does not report it: not counted",
                         "cpuid reports avx512f but /proc/cpuinfo does not (disabled by the kernel): not counted"}));
}

TEST(Hwcap, BitsAndSpellingMatchRealCpuinfo) {
  // Graviton3: HWCAP_SVE (bit 22) without HWCAP2_SVE2 (bit 1).
  std::set<std::string> f = hwcap_features({(1u << 22) | (1u << 9) | (1u << 10) | (1u << 20), (1u << 13) | (1u << 14)},
                                           embedded_host_tables());
  EXPECT_EQ(f, (std::set<std::string>{"sve", "fphp", "asimdhp", "asimddp", "i8mm", "bf16"}));
  for (const char* n : {"aarch64-graviton2-armv8_2", "aarch64-graviton3-armv8_2", "aarch64-grace-armv9"}) {
    HostFacts h = facts_of(test::source_path(std::string("tests/data/cpuinfo/") + n));
    for (const auto& feature : h.cpu.features)
      EXPECT_TRUE(hwcap_feature_names(embedded_host_tables()).count(feature)) << n << " " << feature;
  }
}

}  // namespace
}  // namespace tailor
