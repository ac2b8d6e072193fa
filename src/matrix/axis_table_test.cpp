// {#sm} / {#cuda} blocks of a [layout.tables] template (axis_table.hpp): a GPU or
// CUDA table written per key of the matrix, the common text where a key has no
// own block. Templates and expected texts written by hand.
#include "matrix/axis_table.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

const std::string kGpus =
    "# Per SM.\n"
    "{\n"
    "{#sm}\n"
    "  \"{sm_nodot@sm}\" = { names = \"{gpu_names@sm}\"; arm = \"{gpu_names@sm aarch64}\"; };\n"
    "{/sm}\n"
    "{#sm 6.1}\n"
    "  \"61\" = { names = \"{gpu_names@6.1}\"; only = [ \"avx2\" ]; };\n"
    "{/sm}\n"
    "}\n";

TEST(AxisTable, EachKeyGetsItsOwnBlockOrTheCommonOneInTheOrderGiven) {
  // 8.9 is new (the common text), 6.1 has its own; a key's words take the key, platform kept.
  EXPECT_EQ(render_axis_blocks("gpus.nix", kGpus, "sm", {"6.1", "8.9", "9.0"}),
            "# Per SM.\n"
            "{\n"
            "  \"61\" = { names = \"{gpu_names@6.1}\"; only = [ \"avx2\" ]; };\n"
            "  \"{sm_nodot@8.9}\" = { names = \"{gpu_names@8.9}\"; arm = \"{gpu_names@8.9 aarch64}\"; };\n"
            "  \"{sm_nodot@9.0}\" = { names = \"{gpu_names@9.0}\"; arm = \"{gpu_names@9.0 aarch64}\"; };\n"
            "}\n");
}

TEST(AxisTable, AKeyTheMatrixNoLongerHasLosesItsEntryOwnBlockIncluded) {
  EXPECT_EQ(render_axis_blocks("gpus.nix", kGpus, "sm", {"9.0"}),
            "# Per SM.\n"
            "{\n"
            "  \"{sm_nodot@9.0}\" = { names = \"{gpu_names@9.0}\"; arm = \"{gpu_names@9.0 aarch64}\"; };\n"
            "}\n");
}

TEST(AxisTable, TheCudaAxisIsItsOwnAndOtherTextStaysAsItIs) {
  std::string t = "{ {#smart} x; }\n{#cuda}\n  \"{cuda_underscore@cuda}\" = \"{cuda_attr@cuda}\";\n{/cuda}\n";
  EXPECT_EQ(render_axis_blocks("kits.nix", t, "cuda", {"12.8", "13.2"}),
            "{ {#smart} x; }\n"
            "  \"{cuda_underscore@12.8}\" = \"{cuda_attr@12.8}\";\n"
            "  \"{cuda_underscore@13.2}\" = \"{cuda_attr@13.2}\";\n");
  // A template without blocks of the axis is returned as it is.
  EXPECT_EQ(render_axis_blocks("kits.nix", t, "sm", {"9.0"}), t);
}

TEST(AxisTable, AnUnclosedBlockOrAnOwnBlockAloneIsAnError) {
  try {
    render_axis_blocks("gpus.nix", "{#sm}\n x\n", "sm", {"9.0"});
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "[layout.tables] gpus.nix: {#sm} is not closed by {/sm}");
  }
  try {
    render_axis_blocks("gpus.nix", "{#sm 9.0}\n x\n{/sm}\n", "sm", {"9.0"});
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "[layout.tables] gpus.nix: an own {#sm X} block without the common {#sm}");
  }
}

}  // namespace
}  // namespace tailor
