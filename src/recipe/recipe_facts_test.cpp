// What a recipe says, read from real-shaped recipes: values through let
// bindings, pins with and without hashes, comments from the lexer.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "nix/parser.hpp"
#include "recipe/comments.hpp"
#include "recipe/recipe_facts.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::recipe {
namespace {

TEST(RecipeFacts, SeedTwoStageRecipe) {
  std::string text = test::read_file(test::source_path("tests/nix_corpus/recipe_two_stage.nix"));
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("recipe_two_stage.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  RecipeFacts f = extract_facts(text, *r.expr, r.comments);
  ASSERT_EQ(f.names.size(), 1u);
  EXPECT_EQ(f.names[0].text, "pytorch-python313-cuda12_8-sm89-avx512");
  EXPECT_EQ(f.names[0].span.line, 19);
  ASSERT_EQ(f.gpu_targets.size(), 1u);
  EXPECT_EQ(f.gpu_targets[0].text, "sm_89");  // resolved through the let binding gpuArchSM
  EXPECT_TRUE(f.has_gpu_targets);
  EXPECT_FALSE(f.has_cuda_capabilities);
  std::vector<std::string> flags;
  for (const auto& x : f.cpu_flags) flags.push_back(x.text);
  EXPECT_EQ(flags, (std::vector<std::string>{"-mavx512f", "-mavx512dq", "-mfma"}));
  EXPECT_EQ(f.cpu_flags[0].span.line, 9);
  EXPECT_EQ(f.cpu_flags[0].span.column, 6);
  ASSERT_EQ(f.python_sets.size(), 1u);
  EXPECT_EQ(f.python_sets[0].text, "python3Packages");
  ASSERT_GE(f.descriptions.size(), 3u);
  EXPECT_EQ(f.descriptions[0].key, "description");
  EXPECT_EQ(f.descriptions[1].text, "Custom PyTorch build with targeted optimizations:");
  EXPECT_EQ(f.descriptions[1].span.line, 29);
  EXPECT_EQ(f.descriptions[1].span.column, 7);
  ASSERT_FALSE(f.comments.empty());
  EXPECT_EQ(f.comments[0].key, "header");
  EXPECT_EQ(f.comments[0].span.line, 1);
  EXPECT_TRUE(f.pins.empty());
}

// A set of GPUs bound once in a let and given by name to both lists: each list
// reads the set's elements, where they are written.
TEST(RecipeFacts, ATargetListBoundInALet) {
  std::string text =
      "let\n  portable = [ \"8.0\" \"9.0\" ];\nin {\n  cudaCapabilities = portable;\n  gpuTargets = portable;\n}\n";
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("set.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  RecipeFacts f = extract_facts(text, *r.expr, r.comments);
  ASSERT_EQ(f.gpu_targets.size(), 2u);
  EXPECT_EQ(f.gpu_targets[0].text, "8.0");
  EXPECT_EQ(f.gpu_targets[1].text, "9.0");
  EXPECT_EQ(f.gpu_targets[1].span.line, 2);
  EXPECT_EQ(f.gpu_targets[1].span.column, 22);
  ASSERT_EQ(f.cuda_capabilities.size(), 2u);
  EXPECT_EQ(f.cuda_capabilities[0].text, "8.0");
}

TEST(RecipeFacts, PinsWithAndWithoutHash) {
  std::string text =
      "let rev = \"46336d4d6980ae6f136b45c8507b17787eb186a0\";\n"
      "a = builtins.fetchTarball { url = \"https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz\"; sha256 = \"x\"; "
      "};\n"
      "b = fetchTarball \"https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz\";\n"
      "c = { nixpkgs = { rev = \"0182a361324364ae3f436a63005877674cf45efb\"; sha256 = null; }; };\n"
      "in [ a b c ]\n";
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("pins.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  RecipeFacts f = extract_facts(text, *r.expr, r.comments);
  ASSERT_EQ(f.pins.size(), 3u);
  EXPECT_EQ(f.pins[0].rev, "46336d4d6980ae6f136b45c8507b17787eb186a0");
  EXPECT_TRUE(f.pins[0].sha256_written);
  EXPECT_EQ(f.pins[0].span.line, 1);
  EXPECT_EQ(f.pins[1].rev, "fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3");
  EXPECT_FALSE(f.pins[1].sha256_written);
  EXPECT_EQ(f.pins[1].span.column, 60);
  EXPECT_TRUE(f.pins[2].sha256_null);
}

// A generated record names the version its builder fetches; a fetch without `owner` is no record of one.
TEST(RecipeFacts, GeneratedRecordSourceVersion) {
  std::string text =
      "import ./lib/torch.nix {\n"
      "  variant = {\n"
      "    name = \"pytorch-python313-cpu-avx2\";\n"
      "    workarounds = {\n"
      "      torchSource = { owner = \"pytorch\"; repo = \"pytorch\"; version = \"2.10.0\"; };\n"
      "      magmaSource = { url = \"x\"; version = \"2.9.0\"; };\n"
      "    };\n"
      "  };\n"
      "}\n";
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("record.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  RecipeFacts f = extract_facts(text, *r.expr, r.comments);
  ASSERT_EQ(f.record_versions.size(), 1u);
  EXPECT_EQ(f.record_versions[0].key, "torch");
  EXPECT_EQ(f.record_versions[0].text, "2.10.0");
  EXPECT_EQ(f.record_versions[0].span.line, 5);
  EXPECT_EQ(f.record_versions[0].span.column, 70);
  EXPECT_TRUE(f.versions.empty());  // no `src` beside it: not a source override of this file
}

TEST(RecipeFacts, CommentsAreNotStrings) {
  std::string text = "# head\n{ a = \"# not a comment\"; /* block\n two */ b = 1; } # tail\n";
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("c.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  std::vector<Fact> c = comment_lines(r.comments, text, LineIndex(text));
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].key, "header");
  EXPECT_EQ(c[0].text, " head");
  EXPECT_EQ(c[1].text, " block");
  EXPECT_EQ(c[2].text, " two ");
  EXPECT_EQ(c[3].text, " tail");
  EXPECT_EQ(c[3].span.line, 3);
}

// A file that does not parse still has its comments (a `# tailor: ignore` after
// the error must still be read): the lexer goes on to the end after the parser stops.
TEST(RecipeFacts, CommentsAfterASyntaxError) {
  std::string text = "# head\n{ a = ; }\n# tailor: ignore TLR001\nx ''in ${ \"# not\" } # nor''  # last\n";
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("bad.nix", text, symbols);
  ASSERT_FALSE(r.expr);
  std::vector<Fact> c = comment_lines(r.comments, text, LineIndex(text));
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].key, "header");
  EXPECT_EQ(c[1].key, "comment");
  EXPECT_EQ(c[1].text, " tailor: ignore TLR001");
  EXPECT_EQ(c[1].span.line, 3);
  EXPECT_EQ(c[1].span.column, 2);
  EXPECT_EQ(c[2].text, " last");
}

}  // namespace
}  // namespace tailor::recipe
