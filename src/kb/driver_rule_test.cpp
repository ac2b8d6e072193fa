// The driver rule (issue 56), expected values by hand from NVIDIA's documents:
// CUDA 12.x runs on 525.60.13+ and 13.x on R580+ through minor-version
// compatibility; first branches: A100 R450, H100 R520, B200 and RTX 5090 R570,
// B300 580.82.07, DGX Spark R580; Volta's last branch is R580.
#include "kb/driver_rule.hpp"

#include <gtest/gtest.h>

#include "kb/invariants.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {
namespace {

std::string floor_of(const char* cuda, const char* sm) {
  auto f = driver_floor(*embedded_kb().cuda(cuda), sm ? embedded_kb().gpu(sm) : nullptr);
  return f ? f->floor.str() : "none";
}

TEST(DriverRule, FloorIsTheHigherOfCudaMajorAndFirstBranch) {
  EXPECT_EQ(floor_of("12.8", "8.0"), "525.60.13");    // A100: R450 < 525.60.13
  EXPECT_EQ(floor_of("12.8", "9.0"), "525.60.13");    // H100: R520 < 525.60.13
  EXPECT_EQ(floor_of("12.8", "8.9"), "525.60.13");    // L40S
  EXPECT_EQ(floor_of("12.8", "10.0"), "570");         // B200: R570
  EXPECT_EQ(floor_of("12.8", "12.0"), "570");         // RTX 5090: R570
  EXPECT_EQ(floor_of("12.9", "10.3"), "580.82.07");   // B300
  EXPECT_EQ(floor_of("12.9", "12.1"), "580");         // DGX Spark
  EXPECT_EQ(floor_of("13.0", "10.0"), "580");         // CUDA 13.x: R580 above R570
  EXPECT_EQ(floor_of("13.4", "10.7"), "615.71.09");   // Rubin
  EXPECT_EQ(floor_of("12.8", nullptr), "525.60.13");  // no GPU known: the CUDA major's floor
}

TEST(DriverRule, WrittenFloorsAreJudgedByWhatTheyName) {
  EXPECT_TRUE(written_floor_meets("550", Version::parse("525.60.13").value()));  // the 550 branch
  EXPECT_TRUE(written_floor_meets("525", Version::parse("525.60.13").value()));  // a major names its branch
  EXPECT_FALSE(written_floor_meets("550", Version::parse("570").value()));
  EXPECT_TRUE(written_floor_meets("570.26", Version::parse("570").value()));
  EXPECT_FALSE(written_floor_meets("580.65.06", Version::parse("580.82.07").value()));
  EXPECT_TRUE(written_floor_meets("580", Version::parse("580.82.07").value()));
}

TEST(DriverRule, TheWhySaysWhichGpuNeedsWhat) {
  EXPECT_EQ(driver_floor(*embedded_kb().cuda("12.8"), embedded_kb().gpu("12.0"))->why,
            "an RTX 5090 (SM120) needs an R570 driver");
  EXPECT_EQ(driver_floor(*embedded_kb().cuda("12.8"), embedded_kb().gpu("10.0"))->why,
            "a B200 (SM100) needs an R570 driver");
  EXPECT_EQ(driver_floor(*embedded_kb().cuda("12.8"), embedded_kb().gpu("9.0"))->why,
            "CUDA 12.x runs on driver 525.60.13 and newer through minor-version compatibility");
}

TEST(DriverRule, FirstAndLastBranchBoundWhatADriverRuns) {
  const GpuArch& v100 = *embedded_kb().gpu("7.0");
  EXPECT_EQ(driver_supports(v100, Version::parse("580.65.06").value()), DriverSupport::supported);
  EXPECT_EQ(driver_supports(v100, Version::parse("595.58.03").value()), DriverSupport::too_new);
  const GpuArch& rtx5090 = *embedded_kb().gpu("12.0");
  EXPECT_EQ(driver_supports(rtx5090, Version::parse("550.54.14").value()), DriverSupport::too_old);
  EXPECT_EQ(driver_supports(rtx5090, Version::parse("570.86.16").value()), DriverSupport::supported);
  EXPECT_EQ(driver_supports(*embedded_kb().gpu("10.3"), Version::parse("580.65.06").value()), DriverSupport::too_old);
  EXPECT_EQ(unsupported_text(v100, Version::parse("595.58.03").value(), DriverSupport::too_new),
            "driver 595.58.03 no longer supports Volta: the R580 branch is the last for a V100 (SM70)");
}

TEST(DriverRule, GeneratedFloorKeepsATeamNumberThatMeetsTheRule) {
  const CudaToolkit& c128 = *embedded_kb().cuda("12.8");
  std::vector<const GpuArch*> hopper{embedded_kb().gpu("9.0")},
      mixed{embedded_kb().gpu("9.0"), embedded_kb().gpu("12.0")};
  EXPECT_EQ(written_floor(c128, hopper, "550"), "550");  // right for an H100: kept
  EXPECT_EQ(written_floor(c128, mixed, "550"), "570");   // too low for the RTX 5090: R570
  EXPECT_EQ(written_floor(c128, hopper, ""), "570");     // tailor's own: the GA driver's major
  EXPECT_EQ(written_floor(*embedded_kb().cuda("12.9"), {embedded_kb().gpu("10.3")}, ""), "580");  // B300 above 575
}

TEST(DriverRule, GpuDriverFactsCarryTheirSource) {
  for (const auto& g : embedded_kb().gpus) {
    if (g.first_driver || g.last_driver) {
      EXPECT_FALSE(g.driver_source.empty()) << g.sm;
    }
  }
  // Every Blackwell and later GPU that is not Jetson-class has a first branch.
  for (const char* sm : {"10.0", "10.3", "10.7", "12.0", "12.1"})
    EXPECT_TRUE(embedded_kb().gpu(sm)->first_driver) << sm;
  EXPECT_TRUE(embedded_kb().gpu("10.7")->preview);
  EXPECT_TRUE(embedded_kb().gpu("7.0")->driver_inferred);
}

}  // namespace
}  // namespace tailor
