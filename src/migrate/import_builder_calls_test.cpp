// tailor import of the torchvision-tables fixture: wrappers over a parametric
// builder that reads metadata tables. Every expected value below is read by
// hand off tests/data/trees/torchvision-tables: lib/torchvision-metadata.nix
// (versions, torchVersion, nixpkgsPin = pins.unstable = 0182a36,
// cudaPinOverrides 13_0 = 6a030d5 and 13_1 = 2017d6d, cpuPin = 6a030d5,
// sourceOverride), lib/gpu-metadata.nix and scripts/generate-variants.sh (SMs,
// ISAs and CUDA versions per SM), and data/ (torch 2.9.1 on those pins; only
// torch 2.10.0 has a from-source workaround, on 6a030d5, 0182a36 and 2017d6d).
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

const KnowledgeBase& kb() {
  static const KnowledgeBase k = KnowledgeBase::load();
  return k;
}

const char* const kTree = "tests/data/trees/torchvision-tables";
const std::string kTorchNix =
    "https://github.com/ml-platform/pytorch-nix/archive/9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a.tar.gz";

// The 0.25 variants the spec reproduces: the generator's SM x CUDA x ISA
// cells, less SM70 with CUDA 13.0 and 13.1 (nvcc 13 dropped sm_70), and the CPU pair.
std::set<std::string> expected_names() {
  const std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> cells = {
      {"70", {{"12_8", "12_9"}, {"avx2", "avx512"}}},
      {"80", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"89", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"90", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512", "armv9"}}},
      {"120", {{"12_8", "12_9", "13_0", "13_1"}, {"avx2", "avx512"}}},
      {"121", {{"12_9", "13_0", "13_1"}, {"armv9"}}},
  };
  std::set<std::string> out = {"torchvision025-python313-cpu-avx2", "torchvision025-python313-cpu-avx512"};
  for (const auto& [sm, axes] : cells)
    for (const auto& cuda : axes.first)
      for (const auto& isa : axes.second) out.insert("torchvision025-python313-cuda" + cuda + "-sm" + sm + "-" + isa);
  return out;
}

TEST(ImportBuilderCalls, ReproducesNamesVersionsPinsAndPairingsFromTheTables) {
  test::RunResult r = test::run_tailor({"import", kTree});
  EXPECT_EQ(r.status, 1) << r.err;  // files left out: warnings
  Spec spec = load_spec("imported.toml", r.out, kb());
  Matrix m = expand(spec, kb());
  std::set<std::string> names;
  for (const auto& v : m.variants) {
    names.insert(v.name);
    SCOPED_TRACE(v.name);
    EXPECT_EQ(v.version, "0.25.0");
    EXPECT_EQ(v.paired, (std::vector<std::pair<std::string, std::string>>{{"torch", "2.10.0"}}));
    const std::string want_pin = v.cuda.empty() || v.cuda == "13.0" ? "6a030d5"
                                 : v.cuda == "13.1"                 ? "2017d6d"
                                                                    : "0182a36";
    EXPECT_EQ(v.pin, want_pin);
  }
  EXPECT_EQ(names, expected_names());
  EXPECT_EQ(names.size(), 45u);
  // The version's source, from sourceOverride of "0.25".
  EXPECT_NE(r.out.find("rev = \"v0.25.0\"\nhash = \"sha256-oktJHcT6T4f58pUO+HSBpbyS1ISH3zDlTsXQh6PcMy4=\""),
            std::string::npos);
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
  // 0.26 pairs with torch 2.11.0 (line 26 of the table), 0.27 with 2.12.0 (line 39):
  // no pin ships them and no workaround builds them. One warning per (version, pin).
  auto torch = [&](const char* version, int line) {
    return fmt::format("it is built against torch {} (torchvision-tables/lib/torchvision-metadata.nix:{}:20) from {}; ",
                       version, line, kTorchNix);
  };
  EXPECT_TRUE(
      has("23 recipes (torchvision026-python313-cuda12_8-sm120-avx2.nix, …): left out: " + torch("2.11.0", 26) +
          "nixpkgs 0182a36 ships torch 2.9.1, and no workaround of the knowledge base builds torch 2.11.0 there, "
          "so a spec cannot build the same"));
  EXPECT_TRUE(
      has("10 recipes (torchvision026-python313-cuda13_1-sm120-avx2.nix, …): left out: " + torch("2.11.0", 26) +
          "nixpkgs 2017d6d ships torch 2.9.1, and no workaround of the knowledge base builds torch 2.11.0 there, "
          "so a spec cannot build the same"));
  EXPECT_TRUE(
      has("12 recipes (torchvision026-python313-cpu-avx2.nix, …): left out: " + torch("2.11.0", 26) +
          "nixpkgs 6a030d5 ships torch 2.9.1, and no workaround of the knowledge base builds torch 2.11.0 there, "
          "so a spec cannot build the same"));
  EXPECT_TRUE(
      has("23 recipes (torchvision027-python313-cuda12_8-sm120-avx2.nix, …): left out: " + torch("2.12.0", 39) +
          "nixpkgs 0182a36 ships torch 2.9.1, and no workaround of the knowledge base builds torch 2.12.0 there, "
          "so a spec cannot build the same"));
  // cudaPackages_13 (cuda-metadata.nix line 16) on the ten 0.25 CUDA 13.0 recipes imported.
  EXPECT_TRUE(
      has("10 recipes (torchvision025-python313-cuda13_0-sm120-avx2.nix, …): its overlay selects cudaPackages_13 "
          "(torchvision-tables/lib/cuda-metadata.nix:16:15), an alias that follows the pin's default CUDA, not "
          "CUDA 13.0 as its name says; the spec selects cudaPackages_13_0"));
  // torch from pytorch-nix: recorded with its revision, and that it has no hash.
  EXPECT_NE(
      r.err.find("tailor: note: 45 recipes (torchvision025-python313-cpu-avx2.nix, …) build against the torch of "
                 "another repository's recipe, " +
                 kTorchNix +
                 " (revision 9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a), fetched without a hash, imported at "
                 "torchvision-tables/lib/mkTorchVision.nix:37:20: which torch that is, is that repository's to say, "
                 "not the nixpkgs pin's"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("no variant recipes found"), std::string::npos);
  EXPECT_EQ(r.err.find("branch pin is assumed"), std::string::npos);
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

}  // namespace
}  // namespace tailor
