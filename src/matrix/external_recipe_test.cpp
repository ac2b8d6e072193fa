// The words of an external recipe's arguments, filled per variant, and read
// back from the values a tree passes. Expected values by hand: a torchvision
// 0.26.0 variant for SM 9.0 with CUDA 12.9 on Python 3.13, paired with torch 2.11.0.
#include "matrix/external_recipe.hpp"

#include <gtest/gtest.h>

#include "matrix/variant.hpp"

namespace tailor {
namespace {

Variant gpu_variant() {
  Variant v;
  v.backend = "cuda";
  v.python = "3.13";
  v.cuda = "12.9";
  v.sm = "12.0";
  v.isa = "avx512";
  v.version = "0.26.0";
  v.paired = {{"torch", "2.11.0"}};
  return v;
}

ExternalRecipe fixture_recipe() {
  ExternalRecipe r;
  r.attribute = "torch";
  r.repo = "ml-platform/pytorch-nix";
  r.rev = "9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a";
  r.path = "recipes/torch.nix";
  r.args = {{"pkgs", "{pkgs}"},
            {"sm", "{sm_nodot}"},
            {"cudaVersion", "{cuda_underscore}"},
            {"pythonVersion", "{python_nodot}"},
            {"torchVersion", "{torch}"},
            {"tag", "v{version}-py{python}-cu{cuda}-sm{sm}"},
            {"flavour", "team-build"}};
  return r;
}

TEST(ExternalRecipeWords, FillPerVariantAndNullWhereTheVariantLacksTheWord) {
  std::vector<ExternalArg> gpu = external_args(fixture_recipe(), gpu_variant());
  ASSERT_EQ(gpu.size(), 7u);
  EXPECT_TRUE(gpu[0].pkgs);
  EXPECT_EQ(gpu[1].value, "120");
  EXPECT_EQ(gpu[2].value, "12_9");
  EXPECT_EQ(gpu[3].value, "313");
  EXPECT_EQ(gpu[4].value, "2.11.0");
  EXPECT_EQ(gpu[5].value, "v0.26.0-py3.13-cu12.9-sm12.0");
  EXPECT_EQ(gpu[6].value, "team-build");
  Variant cpu = gpu_variant();
  cpu.backend = "cpu";
  cpu.cuda.clear();
  cpu.sm.clear();
  std::vector<ExternalArg> c = external_args(fixture_recipe(), cpu);
  EXPECT_EQ(c[1].value, std::nullopt);  // sm = null, as trees pass it to a CPU build
  EXPECT_EQ(c[2].value, std::nullopt);
  EXPECT_EQ(c[3].value, "313");
  EXPECT_EQ(c[5].value, std::nullopt);  // a template with one word the variant lacks is null as a whole
  EXPECT_EQ(c[6].value, "team-build");
}

TEST(ExternalRecipeWords, ValuesReadBackAsTheirWords) {
  const Variant v = gpu_variant();
  EXPECT_EQ(external_arg_template("120", v), "{sm_nodot}");
  EXPECT_EQ(external_arg_template("12.0", v), "{sm}");
  EXPECT_EQ(external_arg_template("12_9", v), "{cuda_underscore}");
  EXPECT_EQ(external_arg_template("313", v), "{python_nodot}");
  EXPECT_EQ(external_arg_template("2.11.0", v), "{torch}");
  EXPECT_EQ(external_arg_template("cuda", v), "{backend}");
  EXPECT_EQ(external_arg_template("avx512", v), "{isa}");
  EXPECT_EQ(external_arg_template("team-build", v), "team-build");  // a constant stays one
}

TEST(ExternalRecipeWords, APathPerVariantInADotDirectory) {
  // The other repository keeps one recipe per variant, named as its variants
  // are: torch 2.11.0 for this variant is pytorch211-python313-cuda12_9-sm120-avx512.nix.
  ExternalRecipe r = fixture_recipe();
  r.path = ".flox/pkgs/pytorch{torch_short}-python{python_nodot}-cuda{cuda_underscore}-sm{sm_nodot}-{isa}.nix";
  EXPECT_EQ(r.path_for(gpu_variant()), ".flox/pkgs/pytorch211-python313-cuda12_9-sm120-avx512.nix");
  Variant gpu = gpu_variant();  // a generated recipe's comment names the file it imports
  EXPECT_EQ(r.describe(&gpu),
            ".flox/pkgs/pytorch211-python313-cuda12_9-sm120-avx512.nix of ml-platform/pytorch-nix at "
            "9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a");
  Variant cpu = gpu_variant();
  cpu.backend = "cpu";
  cpu.cuda.clear();
  cpu.sm.clear();
  EXPECT_EQ(r.path_for(cpu), std::nullopt);  // no SM, no CUDA: no such file to name
  r.path = ".flox/pkgs/pytorch{torch_short}-python{python_nodot}-cpu-{isa}.nix";
  EXPECT_EQ(r.path_for(cpu), ".flox/pkgs/pytorch211-python313-cpu-avx512.nix");
  r.path = "recipes/torch.nix";  // a constant path is every variant's
  EXPECT_EQ(r.path_for(cpu), "recipes/torch.nix");
}

TEST(ExternalRecipeWords, APathReadBackAsATemplate) {
  Variant v = gpu_variant();  // SM 12.0, CUDA 12.9, Python 3.13, AVX-512, torch 2.11.0
  EXPECT_EQ(external_path_template(".flox/pkgs/pytorch211-python313-cuda12_9-sm120-avx512.nix", v),
            ".flox/pkgs/pytorch{torch_short}-python{python_nodot}-cuda{cuda_underscore}-sm{sm_nodot}-{isa}.nix");
  EXPECT_EQ(external_path_template("recipes/torch.nix", v), "recipes/torch.nix");  // no word: a constant
}

TEST(ExternalRecipeWords, TarballsOfGitHubAndOtherForges) {
  ExternalRecipe r = fixture_recipe();
  EXPECT_EQ(r.tarball_url(),
            "https://github.com/ml-platform/pytorch-nix/archive/9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a.tar.gz");
  r.repo = "https://codeberg.org/ml-platform/pytorch-nix";
  EXPECT_EQ(r.tarball_url(),
            "https://codeberg.org/ml-platform/pytorch-nix/archive/9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a.tar.gz");
  std::string rev;
  EXPECT_EQ(repo_of_tarball("https://github.com/ml-platform/pytorch-nix/archive/abc123.tar.gz", rev),
            "ml-platform/pytorch-nix");
  EXPECT_EQ(rev, "abc123");
  EXPECT_EQ(repo_of_tarball("https://codeberg.org/ml-platform/pytorch-nix/archive/v1.2.tar.gz", rev),
            "https://codeberg.org/ml-platform/pytorch-nix");
  EXPECT_EQ(rev, "v1.2");
  EXPECT_EQ(repo_of_tarball("https://example.org/pytorch-nix.tar.gz", rev), std::nullopt);
}

}  // namespace
}  // namespace tailor
