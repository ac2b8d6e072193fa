// Planning for a machine described in the user's words (issue 47): an
// integrated system named in --gpus brings its CPU, --os darwin needs no
// sysctl sample, --arch a CPU known only by its architecture.
#include <gtest/gtest.h>

#include "host/cpu_info.hpp"
#include "host/host_facts.hpp"
#include "host/host_tables.hpp"
#include "support/golden.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

HostFacts plan(std::optional<std::string> gpus, std::optional<std::string> os = std::nullopt,
               std::optional<std::string> arch = std::nullopt) {
  HostOptions o;
  o.gpus = std::move(gpus);
  if (os) o.os = kOperatingSystems.parse(*os);
  o.arch = std::move(arch);
  return detect_host(o, embedded_kb(), embedded_host_tables());
}

TEST(PlannedHost, DgxSparkIsAnArmv9Linux) {
  HostFacts h = plan("DGX Spark:580");
  EXPECT_EQ(h.platform, "aarch64-linux");
  EXPECT_EQ(h.best_isa, "armv9");
  EXPECT_EQ(h.cpu.source, "--gpus DGX Spark");
  EXPECT_EQ(h.gpu.gpus.at(0).sm, "12.1");
  EXPECT_EQ(plan("GB10").best_isa, "armv9");
}

TEST(PlannedHost, GraceAndJetsonCpus) {
  EXPECT_EQ(plan("GH200").best_isa, "armv9");
  EXPECT_EQ(plan("GB200").platform, "aarch64-linux");
  // Cortex-A78AE: Armv8.2 with FP16 and DotProd, no SVE.
  HostFacts orin = plan("Jetson AGX Orin");
  EXPECT_EQ(orin.best_isa, "armv8_2");
  EXPECT_EQ(orin.isas, std::vector<std::string>{"armv8_2"});
  // An H100 alone says nothing of its host's CPU.
  HostOptions o;
  o.gpus = "H100";
  o.cpuinfo_path = test::source_path("tests/data/cpuinfo/x86_64-zen4-avx512bf16");
  EXPECT_EQ(detect_host(o, embedded_kb(), embedded_host_tables()).platform, "x86_64-linux");
}

TEST(PlannedHost, GraceDataAgreesWithAGraceCpuinfo) {
  HostOptions o;
  o.cpuinfo_path = test::source_path("tests/data/cpuinfo/aarch64-grace-armv9");
  o.gpus = "none";
  HostFacts sample = detect_host(o, embedded_kb(), embedded_host_tables());
  for (const auto& f : embedded_host_tables().system("GH200")->features)
    EXPECT_TRUE(sample.cpu.has(f)) << f << " is not in the Grace sample";
}

TEST(PlannedHost, MacWithoutASysctlSample) {
  HostFacts m3 = plan("Apple M3");
  EXPECT_EQ(m3.platform, "aarch64-darwin");
  EXPECT_TRUE(m3.gpu.gpus.empty());
  HostFacts mac = plan(std::nullopt, "darwin");
  EXPECT_EQ(mac.platform, "aarch64-darwin");
  ASSERT_EQ(mac.cpu.notes.size(), 1u);
  EXPECT_EQ(mac.cpu.notes[0],
            "--os darwin without a sysctl sample: planned for an Apple silicon Mac (aarch64); --arch x86_64 for an "
            "Intel Mac, or --gpus \"Apple M3\" to name the Mac");
  EXPECT_EQ(plan(std::nullopt, "darwin", "x86_64").platform, "x86_64-darwin");
}

TEST(PlannedHost, ArchAloneRunsOnlyTheBaseline) {
  HostFacts h = plan("none", "linux", "aarch64");
  EXPECT_EQ(h.platform, "aarch64-linux");
  EXPECT_TRUE(h.isas.empty());
  EXPECT_TRUE(h.best_isa.empty());
}

TEST(PlannedHost, AMacIsNoLinuxMachine) {
  try {
    plan("Apple M3", "linux");
    FAIL() << "accepted";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(), "tailor: error: --os linux: Apple M3 runs darwin\n");
  }
}

TEST(PlannedHost, EverySystemsGpuIsInTheKnowledgeBaseOnItsPlatform) {
  for (const auto& s : embedded_host_tables().systems) {
    if (s.gpu_sm.empty()) continue;
    const GpuArch* g = embedded_kb().gpu(s.gpu_sm);
    ASSERT_NE(g, nullptr) << s.name;
    std::string platform = s.arch + "-" + std::string(name_of(s.os));
    EXPECT_NE(std::find(g->platforms.begin(), g->platforms.end(), platform), g->platforms.end()) << s.name;
  }
}

}  // namespace
}  // namespace tailor
