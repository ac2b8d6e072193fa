// recommend --link: the catalog page's link for a described machine. The
// expected fragments are worked out by hand from the knowledge base:
// x86_64-linux's GPUs by capability are 6.1 7.0 7.5 8.0 8.6 8.9 9.0 ...
// (Hopper is the 7th, index 6); the CPU choices of x86_64-linux are "AVX-512
// BF16 + VNNI", AVX-512 BF16, AVX-512 VNNI, AVX-512, AVX2, AVX, older (a
// Skylake-SP has AVX-512 without BF16 or VNNI: index 3); CUDA 12.9's driver
// floors are 575.51.03 and its 12.x compatibility floor 525.60.13, then
// "older", then "unknown"; the spec's platforms are x86_64-linux,
// aarch64-linux, aarch64-darwin.
#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

const std::string kSpec = "build-pytorch/pytorch-2.9-python313";

std::vector<std::string> link_args(std::vector<std::string> host) {
  std::vector<std::string> args{"recommend", "--spec", kSpec, "--link", "https://example.org/catalog/#old"};
  args.insert(args.end(), host.begin(), host.end());
  return args;
}

TEST(CatalogLink, AnX86HostWithAnH100BetweenTwoDriverFloors) {
  auto r = test::run_tailor(link_args(
      {"--cpuinfo", test::source_path("tests/data/cpuinfo/x86_64-skylake_sp-avx512"), "--gpus", "H100:570.86.10"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "https://example.org/catalog/#gpu=6%3AH100&driver=1&platform=0&product=0&python=0&cpu=3\n");
}

TEST(CatalogLink, AMachineWhoseGpuBringsItsCpu) {
  // GH200: Grace (Armv9) on aarch64-linux, the platform after x86_64-linux; driver 580 meets 575.51.03.
  auto r = test::run_tailor(link_args({"--gpus", "GH200:580.65.06"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "https://example.org/catalog/#gpu=6%3AGH200&driver=0&platform=1&product=0&python=0&cpu=0\n");
}

TEST(CatalogLink, AMacWithoutAGpu) {
  auto r = test::run_tailor(link_args({"--cpuinfo", test::source_path("tests/data/cpuinfo/aarch64-apple_m2-none"),
                                       "--os", "darwin", "--gpus", "none"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "https://example.org/catalog/#gpu=-1&driver=3&platform=2&product=0&python=0&cpu=0\n");
}

TEST(CatalogLink, APlatformTheCatalogLacksIsAnError) {
  auto r = test::run_tailor({"recommend", "--spec", "build-vllm/main", "--link", "file:///srv/site/index.html", "--os",
                             "darwin", "--cpuinfo", test::source_path("tests/data/cpuinfo/aarch64-apple_m2-none")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tailor: error: the catalog has no build for aarch64-darwin machines\n");
}

}  // namespace
}  // namespace tailor
