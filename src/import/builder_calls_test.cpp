// Builder calls of the torchvision-tables fixture read through the evaluator.
// Expected values are read by hand off the fixture's tables
// (tests/data/trees/torchvision-tables/lib/*.nix) and the wrapper files.
#include "import/builder_calls.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "kb/cuda_alias.hpp"
#include "lint/findings.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

struct Fixture {
  lint::LintTree tree;
  Fixture() {
    std::vector<lint::Problem> ignored;
    tree = lint::make_tree("tv", lint::read_tree(test::source_path("tests/data/trees/torchvision-tables")),
                           embedded_kb(), ignored);
  }
  const lint::NixFile& file(const std::string& rel) const {
    for (const auto& f : tree.nix)
      if (f.src.rel == rel) return f;
    throw std::runtime_error("no " + rel);
  }
};

// What the recipe \a rel of the tree at \a root builds through its builder call.
std::optional<BuilderCall> call_of(const std::string& root, const std::string& rel) {
  std::vector<lint::Problem> ignored;
  lint::LintTree tree = lint::make_tree("t", lint::read_tree(root), embedded_kb(), ignored);
  BuilderCalls calls(tree);
  for (const auto& n : tree.nix)
    if (n.src.rel == rel) return calls.read(n);
  ADD_FAILURE() << "no " << rel << " in " << root;
  return std::nullopt;
}

// The overlay list is reached twice: first at the end of a chain of 19 sets
// (deeper than the walk follows past it), then near the result as nixpkgs'
// overlays. The near meeting is walked again, so the source the overlay
// fetches is read; a walk that took the first meeting for the only one lost it
// (torchvision-nix's CPU recipes, reached through `{ … } // (lib.optionalAttrs …)`).
TEST(BuilderCalls, AValueMetFirstDeepDownIsWalkedAgainWhereItIsNearer) {
  test::TempDir dir("walk-depth");
  std::filesystem::create_directories(dir.path() + "/lib");
  std::string deep = "ov";
  for (int i = 0; i < 19; ++i) deep = "{ a = " + deep + "; }";
  std::ofstream(dir.path() + "/lib/b.nix")
      << "{ v }:\nlet\n  ov = [ (final: prev: { python3Packages = prev.python3Packages.override { overrides = pf: pp: "
         "{ torchvision = pp.torchvision.overrideAttrs (o: { src = prev.fetchFromGitHub { owner = \"pytorch\"; repo = "
         "\"vision\"; rev = \"v0.26.0\"; hash = \"sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=\"; }; }); }; }; "
         "}) "
         "];\n  deep = "
      << deep
      << ";\n  pkgs = import (builtins.fetchTarball { url = "
         "\"https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz\"; }) { overlays "
         "= "
         "ov; };\nin pkgs.python3Packages.torchvision.overrideAttrs (old: { inherit deep; pname = "
         "\"torchvision026-python313-cpu-avx2\"; })\n";
  std::ofstream(dir.path() + "/torchvision026-python313-cpu-avx2.nix") << "import ./lib/b.nix { v = \"1\"; }\n";
  auto c = call_of(dir.path(), "torchvision026-python313-cpu-avx2.nix");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->source);
  EXPECT_EQ(c->source->rev, "v0.26.0");
}

// What the evaluator cannot read is named with the builder that does not say it.
TEST(BuilderCalls, WhatABuilderDoesNotSayNamesTheBuilder) {
  test::TempDir dir("walk-silent");
  std::filesystem::create_directories(dir.path() + "/lib");
  std::ofstream(dir.path() + "/lib/quiet.nix") << "{ v }: (import <nixpkgs> { }).python3Packages.torchvision\n";
  std::ofstream(dir.path() + "/torchvision026-python313-cpu-avx2.nix") << "import ./lib/quiet.nix { v = \"1\"; }\n";
  auto c = call_of(dir.path(), "torchvision026-python313-cpu-avx2.nix");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->version.why, "the result of lib/quiet.nix states no version tailor can read, nor a source with a tag");
  EXPECT_EQ(c->nixpkgs_rev.why, "lib/quiet.nix fetches no nixpkgs tarball tailor can read");
  EXPECT_EQ(c->overlay.why, "lib/quiet.nix selects no CUDA package set tailor can read");
}

TEST(BuilderCalls, ReadsWhatAWrapperBuildsFromTheTables) {
  Fixture fx;
  BuilderCalls calls(fx.tree);
  auto c = calls.read(fx.file("torchvision026-python313-cuda12_9-sm90-avx512.nix"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->builder, "lib/mkTorchVision.nix");
  EXPECT_EQ(c->args.at("tvVersion").value, "0.26");
  EXPECT_EQ(c->args.at("sm").value, "90");
  EXPECT_EQ(c->args.at("cudaVersion").at, "tv/torchvision026-python313-cuda12_9-sm90-avx512.nix:3:136");
  EXPECT_EQ(c->pname.value, "torchvision026-python313-cuda12_9-sm90-avx512");
  EXPECT_EQ(c->version.value, "0.26.0");
  EXPECT_EQ(c->version.at, "tv/lib/torchvision-metadata.nix:25:15");
  // 0.26 on CUDA 12.9: no cudaPinOverrides entry, so nixpkgsPin (pins.unstable).
  EXPECT_EQ(c->nixpkgs_rev.value, "0182a361324364ae3f436a63005877674cf45efb");
  EXPECT_EQ(c->nixpkgs_rev.at, "tv/lib/mkTorchVision.nix:24:11");
  EXPECT_TRUE(c->nixpkgs_hashed);
  EXPECT_EQ(c->overlay.value, "cudaPackages_12_9");
  ASSERT_TRUE(c->source);
  EXPECT_EQ(c->source->owner, "pytorch");
  EXPECT_EQ(c->source->repo, "vision");
  EXPECT_EQ(c->source->rev, "v0.26.0");
  EXPECT_EQ(c->source->hash, "sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=");
  ASSERT_EQ(c->foreign.size(), 1u);
  const ForeignRecipe& torch = c->foreign.front();
  EXPECT_EQ(torch.url,
            "https://github.com/ml-platform/pytorch-nix/archive/9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a.tar.gz");
  EXPECT_EQ(torch.rev, "9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a");
  EXPECT_EQ(torch.hash, "");  // fetched without sha256
  EXPECT_EQ(torch.args.at("torchVersion").value, "2.11.0");
  EXPECT_EQ(torch.args.at("torchVersion").at, "tv/lib/torchvision-metadata.nix:26:20");
  EXPECT_EQ(torch.args.at("cudaVersion").value, "12_9");
  // `import "${pytorchNixRoot}/recipes/torch.nix" { inherit pkgs …; }` (mkTorchVision.nix lines 40-45).
  EXPECT_EQ(torch.path, "recipes/torch.nix");
  EXPECT_EQ(torch.import_at, "tv/lib/mkTorchVision.nix:40:11");
  EXPECT_EQ(torch.pkgs_args, std::vector<std::string>{"pkgs"});  // the nixpkgs the builder imports
  EXPECT_TRUE(torch.null_args.empty());
  EXPECT_TRUE(torch.other_args.empty());
  EXPECT_EQ(torch.args.at("sm").value, "90");
  EXPECT_EQ(torch.args.at("pythonVersion").value, "313");
  EXPECT_EQ(torch.args.at("backend").value, "cuda");
  EXPECT_EQ(torch.args.at("isa").value, "avx512");
}

TEST(BuilderCalls, ACpuCallPassesTheOtherRecipeNullForSmAndCuda) {
  Fixture fx;
  BuilderCalls calls(fx.tree);
  auto cpu = calls.read(fx.file("torchvision027-python313-cpu-avx2.nix"));
  ASSERT_TRUE(cpu);
  ASSERT_EQ(cpu->foreign.size(), 1u);
  const ForeignRecipe& torch = cpu->foreign.front();
  EXPECT_EQ(torch.null_args, (std::vector<std::string>{"cudaVersion", "sm"}));  // `if isCuda then … else null`
  EXPECT_EQ(torch.args.at("torchVersion").value, "2.12.0");
  EXPECT_EQ(torch.args.at("backend").value, "cpu");
  EXPECT_FALSE(torch.args.count("sm"));
}

TEST(BuilderCalls, PinOverridesPerCudaAndTheCpuPin) {
  Fixture fx;
  BuilderCalls calls(fx.tree);
  auto c13 = calls.read(fx.file("torchvision025-python313-cuda13_0-sm80-avx2.nix"));
  ASSERT_TRUE(c13);
  EXPECT_EQ(c13->nixpkgs_rev.value, "6a030d535719c5190187c4cec156f335e95e3211");  // cudaPinOverrides."13_0"
  EXPECT_EQ(c13->overlay.value, "cudaPackages_13");                               // the alias the table names
  auto c131 = calls.read(fx.file("torchvision027-python313-cuda13_1-sm121-armv9.nix"));
  ASSERT_TRUE(c131);
  EXPECT_EQ(c131->nixpkgs_rev.value, "2017d6d515f8a7b289fe06d3a880a7ec588c3900");
  EXPECT_EQ(c131->version.value, "0.27.1");
  auto cpu = calls.read(fx.file("torchvision025-python313-cpu-avx2.nix"));
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->nixpkgs_rev.value, "6a030d535719c5190187c4cec156f335e95e3211");  // cpuPin
  EXPECT_FALSE(cpu->overlay.known());                                             // no CUDA overlay on CPU
  EXPECT_EQ(cpu->pname.value, "torchvision025-python313-cpu-avx2");
}

TEST(BuilderCalls, FilesThatCallNoBuilderAreNotRead) {
  Fixture fx;
  BuilderCalls calls(fx.tree);
  EXPECT_FALSE(calls.read(fx.file("lib/gpu-metadata.nix")));
  EXPECT_FALSE(calls.read(fx.file("lib/mkTorchVision.nix")));
}

TEST(BuilderCalls, AnAliasIsAShorterNameOfTheToolkitsSet) {
  EXPECT_TRUE(is_alias_of("cudaPackages_13", *embedded_kb().cuda("13.0")));
  EXPECT_FALSE(is_alias_of("cudaPackages_13_0", *embedded_kb().cuda("13.0")));
  EXPECT_FALSE(is_alias_of("cudaPackages_12", *embedded_kb().cuda("13.0")));
}

}  // namespace
}  // namespace tailor
