// The {word@key} facts of a [layout.tables] template, with values written by
// hand from data/*.toml: CUDA 12.8 needs driver 570.26 (NVIDIA's release
// notes), CUDA 13.0's package set is cudaPackages_13_0, SM 9.0 is Hopper,
// nvcc of CUDA 13.0 no longer compiles for SM 7.0, AVX2 builds with -mavx2 -mfma -mf16c.
#include "matrix/table_words.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

Variant built(const std::string& sm, const std::string& cuda) {
  Variant v;
  v.sm = sm;
  v.cuda = cuda;
  v.name = "x-sm" + sm + "-cuda" + cuda;
  return v;
}

TEST(TableWords, AWordIsNameAtKeyAndEveryOtherBraceIsText) {
  auto p = table_pieces("{ x = \"{driver@12.8}\"; y = {}; z = \"{a@}{B@1}{gpu_names@9.0 aarch64}\"; }");
  ASSERT_EQ(p.size(), 5u);
  EXPECT_FALSE(p[0].word);
  EXPECT_EQ(p[0].text, "{ x = \"");
  EXPECT_TRUE(p[1].word);
  EXPECT_EQ(p[1].text, "driver@12.8");
  EXPECT_EQ(p[2].text, "\"; y = {}; z = \"{a@}{B@1}");
  EXPECT_EQ(p[3].text, "gpu_names@9.0 aarch64");
  EXPECT_EQ(p[4].text, "\"; }");
}

TEST(TableWords, FactsComeFromTheKnowledgeBaseAndTheSpec) {
  Spec spec;
  spec.layout = Layout{};
  spec.layout->gpu_names["9.0"] = "H100, H200";
  spec.layout->gpu_names["9.0 aarch64"] = "GH200";
  Matrix m;
  m.variants = {built("9.0", "13.0"), built("9.0", "12.8"), built("7.0", "12.8")};
  EXPECT_EQ(table_word("driver", "12.8", spec, m, embedded_kb()), "570");
  EXPECT_EQ(table_word("cuda_attr", "13.0", spec, m, embedded_kb()), "cudaPackages_13_0");
  EXPECT_EQ(table_word("arch_name", "9.0", spec, m, embedded_kb()), "Hopper");
  EXPECT_EQ(table_word("isa_flags", "avx2", spec, m, embedded_kb()), "\"-mavx2\" \"-mfma\" \"-mf16c\"");
  EXPECT_FALSE(table_word("isa_flags", "avx9", spec, m, embedded_kb()));
  EXPECT_EQ(table_word("gpu_names", "9.0", spec, m, embedded_kb()), "H100, H200");
  EXPECT_EQ(table_word("gpu_names", "9.0 aarch64", spec, m, embedded_kb()), "GH200");
  EXPECT_EQ(table_word("gpu_names", "9.0 x86_64", spec, m, embedded_kb()), "H100, H200");  // the SM's own
  // The CUDA versions the matrix builds the SM with, oldest first.
  EXPECT_EQ(table_word("cuda_underscore_list", "9.0", spec, m, embedded_kb()), "\"12_8\" \"13_0\"");
  EXPECT_EQ(table_word("cuda_underscore_list", "7.0", spec, m, embedded_kb()), "\"12_8\"");
  // No value: no such SM, CUDA or word.
  EXPECT_FALSE(table_word("driver", "9.9", spec, m, embedded_kb()));
  EXPECT_FALSE(table_word("arch_name", "4.2", spec, m, embedded_kb()));
  EXPECT_FALSE(table_word("gpu_names", "9.0 riscv", spec, m, embedded_kb()));
  EXPECT_FALSE(table_word("drivers", "12.8", spec, m, embedded_kb()));
  EXPECT_EQ(render_table_template("t.nix", "{ \"12_8\" = { d = \"{driver@12.8}\"; }; }", spec, m, embedded_kb()),
            "{ \"12_8\" = { d = \"570\"; }; }");
  try {
    render_table_template("lib/t.nix", "d = {driver@9.9};", spec, m, embedded_kb());
    ADD_FAILURE() << "a word without a value must be an error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "[layout.tables] lib/t.nix: {driver@9.9} has no value");
  }
}

}  // namespace
}  // namespace tailor
