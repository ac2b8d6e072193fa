// The facts a [layout] writes, with values written by hand from data/*.toml:
// CUDA 12.8's GA driver is 570.26 and its minor-version compatibility floor
// 525.60.13 (NVIDIA's CUDA 12.8 release notes); the A100 (SM 8.0) is Ampere and
// sold as "A100, A30"; a team's [layout] names win where the rule allows them.
#include "matrix/layout_facts.hpp"

#include <tuple>

#include <gtest/gtest.h>

namespace tailor {
namespace {

// A variant for SM \a sm built with CUDA \a cuda (none: a CPU build).
Variant gpu(std::string sm, std::string cuda) {
  Variant v;
  std::tie(v.sm, v.cuda) = std::tie(sm, cuda);
  return v;
}

TEST(LayoutFacts, TheWrittenDriverIsTheTeamsWhereItMeetsTheRule) {
  const KnowledgeBase& kb = embedded_kb();
  const CudaToolkit* cuda = kb.cuda("12.8");
  ASSERT_NE(cuda, nullptr);
  const std::vector<const GpuArch*> a100{kb.gpu("8.0")};
  Spec spec;
  EXPECT_EQ(written_driver(spec, *cuda, a100), "570");  // no team number: the GA driver's major
  spec.layout = Layout{};
  spec.layout->drivers["12.8"] = "560";
  EXPECT_EQ(written_driver(spec, *cuda, a100), "560");  // at or above the 525 compatibility floor
  spec.layout->drivers["12.8"] = "500";
  EXPECT_EQ(written_driver(spec, *cuda, a100), "525");  // below it: the GPU's floor
  Variant v = gpu("8.0", "12.8");
  EXPECT_EQ(variant_driver(v, spec, kb), "525");
  EXPECT_FALSE(variant_driver(gpu("8.0", ""), spec, kb));  // a CPU build has no driver
}

TEST(LayoutFacts, GpuNamesAreTheTeamsByArchThenBySmThenTheProducts) {
  const KnowledgeBase& kb = embedded_kb();
  Spec spec;
  spec.layout = Layout{};
  spec.layout->gpu_names["9.0"] = "H100, H200";
  spec.layout->gpu_names["9.0 aarch64"] = "GH200";
  spec.layout->gpu_names["9.9"] = "a GPU the team has seen first";
  EXPECT_EQ(gpu_names(spec, kb, "9.0", "aarch64"), "GH200");
  EXPECT_EQ(gpu_names(spec, kb, "9.0", "x86_64"), "H100, H200");
  EXPECT_EQ(gpu_names(spec, kb, "8.0", "x86_64"), "A100, A30");
  EXPECT_EQ(gpu_names(spec, kb, "9.9", ""), "a GPU the team has seen first");  // a wrapper writes the team's
  EXPECT_FALSE(gpu_names(spec, kb, "4.2", ""));
  // A table's key must be an SM of the knowledge base, on an arch a wrapper is built for.
  EXPECT_EQ(key_gpu_names(spec, kb, "9.0 aarch64"), "GH200");
  EXPECT_EQ(key_gpu_names(spec, kb, "8.0"), "A100, A30");
  EXPECT_FALSE(key_gpu_names(spec, kb, "9.9"));
  EXPECT_FALSE(key_gpu_names(spec, kb, "9.0 riscv64"));
}

TEST(LayoutFacts, ArchNamesAreTheTeamsElseTheFamily) {
  const KnowledgeBase& kb = embedded_kb();
  Spec spec;
  EXPECT_EQ(arch_name(spec, kb, "8.0"), "Ampere");
  spec.layout = Layout{};
  spec.layout->arch_names["8.0"] = "Ampere (datacenter)";
  EXPECT_EQ(arch_name(spec, kb, "8.0"), "Ampere (datacenter)");
  EXPECT_FALSE(arch_name(spec, kb, "4.2"));
}

TEST(LayoutFacts, TheMatrixSmsAndCudasAreInVersionOrderOnceEach) {
  Matrix m;
  m.variants = {gpu("10.0", "13.0"), gpu("9.0", "12.8"), gpu("7.5", "12.9"), gpu("9.0", "13.0")};
  EXPECT_EQ(matrix_sms(m), (std::vector<std::string>{"7.5", "9.0", "10.0"}));
  EXPECT_EQ(matrix_cudas(m, embedded_kb()), (std::vector<std::string>{"12.8", "12.9", "13.0"}));
}

}  // namespace
}  // namespace tailor
