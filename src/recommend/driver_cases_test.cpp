// Issue 56: the driver rule both ways, and PyTorch's wheels per (release, CUDA,
// platform). A table written by hand from the sources, not from the code:
// - floors: CUDA 12.x runs on driver 525.60.13+ and 13.x on R580+ through
//   minor-version compatibility (NVIDIA CUDA compatibility guide); a GPU also
//   needs its first branch: B200/RTX 5090 R570, B300 580.82.07, DGX Spark R580,
//   Rubin 615.71.09 (a developer preview); Volta's last branch is R580 (NVIDIA's
//   CUDA Toolkit, Driver and Architecture Matrix).
// - wheels (pytorch RELEASE.md and build scripts): 2.10 and 2.11 cu126/cu128/cu130,
//   2.11's cu128 without sm_70 (pytorch/pytorch#175253); 2.12-2.14 cu126/cu130/cu132,
//   2.13 cu129 disputed; x86_64 cu126 5.0 6.0 7.0 7.5 8.0 8.6 9.0, cu130/cu132 7.5 8.0
//   8.6 9.0 10.0 12.0+PTX; aarch64 cu126 8.0 9.0, cu128 8.0 9.0 10.0 12.0, cu130/cu132
//   8.0 9.0 10.0 11.0 12.0+PTX.
#include <gtest/gtest.h>

#include "host/gpu_spec.hpp"
#include "recommend/upstream_wheel.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

struct Case {
  const char* gpus;     // --gpus: GPU:driver
  const char* arch;     // the host's CPU
  const char* torch;    // release asked for
  const char* backend;  // the answer
  const char* reason;   // a reason the answer must give, in its words
};

const Case kCases[] = {
    // 2.11's cu128 dropped sm_70, cu130 never had it: a V100 gets cu126, which runs on 580 by minor-version compat.
    {"V100:580.65.06", "x86_64", "2.11", "cu126",
     "not cu128: its x86_64-linux build carries no code for SM 7.0 (it has 7.5 8.0 8.6 9.0 10.0 12.0)"},
    // 2.10's cu128 still carries sm_70.
    {"V100:580.65.06", "x86_64", "2.10", "cu128", "SM 7.0: the cu128 x86_64-linux build carries code it runs"},
    // A driver past Volta's last branch does not see the GPU at all.
    {"V100:595.58.03", "x86_64", "2.11", "cpu",
     "driver 595.58.03 no longer supports Volta: the R580 branch is the last for a V100 (SM70)"},
    // Blackwell needs R570 whatever the CUDA: upgrade, not a CUDA 12.8 build through minor-version compat.
    {"RTX 5090:550.54.14", "x86_64", "2.11", "cpu",
     "driver 550.54.14 is too old for Blackwell: an RTX 5090 (SM120) needs an R570 driver: upgrade to R570+"},
    // An H100 on 550 runs CUDA 12.8 through minor-version compatibility (12.x: 525.60.13+); cu130 needs R580.
    {"H100:550.54.14", "x86_64", "2.10", "cu128",
     "CUDA 12.8: driver 550.54.14 meets 525.60.13 (CUDA 12.x runs on driver 525.60.13 and newer through "
     "minor-version compatibility)"},
    {"H100:550.54.14", "x86_64", "2.10", "cu128",
     "not cu130: driver 550.54.14 is older than R580: CUDA 13.x runs on driver R580 and newer through "
     "minor-version compatibility"},
    // No aarch64 build of any release carries sm_75 code: the CPU build, and no nearer release helps.
    {"T4:580.65.06", "aarch64", "2.11", "cpu",
     "no CUDA build of torch 2.11 runs here: the CPU-only build; no CUDA build of any torch release in the table "
     "runs here either (a tailored variant may)"},
    {"T4:580.65.06", "aarch64", "2.11", "cpu",
     "not cu130: its aarch64-linux build carries no code for SM 7.5 (it has 8.0 9.0 10.0 11.0 12.0, PTX of 12.0)"},
    // GH200 (Grace host): the aarch64 cu132 build carries sm_90.
    {"GH200:580.65.06", "aarch64", "2.14", "cu132", "SM 9.0: the cu132 aarch64-linux build carries code it runs"},
    // DGX Spark (12.1) runs the sm_120 cubins; R580 is both its first branch and CUDA 13's floor.
    {"DGX Spark:580.95.05", "aarch64", "2.14", "cu132", "CUDA 13.2: driver 580.95.05 meets R580"},
    // L40S (8.9) on 535: cu128 runs by minor-version compat (sm_86 cubins), cu130 needs R580.
    {"L40S:535.54.03", "x86_64", "2.11", "cu128", "CUDA 12.8: driver 535.54.03 meets 525.60.13"},
    // HGX B200's first release is 570.133.20: the R570 branch, above CUDA 12.x's floor, below 13.x's.
    {"B200:570.133.20", "x86_64", "2.11", "cu128",
     "CUDA 12.8: driver 570.133.20 meets R570 (a B200 (SM100) needs an R570 driver)"},
    // B300 from 580.82.07: a 580.82.07 driver runs the sm_100 cubins of cu132.
    {"B300:580.82.07", "x86_64", "2.14", "cu132",
     "CUDA 13.2: driver 580.82.07 meets 580.82.07 (a B300 (SM103) needs driver 580.82.07 or newer)"},
    // An earlier 580 release predates B300.
    {"B300:580.65.06", "x86_64", "2.14", "cpu",
     "driver 580.65.06 is too old for Blackwell Ultra: a B300 (SM103) needs driver 580.82.07 or newer: upgrade to "
     "580.82.07+"},
    // Rubin on CUDA 13.4's R615 driver runs the sm_100 cubins; its support is a preview.
    {"Vera Rubin:615.71.09", "x86_64", "2.14", "cu132", "Rubin support is a developer preview"},
    // A100 on CUDA 12's first driver: cu126 only (cu130 and cu132 need R580).
    {"A100:525.60.13", "x86_64", "2.12", "cu126", "CUDA 12.6: driver 525.60.13 meets 525.60.13"},
    // 2.13's cu129 is disputed: never chosen, said so.
    {"RTX 4090:595.58.03", "x86_64", "2.13", "cu132",
     "not cu129: some sources name a CUDA 12.9 build of torch 2.13, its release notes do not (disputed)"},
    // Below CUDA 12's floor: no 2.11 build; the nearest release that runs is 2.7 (its CUDA 11.8 build).
    {"H100:520.61.05", "x86_64", "2.11", "cpu", "torch 2.7's cu118 build does"},
};

HostFacts host(const Case& c) {
  CpuInfo cpu;
  cpu.arch = c.arch;
  return make_host_facts(cpu, parse_gpu_spec(c.gpus, embedded_kb(), embedded_host_tables()), Os::gnu_linux,
                         embedded_kb(), embedded_host_tables());
}

TEST(DriverRuleCases, UpstreamWheelPerGpuDriverAndPlatform) {
  static_assert(sizeof(kCases) / sizeof(kCases[0]) >= 15);
  UpstreamWheels wheels = UpstreamWheels::load();
  for (const Case& c : kCases) {
    std::string why;
    auto choice = choose_upstream_wheel(host(c), wheels, embedded_kb(), c.torch, why);
    std::string where = std::string(c.gpus) + " " + c.arch + " torch " + c.torch;
    ASSERT_TRUE(choice) << where << ": " << why;
    EXPECT_EQ(choice->backend, c.backend) << where;
    bool said = false;
    for (const auto& r : choice->reasons) said = said || r.find(c.reason) != std::string::npos;
    std::string all;
    for (const auto& r : choice->reasons) all += "\n  " + r;
    EXPECT_TRUE(said) << where << ": expected a reason with \"" << c.reason << "\", got:" << all;
  }
}

// The tailored answer (build-pytorch/main: CUDA 12.8 for SM61 to SM120) by the same rule.
test::RunResult recommend(const char* gpus, std::initializer_list<std::string> more = {}) {
  std::vector<std::string> args{"recommend",
                                "--spec",
                                "build-pytorch/main",
                                "--cpuinfo",
                                test::source_path("tests/data/cpuinfo/x86_64-haswell-avx2"),
                                "--gpus",
                                gpus};
  args.insert(args.end(), more.begin(), more.end());
  return test::run_tailor(args);
}

TEST(DriverRuleCases, TailoredVariantOnAnOldDriver) {
  // H100 on 550: the CUDA 12.8 variant, through minor-version compatibility.
  auto h = recommend("H100:550.54.14");
  EXPECT_EQ(h.status, 0) << h.err;
  EXPECT_NE(h.out.find("pytorch-python313-cuda12_8-sm90-avx2"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("minor-version compatibility"), std::string::npos) << h.out;
  // RTX 5090 on 550: not the SM120 variant; why-not says to upgrade.
  auto b = recommend("RTX 5090:550.54.14");
  // The chosen variant (the first line) is not SM120; the reasons may name it as the closest.
  EXPECT_EQ(b.out.substr(0, b.out.find('\n')).find("sm120"), std::string::npos) << b.out;
  auto why = recommend("RTX 5090:550.54.14", {"--why-not", "pytorch-python313-cuda12_8-sm120-avx2"});
  EXPECT_NE(why.out.find("an RTX 5090 (SM120) needs an R570 driver: upgrade to R570+"), std::string::npos)
      << why.out << why.err;
  // RTX 5090 on 570.86.16 (R570): the SM120 variant.
  auto ok = recommend("RTX 5090:570.86.16");
  EXPECT_NE(ok.out.find("pytorch-python313-cuda12_8-sm120-avx2"), std::string::npos) << ok.out;
}

}  // namespace
}  // namespace tailor
