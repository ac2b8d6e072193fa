// tailor import of the torchvision-tables fixture: wrappers over a parametric
// builder that reads metadata tables. Every expected value below is read by
// hand off tests/data/trees/torchvision-tables: lib/torchvision-metadata.nix
// (versions, torchVersion, nixpkgsPin = pins.unstable = 0182a36,
// cudaPinOverrides 13_0 = 6a030d5 and 13_1 = 2017d6d, cpuPin = 6a030d5,
// sourceOverride), lib/gpu-metadata.nix and scripts/generate-variants.sh (SMs,
// ISAs and CUDA versions per SM), and lib/mkTorchVision.nix (torch from
// ml-platform/pytorch-nix at 9c4e2b7, recipes/torch.nix, fetched without a hash).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "import/import_builder_calls.hpp"
#include "matrix/expand.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

const char* const kTree = "tests/data/trees/torchvision-tables";
const std::string kTorchNix =
    "https://github.com/ml-platform/pytorch-nix/archive/9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a.tar.gz";

// The variants of one version the spec reproduces: the generator's SM x CUDA
// x ISA cells, less SM70 with CUDA 13.0 and 13.1 (nvcc 13 dropped sm_70), and the CPU pair.
std::set<std::string> expected_names(const std::string& word) {
  const std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> cells = {
      {"70", {{"12_8", "12_9"}, {"avx2", "avx512"}}},
      {"80", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"89", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"90", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512", "armv9"}}},
      {"120", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"121", {{"12_9", "13_0", "13_1"}, {"armv9"}}},
  };
  std::set<std::string> out = {word + "-python313-cpu-avx2", word + "-python313-cpu-avx512"};
  for (const auto& [sm, axes] : cells)
    for (const auto& cuda : axes.first)
      for (const auto& isa : axes.second) out.insert(word + "-python313-cuda" + cuda + "-sm" + sm + "-" + isa);
  return out;
}

std::set<std::string> all_expected_names() {
  std::set<std::string> out;
  for (const char* word : {"torchvision025", "torchvision026", "torchvision027"})
    for (const auto& n : expected_names(word)) out.insert(n);
  return out;
}

// Per version key of the table: its release version and the torch it pairs with.
const std::map<std::string, std::pair<std::string, std::string>> kVersions = {
    {"torchvision025", {"0.25.0", "2.10.0"}},
    {"torchvision026", {"0.26.0", "2.11.0"}},
    {"torchvision027", {"0.27.1", "2.12.0"}},
};

TEST(ImportBuilderCalls, ReproducesNamesVersionsPinsAndPairingsFromTheTables) {
  test::RunResult r = test::run_tailor({"import", kTree});
  EXPECT_EQ(r.status, 0) << r.err;  // files left out are impossible ones (SM70 with CUDA 13): advice, no failure
  Spec spec = load_spec("imported.toml", r.out, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  std::set<std::string> names;
  for (const auto& v : m.variants) {
    names.insert(v.name);
    SCOPED_TRACE(v.name);
    const auto& [version, torch] = kVersions.at(v.package_word);
    EXPECT_EQ(v.version, version);
    EXPECT_EQ(v.paired, (std::vector<std::pair<std::string, std::string>>{{"torch", torch}}));
    const std::string want_pin = v.cuda.empty() || v.cuda == "13.0" ? "6a030d5"
                                 : v.cuda == "13.1"                 ? "2017d6d"
                                                                    : "0182a36";
    EXPECT_EQ(v.pin, want_pin);
    // Which torch that is, is pytorch-nix's: the spec says so per version.
    const PackageVersion* pv = package_version(v, spec);
    ASSERT_NE(pv, nullptr);
    const ExternalRecipe* e = pv->external_for("torch");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->tarball_url(), kTorchNix);
    EXPECT_EQ(e->path, "recipes/torch.nix");
    EXPECT_EQ(e->hash, "");  // the fixture's fetch has none, and none is made up
  }
  EXPECT_EQ(names, all_expected_names());
  // Each version's source, from sourceOverride of its table.
  EXPECT_NE(r.out.find("rev = \"v0.25.0\"\nhash = \"sha256-oktJHcT6T4f58pUO+HSBpbyS1ISH3zDlTsXQh6PcMy4=\""),
            std::string::npos);
  EXPECT_NE(r.out.find("rev = \"v0.27.1\"\nhash = \"sha256-XFbFC77UHC9WVhZepEK+7JpWbTpTrGizx8NMcRlwX74=\""),
            std::string::npos);
  // The call of recipes/torch.nix (mkTorchVision.nix lines 40-45): inherit pkgs backend isa
  // pythonVersion; torchVersion = tv.torchVersion; sm and cudaVersion, null on CPU.
  EXPECT_NE(
      r.out.find("\n[family.version.external.torch]\nrepo = \"ml-platform/pytorch-nix\"\n"
                 "rev = \"9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a\"\n"
                 "# no hash: the tree fetches it without one (torchvision-tables/lib/mkTorchVision.nix:37:20); "
                 "add hash = \"…\" (nix-prefetch-url --unpack " +
                 kTorchNix +
                 " prints it)\npath = \"recipes/torch.nix\"\n"
                 "args = { backend = \"{backend}\", cudaVersion = \"{cuda_underscore}\", isa = \"{isa}\", pkgs = "
                 "\"{pkgs}\", pythonVersion = \"{python_nodot}\", sm = \"{sm_nodot}\", torchVersion = \"{torch}\" }\n"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("hash = \"\""), std::string::npos);
  EXPECT_EQ(r.out.find("inline = "), std::string::npos);  // torch is not built by the spec
  EXPECT_EQ(r.out.find("[[claim]]"), std::string::npos);  // nothing unknown is claimed
}

TEST(ImportBuilderCalls, SaysPerFileWhyItLeavesOneOut) {
  test::RunResult r = test::run_tailor({"import", kTree});
  auto has = [&](const std::string& line) {
    return r.err.find("tailor: warning: " + line + "\n") != std::string::npos;
  };
  // SM70 with CUDA 13: the table allows it, nvcc 13 cannot compile it.
  for (const char* word : {"025", "026", "027"})
    for (const char* cuda : {"13_0", "13_1"})
      for (const char* isa : {"avx2", "avx512"}) {
        std::string file = fmt::format("torchvision{}-python313-cuda{}-sm70-{}.nix", word, cuda, isa);
        EXPECT_TRUE(has(fmt::format("{}: left out: nvcc of CUDA {} cannot compile for SM70 (tailor check: TLR009)",
                                    file, cuda[1] == '3' && cuda[3] == '0' ? "13.0" : "13.1")))
            << file;
      }
  // torch 2.11.0 and 2.12.0 are pytorch-nix's: no file is left out for them.
  EXPECT_EQ(r.err.find("left out: it is built against torch"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("left out: it builds"), std::string::npos) << r.err;
  // cudaPackages_13 (cuda-metadata.nix line 16) on the ten CUDA 13.0 recipes of each version.
  EXPECT_TRUE(
      has("30 recipes (torchvision025-python313-cuda13_0-sm120-avx2.nix, …): its overlay selects cudaPackages_13 "
          "(torchvision-tables/lib/cuda-metadata.nix:16:15), an alias that follows the pin's default CUDA, not "
          "CUDA 13.0 as its name says; the spec selects cudaPackages_13_0"))
      << r.err;
  // torch from pytorch-nix: recorded with its revision, and that it has no hash.
  EXPECT_NE(
      r.err.find("tailor: note: 135 recipes (torchvision025-python313-cpu-avx2.nix, …) build against the torch of "
                 "another repository's recipe, " +
                 kTorchNix +
                 " (revision 9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a), fetched without a hash, imported at "
                 "torchvision-tables/lib/mkTorchVision.nix:37:20: which torch that is, is that repository's to say, "
                 "not the nixpkgs pin's; the spec takes torch from that recipe ([family.version.external.torch]) at "
                 "the version the builder asks for, fetched without a hash as the tree does"),
      std::string::npos)
      << r.err;
  // Every warning is one of these: the 12 SM70 files, the alias, nothing else left out.
  size_t left_out = 0;
  for (size_t at = r.err.find("left out"); at != std::string::npos; at = r.err.find("left out", at + 1)) ++left_out;
  EXPECT_EQ(left_out, 12u) << r.err;
  EXPECT_EQ(r.err.find("no variant recipes found"), std::string::npos);
  EXPECT_EQ(r.err.find("branch pin is assumed"), std::string::npos);
  EXPECT_EQ(r.err.find("cannot reproduce"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("the spec cannot express"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("the tree has no recipe"), std::string::npos) << r.err;
}

// The same tree with its fetch of pytorch-nix hashed, as a team fixes it:
// import writes the hash, and the spec generates a tree of the same names
// that fetches pytorch-nix with it.
TEST(ImportBuilderCalls, AHashedFetchRoundTripsThroughTheSpec) {
  test::TempDir dir("tables-hashed");
  const std::string tree = dir.path() + "/torchvision-tables";
  std::filesystem::copy(test::source_path(kTree), tree, std::filesystem::copy_options::recursive);
  const std::string builder = tree + "/lib/mkTorchVision.nix";
  std::string text = test::read_file(builder);
  const std::string url_line =
      "    url = \"https://github.com/ml-platform/pytorch-nix/archive/${pytorchNixRev}.tar.gz\";\n";
  ASSERT_NE(text.find(url_line), std::string::npos);
  text.replace(text.find(url_line), url_line.size(),
               url_line + "    sha256 = \"1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd\";\n");
  std::ofstream(builder, std::ios::trunc) << text;

  test::RunResult r = test::run_tailor({"import", tree});
  ASSERT_NE(r.out.find("[[family]]"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("rev = \"9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a\"\nhash = "
                       "\"1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd\"\npath = \"recipes/torch.nix\"\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("# no hash"), std::string::npos);
  const std::string spec = dir.path() + "/imported.toml";
  std::ofstream(spec) << r.out;
  test::RunResult gen = test::run_tailor({"generate", spec, "-o", dir.path() + "/out"});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_EQ(gen.err.find("without a hash"), std::string::npos) << gen.err;
  std::set<std::string> generated;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/out/.flox/pkgs"))
    if (e.path().extension() == ".nix") generated.insert(e.path().stem().string());
  EXPECT_EQ(generated, all_expected_names());
  std::string recipe =
      test::read_file(dir.path() + "/out/.flox/pkgs/torchvision027-python313-cuda12_9-sm90-avx512.nix");
  EXPECT_NE(recipe.find("    url = \"" + kTorchNix +
                        "\";\n    sha256 = \"1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd\";\n"),
            std::string::npos)
      << recipe;
  EXPECT_NE(recipe.find("    torchVersion = \"2.12.0\";\n"), std::string::npos) << recipe;
  EXPECT_NE(recipe.find("    sm = \"90\";\n"), std::string::npos) << recipe;
  EXPECT_NE(recipe.find("    cudaVersion = \"12_9\";\n"), std::string::npos) << recipe;
}

// tests/data/trees/vision-sibling, the constructs of a tree as teams write it:
// the sibling torch repository is a formal's default (`torchRepo ? fetchTarball
// { … }`), each variant imports the torch recipe of its own name from it
// ("${toString torchRepo}/.flox/pkgs/${torchFile}.nix" with no version
// argument: vision-table.nix states torch = "2.11.0" beside version 0.26.0),
// and the source, allowBroken and torch come from lib/fixes.nix through both
// operands of `[ cudaOverlay ] ++ fixes.overlays` and `// fixes.config`.
TEST(ImportBuilderCalls, ASiblingRepositorysRecipePerVariantThroughAFormalsDefault) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vision-sibling"});
  Spec spec = load_spec("imported.toml", r.out, embedded_kb());  // it loads
  Matrix m = expand(spec, embedded_kb());
  std::set<std::string> names;
  for (const auto& v : m.variants) {
    names.insert(v.name);
    SCOPED_TRACE(v.name);
    EXPECT_EQ(v.version, "0.26.0");
    EXPECT_EQ(v.paired, (std::vector<std::pair<std::string, std::string>>{{"torch", "2.11.0"}}));
    EXPECT_EQ(v.pin, "6a030d5");
    const PackageVersion* pv = package_version(v, spec);
    ASSERT_NE(pv, nullptr);
    const ExternalRecipe* e = pv->external_for("torch");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->repo, "ml-platform/torch-recipes");
    EXPECT_EQ(e->rev, "4f1e2d3c4b5a69788796a5b4c3d2e1f001122334");
    EXPECT_EQ(e->hash, "17bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyxn");
    // lib/fixes.nix fetches pytorch/vision v0.26.0 with its submodules: the hash is of that.
    ASSERT_TRUE(pv->source.has_value());
    EXPECT_EQ(pv->source->fetch.rev, "v0.26.0");
    EXPECT_TRUE(pv->source->fetch.fetch_submodules);
    // The file of the variant's own name, in the sibling's dot-directory.
    const std::string want = v.cuda.empty() ? ".flox/pkgs/pytorch211-python313-cpu-avx2.nix"
                                            : fmt::format(".flox/pkgs/pytorch211-python313-cuda13_0-sm{}-{}.nix",
                                                          v.sm == "9.0" ? "90" : "120", v.isa);
    EXPECT_EQ(e->path_for(v), want);
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"torchvision026-python313-cpu-avx2", "torchvision026-python313-cuda13_0-sm90-avx512",
                                   "torchvision026-python313-cuda13_0-sm120-avx2"}))
      << r.err;
  EXPECT_EQ(r.err.find("left out"), std::string::npos) << r.err;
}

// What lib/fixes.nix of vision-sibling does that a spec does not hold is named,
// once per place it is written, with the recipes it reaches: allowBroken only on
// the two CUDA 13.0 recipes (its condition), the rest on all three.
TEST(ImportBuilderCalls, WhatTheBuilderSetsBeyondTheSpecIsNamedWhereItIsWritten) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vision-sibling"});
  auto has = [&](const std::string& line) { return r.err.find("tailor: note: " + line + "\n") != std::string::npos; };
  const std::string tail = ": the tree's builder sets it; the spec does not hold it";
  EXPECT_TRUE(
      has("2 recipes (torchvision026-python313-cuda13_0-sm120-avx2.nix, …): allowBroken = true "
          "(vision-sibling/lib/fixes.nix:7:28)" +
          tail))
      << r.err;
  EXPECT_TRUE(
      has("3 recipes (torchvision026-python313-cpu-avx2.nix, …): patches = [ ] (the pin's patches dropped) "
          "(vision-sibling/lib/fixes.nix:19:13)" +
          tail))
      << r.err;
  EXPECT_TRUE(
      has("3 recipes (torchvision026-python313-cpu-avx2.nix, …): postPatch computed by builtins.replaceStrings "
          "(vision-sibling/lib/fixes.nix:20:13)" +
          tail))
      << r.err;
  EXPECT_TRUE(
      has("3 recipes (torchvision026-python313-cpu-avx2.nix, …): BUILD_VERSION=0.26.0 "
          "(vision-sibling/lib/fixes.nix:21:53)" +
          tail))
      << r.err;
}

// tests/data/trees/audio-sibling: a release pairs with the torch of its own
// number (lib/audio-rows.nix states "2.11.0" twice in row "2.11"), and one
// recipe links 2.11.0 against torch 2.12.1 under the word torchaudio211-pt212
// with one cell (SM 9.0, AVX2) where the plain 2.11 has three. Each recipe
// imports the torch file of its own name from the sibling repository.
TEST(ImportBuilderCalls, AVersionPairedWithItsOwnNumberAndASecondPairingOfIt) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/audio-sibling"});
  EXPECT_EQ(r.status, 0) << r.err;
  Spec spec = load_spec("imported.toml", r.out, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  std::map<std::string, std::string> torch_of;  // name -> the torch it pairs with
  for (const auto& v : m.variants) {
    SCOPED_TRACE(v.name);
    EXPECT_EQ(v.version, "2.11.0");
    EXPECT_EQ(v.pin, "6a030d5");
    ASSERT_EQ(v.paired.size(), 1u);
    EXPECT_EQ(v.paired.front().first, "torch");
    torch_of[v.name] = v.paired.front().second;
    const PackageVersion* pv = package_version(v, spec);
    ASSERT_NE(pv, nullptr);
    const ExternalRecipe* e = pv->external_for("torch");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->path_for(v),
              fmt::format(".flox/pkgs/pytorch{}-python313-cuda12_9-sm{}-{}.nix",
                          v.paired.front().second == "2.12.1" ? "212" : "211", v.sm == "9.0" ? "90" : "120", v.isa));
  }
  EXPECT_EQ(torch_of,
            (std::map<std::string, std::string>{{"torchaudio211-python313-cuda12_9-sm90-avx2", "2.11.0"},
                                                {"torchaudio211-python313-cuda12_9-sm90-avx512", "2.11.0"},
                                                {"torchaudio211-python313-cuda12_9-sm120-avx2", "2.11.0"},
                                                {"torchaudio211-pt212-python313-cuda12_9-sm90-avx2", "2.12.1"}}));
}

TEST(ImportBuilderCalls, PinIsRefusedWithAReasonWhereRecipesNameTheirOwn) {
  test::RunResult r = test::run_tailor({"import", kTree, "--pin", "46336d4"});
  EXPECT_NE(
      r.err.find("tailor: warning: --pin 46336d4: refused: the recipes name their own pins "
                 "(torchvision025-python313-cpu-avx2.nix builds on nixpkgs 6a030d5 "
                 "(torchvision-tables/lib/mkTorchVision.nix:24:11)); --pin gives the pin of recipes that name none\n"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, test::run_tailor({"import", kTree}).out);  // and the spec is the same
}

// import_builder_call on its own, one step at a time, over a call built by hand: a
// torchvision 0.25 wrapper for CUDA 13.0 whose builder fetches nixpkgs 6a030d5
// (data/nixpkgs_pins.toml: it ships torch 2.9.1 and no torchvision, cudaPackages_13 is
// its alias of 13.0) and pytorch/vision at v0.25.0.
struct HandCall {
  lint::NixFile f;
  BuilderCall call;
  HandCall() {
    f.src.rel = "torchvision025-python313-cuda13_0-sm90-avx2.nix";
    Variant v;
    v.name = "torchvision025-python313-cuda13_0-sm90-avx2";
    v.package = "torchvision";
    v.package_word = "torchvision025";
    v.backend = "cuda";
    v.python = "3.13";
    v.cuda = "13.0";
    v.sm = "9.0";
    v.isa = "avx2";
    f.variant = v;
    call.file = f.src.rel;
    call.builder = "lib/mk.nix";
    call.nixpkgs_rev = {"6a030d535719c5190187c4cec156f335e95e3211", "lib/mk.nix:3:5", ""};
    call.overlay = {"cudaPackages_13_0", "lib/mk.nix:9:3", ""};
    call.version = {"0.25.0", "lib/meta.nix:2:1", ""};
    call.source = GitHubSource{"pytorch", "vision", "v0.25.0", "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="};
    call.source_at = "lib/mk.nix:20:12";
  }
  BuilderImport run() const { return import_builder_call(call, f, embedded_kb()); }
};

TEST(ImportBuilderCallSteps, ACallOfAKnownPinWithItsOwnSourceIsImported) {
  BuilderImport bi = HandCall().run();
  EXPECT_EQ(bi.left_out, "");
  EXPECT_EQ(bi.pin, "6a030d5");
  EXPECT_EQ(bi.version.word, "torchvision025");
  EXPECT_EQ(bi.version.version, "0.25.0");
  EXPECT_EQ(bi.version.decided, (std::vector<std::string>{"torchvision", "import"}));
  ASSERT_EQ(bi.overrides.size(), 1u);
  EXPECT_EQ(bi.overrides[0].describe(), "torchvision 0.25.0 from pytorch/vision v0.25.0");
  EXPECT_TRUE(bi.remarks.empty());
  EXPECT_FALSE(bi.foreign_base);
}

TEST(ImportBuilderCallSteps, ThePinUnknownOrUnrecordedLeavesTheFileOut) {
  HandCall x;
  x.call.nixpkgs_rev = {"", "", "lib/mk.nix fetches no nixpkgs tarball tailor can read"};
  EXPECT_EQ(x.run().left_out,
            "the nixpkgs it builds on is unknown: lib/mk.nix fetches no nixpkgs tarball tailor can read");
  x.call.nixpkgs_rev = {"0123456789abcdef0123456789abcdef01234567", "lib/mk.nix:3:5", ""};
  EXPECT_EQ(x.run().left_out,
            "it builds on nixpkgs 0123456 (lib/mk.nix:3:5), which the knowledge base does not record (tailor kb "
            "probe-pin records it)");
}

TEST(ImportBuilderCallSteps, AnOverlayOfAnotherCudaLeavesTheFileOutAndAnAliasIsARemark) {
  HandCall x;
  x.call.overlay = {"cudaPackages_12_8", "lib/mk.nix:9:3", ""};
  EXPECT_EQ(x.run().left_out, "its overlay selects cudaPackages_12_8 (lib/mk.nix:9:3), not CUDA 13.0 as its name says");
  x.call.overlay = {"cudaPackages_13", "lib/mk.nix:9:3", ""};
  BuilderImport bi = x.run();
  EXPECT_EQ(bi.left_out, "");
  EXPECT_EQ(bi.remarks, std::vector<std::string>{
                            "alias cudaPackages_1313.0\tits overlay selects cudaPackages_13 (lib/mk.nix:9:3), an alias "
                            "that follows the pin's default CUDA, not CUDA 13.0 as its name says; the spec selects "
                            "cudaPackages_13_0"});
}

TEST(ImportBuilderCallSteps, AVersionOrSourceTailorCannotTellLeavesTheFileOut) {
  HandCall x;
  x.call.version = {"main", "lib/meta.nix:2:1", ""};
  x.call.source->rev = "main";
  EXPECT_EQ(x.run().left_out, "the version it builds is unknown: 'main' is not a version");
  HandCall unhashed;
  unhashed.call.source->hash = "";
  EXPECT_EQ(unhashed.run().left_out,
            "it fetches torchvision 0.25.0 from pytorch/vision v0.25.0 without a hash (lib/mk.nix:20:12)");
  // 6a030d5 ships no torchvision: without a source, nothing builds 0.25.0.
  HandCall sourceless;
  sourceless.call.source.reset();
  EXPECT_EQ(sourceless.run().left_out,
            "it builds torchvision 0.25.0, from no source tailor can read, and nixpkgs 6a030d5 does not record it");
}

TEST(ImportBuilderCallSteps, ATorchVersionArgumentThatIsNoVersionLeavesTheFileOut) {
  HandCall x;
  ForeignRecipe r;
  r.url = kTorchNix;
  r.args["torchVersion"] = {"", "lib/mk.nix:40:5", "it is a list, not a string"};
  x.call.foreign.push_back(r);
  EXPECT_EQ(x.run().left_out, "the torch it is built against is unknown: it is a list, not a string");
}

}  // namespace
}  // namespace tailor
