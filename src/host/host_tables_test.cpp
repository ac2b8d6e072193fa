// data/host_features.toml: a few entries checked against their sources by
// hand, the invariants, the closed schema, and overlays.
#include "host/host_tables.hpp"

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

const CpuidBit* cpuid(const std::string& feature) {
  for (const auto& b : embedded_host_tables().cpuid)
    if (b.feature == feature) return &b;
  return nullptr;
}

const HwcapBit* hwcap(const std::string& feature) {
  for (const auto& b : embedded_host_tables().hwcap)
    if (b.feature == feature) return &b;
  return nullptr;
}

TEST(HostTables, EntriesMatchTheirSources) {
  // Intel SDM vol. 2A, CPUID: leaf 1 ECX bit 28 AVX; leaf 7 EBX bit 5 AVX2,
  // bit 16 AVX512F; leaf 7 subleaf 1 EAX bit 5 AVX512_BF16.
  ASSERT_TRUE(cpuid("avx") && cpuid("avx2") && cpuid("avx512f") && cpuid("avx512_bf16"));
  EXPECT_EQ(cpuid("avx")->reg, "1.ecx");
  EXPECT_EQ(cpuid("avx")->bit, 28);
  EXPECT_EQ(cpuid("avx2")->reg, "7.ebx");
  EXPECT_EQ(cpuid("avx2")->bit, 5);
  EXPECT_EQ(cpuid("avx512f")->bit, 16);
  EXPECT_EQ(cpuid("avx512_bf16")->reg, "7.1.eax");
  EXPECT_EQ(cpuid("avx512_bf16")->bit, 5);
  EXPECT_EQ(cpuid("avx512f")->xsave, (std::vector<std::string>{"avx", "avx512"}));
  EXPECT_TRUE(cpuid("sse2")->xsave.empty());
  // Intel SDM vol. 1, 13.1: XCR0 bits 1-2 (SSE, AVX), 5-7 (AVX-512), 17-18 (AMX).
  EXPECT_EQ(embedded_host_tables().xsave_state("avx")->xcr0_mask, 0x6u);
  EXPECT_EQ(embedded_host_tables().xsave_state("avx512")->xcr0_mask, 0xe0u);
  EXPECT_EQ(embedded_host_tables().xsave_state("amx")->xcr0_mask, 0x60000u);
  // Linux arch/arm64/include/uapi/asm/hwcap.h: HWCAP_SVE (1 << 22), HWCAP2_SVE2 (1 << 1).
  ASSERT_TRUE(hwcap("sve") && hwcap("sve2"));
  EXPECT_FALSE(hwcap("sve")->hwcap2);
  EXPECT_EQ(hwcap("sve")->bit, 22);
  EXPECT_TRUE(hwcap("sve2")->hwcap2);
  EXPECT_EQ(hwcap("sve2")->bit, 1);
  // x86-64 psABI: four levels, v3 adds AVX2, FMA and MOVBE.
  const auto& levels = embedded_host_tables().x86_64_levels;
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[2].name, "v3");
  for (const char* f : {"avx2", "fma", "movbe"})
    EXPECT_NE(std::find(levels[2].features.begin(), levels[2].features.end(), f), levels[2].features.end()) << f;
  // Linux arch/arm64/include/asm/cputype.h.
  EXPECT_STREQ(embedded_host_tables().implementer_name(0x41), "ARM");
  EXPECT_STREQ(embedded_host_tables().implementer_name(0x61), "Apple");
  EXPECT_STREQ(embedded_host_tables().part_name(0x41, 0xd4f), "Neoverse-V2");
  EXPECT_EQ(embedded_host_tables().part_name(0x61, 0xd4f), nullptr) << "part codes belong to their implementer";
}

TEST(HostTables, EmbeddedTablesKeepTheInvariants) {
  EXPECT_EQ(check_invariants(embedded_host_tables()), std::vector<std::string>{});
}

TEST(HostTables, EveryFeatureTheKnowledgeBaseRequiresCanBeDetected) {
  std::set<std::string> x86, arm;
  for (const auto& b : embedded_host_tables().cpuid) x86.insert(b.feature);
  for (const auto& b : embedded_host_tables().hwcap) arm.insert(b.feature);
  for (const auto& isa : KnowledgeBase::load().isas)
    for (const auto& f : isa.requires_features)
      EXPECT_TRUE((isa.platform.starts_with("x86_64") ? x86 : arm).contains(f)) << isa.name << ": " << f;
}

std::string error_of(const std::string& text) {
  try {
    HostTables::parse("host_features.toml", text, embedded_host_tables());
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "";
}

TEST(HostTables, BadDataIsReportedWithItsPlace) {
  EXPECT_EQ(error_of("cpuid = [ { feature = \"avx\", register = \"2.eax\", bit = 28 } ]\n"),
            "host_features.toml:1:41: error: unknown CPUID register '2.eax'\n"
            "cpuid = [ { feature = \"avx\", register = \"2.eax\", bit = 28 } ]\n"
            "                                        ^\n"
            "hint: registers: 1.ecx 1.edx 7.ebx 7.ecx 7.edx 7.1.eax 0x80000001.ecx 0x80000001.edx\n");
  EXPECT_NE(error_of("hwcap = [ { feature = \"sve\", word = \"AT_HWCAP\", bit = 22, colour = 1 } ]\n").find("colour"),
            std::string::npos)
      << "the schema is closed";
  EXPECT_NE(error_of("hwcap = [ { feature = \"sve\", word = \"AT_HWCAP\", bit = 64 } ]\n").find("bit 64 is outside"),
            std::string::npos);
}

TEST(HostTables, BrokenInvariantsAreListed) {
  std::string text =
      "cpuid = [ { feature = \"avx\", register = \"1.ecx\", bit = 28, xsave = [\"ymm\"] },\n"
      "          { feature = \"avx\", register = \"1.ecx\", bit = 29 } ]\n"
      "x86_64_level = [ { name = \"v1\", features = [\"avx\", \"sse\"] } ]\n"
      "darwin_arm = [ { key = \"hw.optional.neon\", feature = \"neon\" } ]\n"
      "darwin_x86 = []\n";  // its names are CPUID features this short list lacks
  std::string err = error_of(text);
  EXPECT_NE(err.find("error: the host tables break 4 invariants"), std::string::npos) << err;
  for (const char* note : {"duplicate CPUID feature 'avx'", "CPUID feature 'avx' needs unknown XSAVE state 'ymm'",
                           "x86-64 level v1 needs 'sse', which no CPUID bit reports",
                           "sysctl hw.optional.neon maps to 'neon', which is no HWCAP feature"})
    EXPECT_NE(err.find(note), std::string::npos) << note << "\n" << err;
}

TEST(HostTables, AnOverlayReplacesTheListsItHas) {
  test::TempDir dir("host-tables");
  std::ofstream(dir.path() + "/host_features.toml")
      << "arm_implementer = [ { code = 0x41, name = \"Arm Ltd\" }, { code = 0x6d, name = \"Microsoft\" } ]\n"
         "arm_part = []\n";
  HostTables t = HostTables::load(dir.path());
  EXPECT_STREQ(t.implementer_name(0x6d), "Microsoft");
  EXPECT_STREQ(t.implementer_name(0x41), "Arm Ltd");
  EXPECT_EQ(t.implementer_name(0x61), nullptr) << "the overlay's list replaced the embedded one";
  EXPECT_EQ(t.cpuid.size(), embedded_host_tables().cpuid.size()) << "lists the overlay lacks stay";
  EXPECT_EQ(HostTables::load(dir.path() + "/none").arm_implementers.size(),
            embedded_host_tables().arm_implementers.size());
}

}  // namespace
}  // namespace tailor
