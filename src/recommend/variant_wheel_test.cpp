// recommend --wheels: the variant wheel of a folder that runs on a host, by the
// runs-on rule (a cubin runs on its major from its minor up) and the driver rule
// (CUDA 13.x needs R580; NVIDIA's CUDA 13.0 release notes, data/cuda_toolkits.toml).
// Only names and the index are read: the wheels here are empty files.
#include "recommend/variant_wheel.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/run.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

HostFacts host(std::vector<std::string> sms, std::string driver) {
  HostFacts h;
  h.platform = "x86_64-linux";
  for (size_t i = 0; i < sms.size(); ++i) {
    GpuInfo g;
    g.index = static_cast<int>(i);
    g.sm = sms[i];
    g.driver = driver;
    h.gpu.gpus.push_back(g);
  }
  h.gpu.driver = driver;
  return h;
}

constexpr const char* kIndex = R"({
  "$schema": "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json",
  "default-priorities": {"namespace": ["nvidia"]},
  "variants": {
    "sm80": {"nvidia": {"sm_arch": ["80_real"], "cuda_version_lower_bound": ["13.0"]}},
    "sm86_89": {"nvidia": {"sm_arch": ["86_real", "89_real"], "cuda_version_lower_bound": ["13.0"]}},
    "sm90": {"nvidia": {"sm_arch": ["90_real"], "cuda_version_lower_bound": ["13.0"]}},
    "ptx": {"nvidia": {"sm_arch": ["75_virtual"]}},
    "null": {}
  }
})";

class VariantWheel : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* label : {"sm80", "sm86_89", "sm90", "ptx", "null"})
      touch(std::string("t-2.11.0+cu130-cp313-cp313-linux_x86_64-") + label + ".whl");
    std::ofstream(dir() / "t-2.11.0+cu130-variants.json") << kIndex;
  }
  void touch(const std::string& name) const { std::ofstream(dir() / name) << ""; }
  fs::path dir() const { return dir_.path(); }
  std::string wheel(const std::string& label) const {
    return (dir() / ("t-2.11.0+cu130-cp313-cp313-linux_x86_64-" + label + ".whl")).string();
  }
  VariantWheelChoice choose(const HostFacts& h) const { return choose_variant_wheel(h, embedded_kb(), dir(), "", ""); }
  test::TempDir dir_{"variant-wheel"};
};

TEST_F(VariantWheel, TheExactSmFirstThenALowerMinorOfItsMajor) {
  auto c = choose(host({"9.0"}, "580.65.06"));
  EXPECT_EQ(c.wheel, wheel("sm90"));
  EXPECT_EQ(c.reasons.front(), "variant sm90: nvidia :: sm_arch :: 90_real runs on SM 9.0");
  EXPECT_EQ(c.properties,
            (std::vector<std::string>{"nvidia :: cuda_version_lower_bound :: 13.0", "nvidia :: sm_arch :: 90_real"}));
  // 8.9: the wheel with sm_89 code before the sm_80 one, which runs there too.
  EXPECT_EQ(choose(host({"8.9"}, "580.65.06")).wheel, wheel("sm86_89"));
  // 8.7 (Orin): sm_86 code runs on it (same major, lower minor).
  EXPECT_EQ(choose(host({"8.7"}, "580.65.06")).wheel, wheel("sm86_89"));
  // 7.5: no SASS for it; PTX of 7.5 is compiled by the driver, before the null variant.
  EXPECT_EQ(choose(host({"7.5"}, "580.65.06")).wheel, wheel("ptx"));
  // 7.0: nothing but the null variant runs.
  auto old = choose(host({"7.0"}, "580.65.06"));
  EXPECT_EQ(old.wheel, wheel("null"));
  EXPECT_EQ(old.reasons.front(), "variant null: the null variant, which runs anywhere");
}

// A mixed host needs code for each GPU: the 8.0 wheel runs on 8.0 and 8.6, the 9.0 one on neither.
TEST_F(VariantWheel, AMixedHostNeedsCodeForEveryGpu) {
  auto c = choose(host({"8.6", "8.0"}, "580.65.06"));
  EXPECT_EQ(c.wheel, wheel("sm80"));
  bool said = false;
  for (const auto& r : c.reasons)
    said = said || r == "not t-2.11.0+cu130-cp313-cp313-linux_x86_64-sm86_89.whl: nvidia :: sm_arch :: 86_real, "
                        "89_real: none of it runs on SM 8.0";
  EXPECT_TRUE(said);
}

// CUDA 13.0 needs R580: on 550 every CUDA variant is refused and says why.
TEST_F(VariantWheel, TheDriverRuleJudgesTheCudaLowerBound) {
  auto c = choose(host({"9.0"}, "550.54.15"));
  EXPECT_EQ(c.wheel, wheel("ptx"));  // 75_virtual runs on 9.0, and says nothing of CUDA
  bool said = false;
  for (const auto& r : c.reasons)
    said = said || r.starts_with(
                       "not t-2.11.0+cu130-cp313-cp313-linux_x86_64-sm90.whl: nvidia :: "
                       "cuda_version_lower_bound :: 13.0: driver 550.54.15 is older than");
  EXPECT_TRUE(said) << c.reasons.size();
}

// PEP 825: a label missing from the index, or a missing index, makes a wheel incompatible;
// so does a namespace or feature tailor has no rule for.
TEST_F(VariantWheel, WhatTheIndexDoesNotSayDoesNotRun) {
  touch("t-2.11.0+cu130-cp313-cp313-linux_x86_64-sm100.whl");
  auto c = choose(host({"10.0"}, "580.65.06"));
  EXPECT_EQ(c.wheel, wheel("ptx"));  // PTX of 7.5 is compiled for 10.0; sm100 is not in the index
  bool said = false;
  for (const auto& r : c.reasons)
    said = said || r == "not t-2.11.0+cu130-cp313-cp313-linux_x86_64-sm100.whl: label 'sm100' is not in "
                        "t-2.11.0+cu130-variants.json";
  EXPECT_TRUE(said);
  fs::remove(dir() / "t-2.11.0+cu130-variants.json");
  touch("t-2.11.0+cu130-cp313-cp313-linux_x86_64.whl");
  auto plain = choose(host({"9.0"}, "580.65.06"));
  EXPECT_EQ(plain.wheel, (dir() / "t-2.11.0+cu130-cp313-cp313-linux_x86_64.whl").string());
  EXPECT_EQ(plain.reasons.front(), "no variant runs here: the non-variant wheel");
}

TEST_F(VariantWheel, BadIndexAndAmbiguousFoldersAreErrors) {
  std::ofstream(dir() / "t-2.11.0+cu130-variants.json")
      << R"({"$schema": "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json",
 "default-priorities": {"namespace": ["nvidia"]},
 "variants": {"sm90": {"x86_64": {"level": ["v3"]}}}})";
  try {
    choose(host({"9.0"}, "580.65.06"));
    FAIL() << "a bad index was read";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().pos.line, 3);
    EXPECT_EQ(e.diagnostic().message, "namespace 'x86_64' is missing from default-priorities.namespace");
  }
  touch("u-1.0-py3-none-any-sm90.whl");
  try {
    choose(host({"9.0"}, "580.65.06"));
    FAIL() << "two packages were not told apart";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "variant wheels of several packages or versions: t 2.11.0+cu130, u 1.0");
  }
  // --package chooses; u has no index beside it, so nothing of it runs.
  EXPECT_EQ(choose_variant_wheel(host({"9.0"}, ""), embedded_kb(), dir(), "u", "").wheel, "");
}

}  // namespace
}  // namespace tailor
