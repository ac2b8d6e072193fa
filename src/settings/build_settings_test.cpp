#include "settings/build_settings.hpp"

#include <gtest/gtest.h>

#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"

namespace tailor {
namespace {

struct Loaded {
  Spec spec;
  Matrix matrix;
};

const Loaded& example(const std::string& name) {
  static std::map<std::string, Loaded> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    Spec s = load_spec_arg(test::source_path("examples/" + name + ".toml"), embedded_kb());
    Matrix m = expand(s, embedded_kb());
    it = cache.emplace(name, Loaded{std::move(s), std::move(m)}).first;
  }
  return it->second;
}

BuildSettings settings(const std::string& spec, const std::string& variant) {
  const Loaded& l = example(spec);
  const Variant* v = l.matrix.find(variant);
  EXPECT_NE(v, nullptr) << variant;
  return derive_settings(*v, l.spec, l.matrix, embedded_kb());
}

std::string env(const BuildSettings& s, const std::string& name) {
  for (const auto& [k, v] : s.env)
    if (k == name) return v;
  return "(unset)";
}
std::string arg(const BuildSettings& s, const std::string& name) {
  for (const auto& [k, v] : s.override_args)
    if (k == name) return v;
  return "(unset)";
}
std::vector<std::string> disabled(const BuildSettings& s) {
  std::vector<std::string> out;
  for (const auto& d : s.disabled) out.push_back(d.feature);
  return out;
}
bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(BuildSettings, PascalAvxGetsCudnnOffAndTheAvxOnlyTreatment) {
  auto s = settings("build-pytorch/pytorch-2.9-python313", "pytorch-python313-cuda12_9-sm61-avx");
  EXPECT_EQ(env(s, "USE_CUDNN"), "0");
  EXPECT_EQ(env(s, "USE_FBGEMM"), "0");
  EXPECT_EQ(env(s, "USE_MKLDNN"), "0");
  EXPECT_EQ(env(s, "USE_NNPACK"), "0");
  EXPECT_EQ(disabled(s), (std::vector<std::string>{"CUDNN", "FBGEMM", "MKLDNN", "NNPACK"}));
  EXPECT_TRUE(contains(s.cmake_flags, "-DCXX_AVX2_FOUND=FALSE"));
  EXPECT_TRUE(contains(s.cmake_flags, "-DC_AVX512_FOUND=FALSE"));
  EXPECT_EQ(s.cpu_flags, (std::vector<std::string>{"-mavx", "-mno-fma", "-mno-bmi", "-mno-bmi2", "-mno-avx2"}));
  // The reason names the pin's cuDNN and the SM's last supporting release.
  EXPECT_EQ(s.disabled[0].reason, "cuDNN 9.13.0 on pin 6a030d5 no longer supports SM 6.1 (last: cuDNN 9.10)");
}

TEST(BuildSettings, PascalAvx2DisablesCudnnOnly) {
  auto s = settings("build-pytorch/pytorch-2.9-python313", "pytorch-python313-cuda12_9-sm61-avx2");
  EXPECT_EQ(disabled(s), std::vector<std::string>{"CUDNN"});
  EXPECT_TRUE(s.cmake_flags.empty());
}

TEST(BuildSettings, UnknownCudnnIsTreatedConservatively) {
  // Pin fe5e41d does not record its cuDNN: SM < 7.5 still gets USE_CUDNN=0, as flox/build-pytorch's recipes do.
  auto s = settings("build-pytorch/main", "pytorch-python313-cuda12_8-sm61-avx2");
  EXPECT_EQ(env(s, "USE_CUDNN"), "0");
  EXPECT_NE(s.disabled[0].reason.find("does not record its cuDNN version"), std::string::npos);
}

TEST(BuildSettings, HopperTargetsOneSmBothWays) {
  auto s = settings("build-pytorch/pytorch-2.9-python313", "pytorch-python313-cuda12_9-sm90-avx512");
  EXPECT_TRUE(s.cuda_support);
  EXPECT_EQ(s.cuda_capabilities, std::vector<std::string>{"9.0"});
  EXPECT_EQ(arg(s, "gpuTargets"), "[ \"9.0\" ]");
  EXPECT_EQ(arg(s, "cudaSupport"), "true");
  EXPECT_EQ(s.cuda_packages, "cudaPackages_12_9");
  EXPECT_EQ(s.python_packages, "python313Packages");
  EXPECT_EQ(env(s, "USE_CUDNN"), "(unset)");
  EXPECT_TRUE(s.disabled.empty());
  EXPECT_EQ(s.nvcc_flags, (std::vector<std::string>{"-Xfatbin", "-compress-all"}));
  EXPECT_EQ(s.required_system_features, std::vector<std::string>{"big-parallel"});
  ASSERT_TRUE(s.driver);
  EXPECT_EQ(s.driver->min_driver, "575.51.03");
  EXPECT_EQ(s.driver->minor_compat_driver, "525.60.13");
  EXPECT_EQ(s.pin_rev, "6a030d535719c5190187c4cec156f335e95e3211");
  EXPECT_EQ(s.platforms, std::vector<std::string>{"x86_64-linux"});
  EXPECT_EQ(s.description, "PyTorch 2.9.1 for NVIDIA H100/H200/GH200 (SM90, Hopper) + AVX-512 [CUDA 12.9]");
  EXPECT_EQ(s.header_comment,
            (std::vector<std::string>{"PyTorch 2.9.1 for NVIDIA Hopper (SM90: H100, H200, GH200) — AVX-512",
                                      "CUDA 12.9 — Requires NVIDIA driver 575.51.03+",
                                      "nixpkgs 6a030d5 — gpuTargets and cudaCapabilities = [ \"9.0\" ]"}));
}

TEST(BuildSettings, NoDescriptionNamesAGpuUnderTheWrongArchitecture) {
  for (const char* spec : {"build-pytorch/pytorch-2.9-vllm-0.14.0", "build-vllm/vllm-0.14.0"}) {
    const Loaded& l = example(spec);
    for (const auto& v : l.matrix.variants) {
      if (v.backend != "cuda") continue;
      BuildSettings s = derive_settings(v, l.spec, l.matrix, embedded_kb());
      std::string text = s.description + s.long_description;
      for (const auto& line : s.header_comment) text += line;
      bool mentions_l40s = text.find("L40S") != std::string::npos;
      EXPECT_EQ(mentions_l40s, v.sm == "8.9") << v.name;
      for (const auto& g : embedded_kb().gpus) {
        if (g.sm != v.sm) {
          EXPECT_EQ(text.find("(" + g.display() + ","), std::string::npos) << v.name << " mentions " << g.display();
        }
      }
    }
  }
}

TEST(BuildSettings, Torch210OnCuda13UsesThePinWorkarounds) {
  auto ids = [](const BuildSettings& s) {
    std::vector<std::string> out;
    for (const auto& w : s.workarounds) out.push_back(w.id);
    return out;
  };
  auto s130 = settings("build-pytorch/pytorch-2.10-python313", "pytorch-python313-cuda13_0-sm90-avx512");
  EXPECT_EQ(ids(s130), (std::vector<std::string>{"torch-2.10.0-from-source", "torch-cuda13-on-2.9-recipe",
                                                 "magma-cuda13.0-clockrate"}));
  EXPECT_TRUE(contains(s130.cmake_flags, "-DTORCH_BUILD_VERSION=2.10.0"));
  EXPECT_EQ(env(s130, "PYTORCH_BUILD_VERSION"), "2.10.0");
  auto s131 = settings("build-pytorch/pytorch-2.10-python313", "pytorch-python313-cuda13_1-sm90-avx512");
  EXPECT_EQ(ids(s131), (std::vector<std::string>{"torch-2.10.0-from-source", "torch-cuda13-on-2.9-recipe"}));
  EXPECT_EQ(s131.pin_short, "2017d6d");
  auto cpu = settings("build-pytorch/pytorch-2.10-python313", "pytorch-python313-cpu-avx2");
  EXPECT_EQ(ids(cpu), std::vector<std::string>{"torch-2.10.0-from-source"});
  // Pin 0182a36 ships 2.9.1 (a migration plan claimed 2.10.0): the team's recipes there
  // override torch to 2.10.0 from source, and so does the workaround; CUDA 12.9 needs no more.
  auto on0182 = settings("build-pytorch/pytorch-2.10-cuda12_9", "pytorch-python313-cuda12_9-sm90-avx512");
  EXPECT_EQ(ids(on0182), std::vector<std::string>{"torch-2.10.0-from-source"});
  EXPECT_EQ(on0182.variant.version_of("pytorch"), "2.10.0");
}

TEST(BuildSettings, CpuOnlyAndDarwin) {
  auto cpu = settings("build-pytorch/main", "pytorch-python313-cpu-armv9");
  EXPECT_FALSE(cpu.cuda_support);
  EXPECT_TRUE(cpu.cuda_capabilities.empty());
  EXPECT_EQ(arg(cpu, "cudaSupport"), "false");
  EXPECT_EQ(cpu.blas_provider, "openblas");
  EXPECT_EQ(cpu.platforms, std::vector<std::string>{"aarch64-linux"});
  EXPECT_FALSE(cpu.driver);
  EXPECT_EQ(cpu.description, "PyTorch 2.8.0 CPU-only for aarch64 with ARMv9");
  auto mps = settings("build-pytorch/main", "pytorch-python313-darwin-mps");
  EXPECT_EQ(mps.platforms, std::vector<std::string>{"aarch64-darwin"});
  EXPECT_EQ(mps.blas_provider, "accelerate");
  EXPECT_TRUE(mps.override_args.empty());
  EXPECT_TRUE(mps.cpu_flags.empty());
}

TEST(BuildSettings, CompanionsBuildAgainstTheirTorch) {
  auto s = settings("build-pytorch/main", "torchvision-python313-cuda12_8-sm75-avx");
  EXPECT_EQ(
      s.dependency_variants,
      (std::vector<std::pair<std::string, std::string>>{{"torchVariant", "pytorch-python313-cuda12_8-sm75-avx"}}));
  EXPECT_EQ(arg(s, "torch"), "pytorch-python313-cuda12_8-sm75-avx");
  EXPECT_EQ(s.cuda_capabilities, std::vector<std::string>{"7.5"});
  // The AVX-only disables belong to torch, not to torchvision's own build.
  EXPECT_TRUE(s.disabled.empty());
}

TEST(BuildSettings, VllmSwapsTorchAndPinsBitsandbytesToTheSm) {
  auto s = settings("build-vllm/vllm-0.14.0", "vllm-python312-cuda12_9-sm70-avx");
  EXPECT_EQ(arg(s, "torch"), "pytorch-python312-cuda12_9-sm70-avx");
  EXPECT_EQ(
      s.substituted,
      (std::vector<std::pair<std::string, std::string>>{{"customTorchName", "pytorch-python312-cuda12_9-sm70-avx"}}));
  EXPECT_EQ(arg(s, "gpuTargets"), "[ \"7.0\" ]");
  ASSERT_EQ(s.extra_cmake_flags.size(), 1u);
  EXPECT_EQ(s.extra_cmake_flags[0].first, "bitsandbytesCmakeFlags");
  EXPECT_EQ(s.extra_cmake_flags[0].second, std::vector<std::string>{"-DCOMPUTE_CAPABILITY=70"});
  EXPECT_EQ(s.python_interpreter, "python312");
  EXPECT_EQ(env(s, "USE_CUDNN"), "0");
  EXPECT_EQ(env(s, "USE_FBGEMM"), "0");
  bool bnb = false;
  for (const auto& e : s.trail)
    bnb = bnb || (e.key == "bitsandbytes cmakeFlags" && e.value == "-DCOMPUTE_CAPABILITY=70");
  EXPECT_TRUE(bnb);
  EXPECT_EQ(s.description, "vLLM 0.14.0 for NVIDIA V100/Titan V (SM70) [CUDA 12.9, custom PyTorch 2.9.1 AVX]");
  EXPECT_EQ(s.header_comment[2], "Custom PyTorch 2.9.1 built from source (SM70 + AVX)");
}

TEST(BuildSettings, TorchPicksUpTheMatrixsMagma) {
  std::string text = R"([branch]
name = "t"
product = "p"
pin = "6a030d5"
python = "3.13"

[[family]]
name = "magma"
package = "magma"
backend = "cuda"
cuda = "12.9"
sm = "12.0"
isa = "avx2"

[[family]]
name = "torch"
package = "pytorch"
backend = "cuda"
cuda = "12.9"
sm = ["9.0", "12.0"]
isa = "avx2"
)";
  Spec spec = load_spec("t.toml", text, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  auto with = derive_settings(*m.find("pytorch-python313-cuda12_9-sm120-avx2"), spec, m, embedded_kb());
  EXPECT_EQ(with.dependency_variants,
            (std::vector<std::pair<std::string, std::string>>{{"magmaVariant", "magma-cuda12_9-sm120-avx2"}}));
  EXPECT_EQ(arg(with, "effectiveMagma"), "magma-cuda12_9-sm120-avx2");
  auto without = derive_settings(*m.find("pytorch-python313-cuda12_9-sm90-avx2"), spec, m, embedded_kb());
  EXPECT_TRUE(without.dependency_variants.empty());
  auto magma = derive_settings(*m.find("magma-cuda12_9-sm120-avx2"), spec, m, embedded_kb());
  EXPECT_EQ(arg(magma, "static"), "true");
  EXPECT_EQ(magma.python_packages, "");
}

// Every variant of every example derives, every decision has a reason, and
// every torch override argument exists in the pinned torch function (no `...`).
TEST(BuildSettings, EveryExampleVariantDerivesWithReasons) {
  for (const std::string& spec : test::example_specs()) {
    const Loaded& l = example(spec);
    for (const auto& v : l.matrix.variants) {
      BuildSettings s = derive_settings(v, l.spec, l.matrix, embedded_kb());
      EXPECT_EQ(s.pname, v.name);
      EXPECT_FALSE(s.description.empty());
      EXPECT_EQ(s.header_comment.size(), 3u) << v.name;
      for (const auto& e : s.trail) EXPECT_FALSE(e.because.empty()) << v.name << " " << e.key;
      if (const auto* args = embedded_kb().pin(v.pin)->arguments_of(embedded_kb().package(v.package)->attribute)) {
        for (const auto& [name, value] : s.override_args)
          EXPECT_NE(std::find(args->begin(), args->end(), name), args->end()) << v.name << " passes " << name;
      }
    }
  }
}

}  // namespace
}  // namespace tailor
