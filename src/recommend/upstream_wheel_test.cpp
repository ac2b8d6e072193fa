// PyTorch's own wheel indexes (data/upstream_wheels.toml): the table keeps its
// invariants, and the choice follows the driver and the GPU's SM. Expected
// values from pytorch/pytorch RELEASE.md (torch 2.9: CUDA 12.6, 12.8, 13.0)
// and NVIDIA's minimum drivers (12.8: 570.26, 13.0: 580.65.06).
#include "recommend/upstream_wheel.hpp"

#include <gtest/gtest.h>

#include "host/gpu_spec.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

HostFacts linux_host(const std::string& gpus) {
  CpuInfo cpu;
  cpu.arch = "x86_64";
  return make_host_facts(cpu, parse_gpu_spec(gpus, embedded_kb(), embedded_host_tables()), Os::gnu_linux, embedded_kb(),
                         embedded_host_tables());
}

UpstreamChoice choose(const HostFacts& h, const std::string& version = "2.9") {
  std::string why;
  auto c = choose_upstream_wheel(h, UpstreamWheels::load(), embedded_kb(), version, why);
  EXPECT_TRUE(c) << why;
  return c ? *c : UpstreamChoice{};
}

TEST(UpstreamWheels, EmbeddedTableKeepsItsInvariants) {
  EXPECT_EQ(check_invariants(UpstreamWheels::load(), embedded_kb()), std::vector<std::string>{});
}

TEST(UpstreamWheels, BrokenInvariantsAreListed) {
  auto w = UpstreamWheels::parse(
      "u.toml",
      "for_package = \"pytorch\"\npackage = \"torch\"\n"
      "index = \"https://example.invalid/{backend}\"\ncpu_backend = \"cpu\"\n"
      "[[torch]]\nversion = \"2.9\"\ncuda = [\"12.8\", \"12.6\", \"12.7\"]\n"
      "[[torch]]\nversion = \"2.8\"\n"
      "[[build]]\ncuda = \"12.8\"\nplatform = \"x86_64-linux\"\nsm = [\"9.0\"]\nsource = \"s\"\n"
      "[[build]]\ncuda = \"12.6\"\nplatform = \"x86_64-linux\"\nsm = [\"9.0\"]\nsource = \"s\"\n");
  EXPECT_EQ(check_invariants(w, embedded_kb()),
            (std::vector<std::string>{"upstream_wheels.toml: torch 2.9 lists CUDA 12.6 after 12.8",
                                      "upstream_wheels.toml: torch 2.9 names CUDA 12.7, which has no [[build]] saying "
                                      "its SMs",
                                      "upstream_wheels.toml: torch 2.9 names CUDA 12.7, which cuda_toolkits.toml does "
                                      "not know",
                                      "upstream_wheels.toml: torch 2.8 is not newer than the release before it"}));
}

// The releases are tables named by `package`, as is a build's list of them: the
// table is data, not a name of the code's.
TEST(UpstreamWheels, ReleaseTablesAreNamedByThePackage) {
  auto w = UpstreamWheels::parse(
      "u.toml",
      "for_package = \"onnxruntime\"\npackage = \"onnxruntime-gpu\"\n"
      "index = \"https://example.invalid/{backend}\"\ncpu_backend = \"cpu\"\n"
      "[[onnxruntime-gpu]]\nversion = \"1.22\"\ncuda = [\"12.8\"]\n"
      "[[onnxruntime-gpu]]\nversion = \"1.21\"\ncuda = [\"12.8\"]\n"
      "[[build]]\ncuda = \"12.8\"\nplatform = \"x86_64-linux\"\nonnxruntime-gpu = [\"1.20\"]\nsm = [\"9.0\"]\n"
      "source = \"s\"\n");
  ASSERT_EQ(w.releases.size(), 2u);
  EXPECT_EQ(w.releases[0].version, "1.22");
  ASSERT_EQ(w.builds.size(), 1u);
  EXPECT_EQ(w.builds[0].torch, std::vector<std::string>{"1.20"});
  EXPECT_EQ(check_invariants(w, embedded_kb()),
            (std::vector<std::string>{
                "upstream_wheels.toml: onnxruntime-gpu 1.22 names CUDA 12.8, which has no [[build]] saying its SMs",
                "upstream_wheels.toml: onnxruntime-gpu 1.21 is not newer than the release before it",
                "upstream_wheels.toml: onnxruntime-gpu 1.21 names CUDA 12.8, which has no [[build]] saying its SMs",
                "upstream_wheels.toml: a [[build]] of CUDA 12.8 names onnxruntime-gpu 1.20, which has no such build"}));
  // A [[torch]] table in this file is a key the file does not know.
  EXPECT_THROW(UpstreamWheels::parse("u.toml",
                                     "for_package = \"onnxruntime\"\npackage = \"onnxruntime-gpu\"\n"
                                     "index = \"https://example.invalid/{backend}\"\ncpu_backend = \"cpu\"\n"
                                     "[[torch]]\nversion = \"1.22\"\n"),
               DiagnosticError);
}

TEST(UpstreamWheels, NewestCudaTheDriverRuns) {
  EXPECT_EQ(choose(linux_host("H100:580.65.06")).backend, "cu130");
  UpstreamChoice c = choose(linux_host("H100:570.26"));
  EXPECT_EQ(c.backend, "cu128");
  EXPECT_EQ(c.index_url, "https://download.pytorch.org/whl/cu128");
  EXPECT_EQ(c.install, "uv pip install 'torch==2.9.*' --index-url https://download.pytorch.org/whl/cu128");
  // CUDA 13.x runs on R580+ through minor-version compatibility (NVIDIA's CUDA compatibility guide).
  EXPECT_EQ(
      c.reasons.front(),
      "not cu130: driver 570.26 is older than R580: CUDA 13.x runs on driver R580 and newer through minor-version "
      "compatibility");
  // torch 2.7: CUDA 11.8, 12.6, 12.8; an H100 on 560 runs 12.8 through minor-version compatibility
  // (CUDA 12.x: driver 525.60.13+; the H100's first branch is R520).
  EXPECT_EQ(choose(linux_host("H100:560.28.03"), "2.7.1").backend, "cu128");
}

TEST(UpstreamWheels, TheSmDecidesToo) {
  // The cu130 and cu128 builds start at sm_75 and sm_70 (pytorch .ci/manywheel/build_cuda.sh); cu126 has
  // sm_60, whose cubins a 6.1 GPU runs: a GTX 1080 with a new driver gets the 12.6 build.
  UpstreamChoice c = choose(linux_host("GTX 1080:580.65.06"));
  EXPECT_EQ(c.backend, "cu126");
  EXPECT_EQ(c.reasons.front(),
            "not cu130: its x86_64-linux build carries no code for SM 6.1 (it has 7.5 8.0 8.6 9.0 10.0 12.0, PTX of "
            "12.0)");
  // An RTX 4090 (8.9) runs the sm_86 cubins of the newest build.
  EXPECT_EQ(choose(linux_host("RTX 4090:580.65.06")).backend, "cu130");
}

TEST(UpstreamWheels, CpuAndMac) {
  EXPECT_EQ(choose(linux_host("none")).backend, "cpu");
  UpstreamChoice old = choose(linux_host("H100:470.57.02"));
  EXPECT_EQ(old.backend, "cpu");
  EXPECT_EQ(old.reasons.back(), "no CUDA build of torch 2.9 runs here: the CPU-only build");
  CpuInfo m;
  m.arch = "aarch64";
  UpstreamChoice mac = choose(make_host_facts(m, parse_gpu_spec("none", embedded_kb(), embedded_host_tables()),
                                              Os::darwin, embedded_kb(), embedded_host_tables()));
  EXPECT_EQ(mac.backend, "");
  EXPECT_EQ(mac.install, "uv pip install 'torch==2.9.*'");
}

TEST(UpstreamWheels, UnknownVersionSaysWhichAreKnown) {
  std::string why;
  EXPECT_FALSE(choose_upstream_wheel(linux_host("none"), UpstreamWheels::load(), embedded_kb(), "2.3.1", why));
  EXPECT_EQ(why,
            "torch 2.3.1 is not in upstream_wheels.toml (it knows 2.6, 2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13, 2.14)");
}

std::string run_text(const std::vector<std::string>& args) {
  auto r = test::run_tailor(args);
  return "status " + std::to_string(r.status) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

TEST(UpstreamWheels, RecommendFormatUv) {
  test::expect_golden(
      run_text({"recommend", "--format", "uv", "--spec", "build-pytorch/pytorch-2.9-python313", "--cpuinfo",
                "tests/data/cpuinfo/x86_64-zen4-avx512bf16", "--gpus", "H100:570"}) +
          run_text({"recommend", "--format", "uv", "--json", "--spec", "build-pytorch/pytorch-2.9-python313",
                    "--cpuinfo", "tests/data/cpuinfo/x86_64-sandybridge-avx", "--gpus", "GTX 1080:470.57.02"}),
      "tests/golden/recommend/recommend-format-uv.txt");
}

}  // namespace
}  // namespace tailor
