// Why a name is not in a matrix, as data (explain --why-not renders it): in it,
// dropped by a policy or a rule, absent for the values no family lists and the
// facts the cell breaks, or no variant name. Expected values from the spec
// examples/build-pytorch/main.toml (its gpu family: CUDA 12.8, SMs 6.1 … 12.0,
// SM 6.1 for AVX and AVX2 only) and the SM facts (sm_110 needs CUDA 13.0).
#include "matrix/why_not.hpp"

#include <gtest/gtest.h>

#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"

namespace tailor {
namespace {

struct Main {
  KnowledgeBase kb = KnowledgeBase::load();
  Spec spec = load_spec_arg(test::source_path("examples/build-pytorch/main.toml"), kb);
  Matrix m = expand(spec, kb);

  WhyNot ask(const std::string& name) {
    std::string problem;
    return why_not(name, parse_variant_name(name, kb, problem), spec, m, kb);
  }
};

TEST(WhyNot, EachKindOfAnswer) {
  Main main;
  WhyNot in = main.ask("pytorch-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(in.kind, WhyNot::Kind::in_matrix);
  EXPECT_EQ(in.family, "gpu");

  WhyNot policy = main.ask("pytorch-python313-cuda12_8-sm61-avx512");
  ASSERT_EQ(policy.kind, WhyNot::Kind::dropped);
  ASSERT_EQ(policy.drops.size(), 1u);
  EXPECT_TRUE(policy.drops[0]->policy);
  EXPECT_EQ(policy.drops[0]->candidate.family, "gpu");
  EXPECT_EQ(policy.drops[0]->pos.line, 21);

  WhyNot absent = main.ask("pytorch-python313-cuda12_8-sm110-armv9");
  ASSERT_EQ(absent.kind, WhyNot::Kind::absent);
  EXPECT_EQ(absent.reasons,
            (std::vector<std::string>{
                "family 'gpu' does not list sm 11.0 (it lists 6.1, 7.5, 8.0, 8.6, 8.9, 9.0, 10.0, 12.0)",
                "rule cuda-too-old-for-sm: SM 11.0 (Blackwell (Thor)) needs CUDA 13.0 or newer: nvcc 12.8 cannot "
                "compile for sm_110"}));
  EXPECT_EQ(absent.closest, "pytorch-python313-cuda12_8-sm100-armv9");

  EXPECT_EQ(main.ask("pytorch-python313-gpu-avx2").kind, WhyNot::Kind::not_a_name);
}

// A cell no family builds for its backend: said, not an empty answer.
TEST(WhyNot, NoFamilyForThePackageAndBackend) {
  Main main;
  std::string problem;
  std::optional<Variant> cell = parse_variant_name("pytorch-python313-cuda12_8-sm90-avx512", main.kb, problem);
  ASSERT_TRUE(cell);
  cell->backend = "rocm";
  EXPECT_EQ(why_absent(*cell, main.spec, main.kb),
            std::vector<std::string>{"no family of the spec builds pytorch with backend rocm"});
}

}  // namespace
}  // namespace tailor
