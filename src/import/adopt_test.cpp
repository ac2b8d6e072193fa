// The adoption plan (import/adopt.hpp) of tests/data/trees/adopt-wrappers: seven
// wrappers of the team's lib/buildVision.nix, the two SM90 x86 ones naming L40S
// (an SM 8.9 GPU), one building SM70 with CUDA 13.0 (impossible), a release table
// (lib/releases.nix), two more builder files, a script and notes. The expected
// plans are read off those files by hand.
#include "import/adopt.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "generate/layout.hpp"
#include "import/adopt_json.hpp"
#include "matrix/spec_loader.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

const std::string kPkgs = ".flox/pkgs/";
const std::string kSm90 = kPkgs + "torchvision026-python313-cuda12_8-sm90-avx512.nix";
const std::string kSm90At130 = kPkgs + "torchvision026-python313-cuda13_0-sm90-avx512.nix";
const std::string kSm120 = kPkgs + "torchvision026-python313-cuda13_0-sm120-avx512.nix";
const std::string kSm70 = kPkgs + "torchvision026-python313-cuda13_0-sm70-avx512.nix";

// What the plan does to each file, "change path" (and the lines, the reason where given), sorted.
std::vector<std::string> changes(const AdoptionPlan& p) {
  std::vector<std::string> out;
  for (const auto& f : p.files) {
    std::string line = std::string(kChanges.name(f.change)) + " " + f.path + (f.table ? " [table]" : "");
    for (int l : f.lines) line += " " + std::to_string(l);
    out.push_back(line + (f.reason.empty() ? "" : ": " + f.reason));
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Collected {
  std::vector<lint::Problem> findings;
  std::vector<std::string> warnings;
  AdoptSink sink() {
    return {[this](const lint::Problem& p) { findings.push_back(p); },
            [this](const std::string& w) { warnings.push_back(w); }};
  }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(AdoptPlan, EachFileOfTheTreeGetsWhatGenerateDoesToItAndWhy) {
  test::TempDir tmp("adopt-plan");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-wrappers");
  Collected c;
  AdoptionPlan p = plan_adoption(tree, {"vision", false}, embedded_kb(), c.sink());
  ASSERT_EQ(p.why, "");
  std::vector<std::string> expected = {
      "unchanged .flox/pkgs/torchvision026-python313-cpu-avx2.nix",
      "unchanged .flox/pkgs/torchvision026-python313-cpu-armv9.nix",
      "update " + kSm90 + " 1",
      "unchanged " + kSm120,
      "update " + kSm90At130 + " 1",
      "unchanged .flox/pkgs/torchvision026-python313-cuda13_0-sm90-armv9.nix",
      "unchanged .flox/pkgs/lib/releases.nix [table]",
      "stale " + kSm70 + ": nvcc of CUDA 13.0 cannot compile for SM70",
      "keep .flox/pkgs/lib/buildVision.nix",
      "keep .flox/pkgs/lib/fixes.nix",
      "keep .flox/pkgs/lib/toolkits.nix",
      "untouched NOTES.md",
      "untouched tools/write-wrappers.sh",
  };
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(changes(p), expected);
  EXPECT_EQ(p.corrected, std::vector<std::string>{
                             "GPU names of SM 9.0 (x86_64): L40S dropped: the knowledge base lists it under SM 8.9"});
  EXPECT_EQ(p.replaces, std::vector<std::string>{"tools/write-wrappers.sh"});
  EXPECT_TRUE(p.pages.empty());
  EXPECT_TRUE(c.findings.empty());
  EXPECT_EQ(p.count(Change::update), 2u);
  EXPECT_EQ(p.count(Change::unchanged, true), 1u);
  EXPECT_EQ(p.written(), 2u);
  EXPECT_EQ(adoption_refusals(p, false), "");
  // A plan writes nothing.
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
  EXPECT_TRUE(fs::exists(tree + "/" + kSm70));
}

TEST(AdoptPlan, TheSpecItWritesReadsBackAsTheLayoutItLearnt) {
  test::TempDir tmp("adopt-spec");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-wrappers");
  Collected c;
  AdoptionPlan p = plan_adoption(tree, {"vision", false}, embedded_kb(), c.sink());
  Spec spec = load_spec("tailor.toml", p.spec, embedded_kb());
  ASSERT_TRUE(spec.layout);
  const Layout& l = *spec.layout;
  EXPECT_EQ(spec.name, "vision");
  EXPECT_EQ(l.dir, ".flox/pkgs");
  EXPECT_EQ(l.keep, (std::vector<std::string>{".flox/pkgs/lib/buildVision.nix", ".flox/pkgs/lib/fixes.nix",
                                              ".flox/pkgs/lib/toolkits.nix"}));
  EXPECT_EQ(l.replaces, std::vector<std::string>{"tools/write-wrappers.sh"});
  // SM90's two platforms name their GPUs apart (H100 without L40S, GH200); the first name of a tie is the SM's.
  EXPECT_EQ(l.gpu_names,
            (std::map<std::string, std::string>{{"12.0", "RTX 5090"}, {"9.0", "GH200"}, {"9.0 x86_64", "H100"}}));
  EXPECT_EQ(l.drivers, (std::map<std::string, std::string>{{"12.8", "550"}, {"13.0", "580"}}));
  EXPECT_EQ(l.wrapper.at("cpu"),
            "# Vision {version_mm} on torch {torch_mm}, CPU — {isa_display} ({arch})\n"
            "{ pkgs ? import <nixpkgs> {} }:\n"
            "import ./lib/buildVision.nix { release = \"{version_mm}\"; py = \"{python_nodot}\"; backend = \"cpu\"; "
            "isa = \"{isa}\"; }\n");
  ASSERT_EQ(l.tables.size(), 1u);
  EXPECT_EQ(l.tables.begin()->first, ".flox/pkgs/lib/releases.nix");
  EXPECT_TRUE(l.pages.empty());
  EXPECT_TRUE(l.arch_names.empty());
}

TEST(AdoptPlan, AWrapperWhoseCallContradictsItsNameIsReadAsNamedAndLeftUntouched) {
  test::TempDir tmp("adopt-contradicts");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-wrappers");
  std::string text = read(tree + "/" + kSm120);
  text.replace(text.find("isa = \"avx512\""), 14, "isa = \"avx2\"");
  std::ofstream(tree + "/" + kSm120, std::ios::binary) << text;
  Collected c;
  AdoptionPlan p = plan_adoption(tree, {"vision", false}, embedded_kb(), c.sink());
  ASSERT_EQ(p.why, "");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].rel, kSm120);
  EXPECT_EQ(c.findings[0].rule->code, "TLR045");
  auto f = std::find_if(p.files.begin(), p.files.end(), [](const AdoptedFile& a) { return a.path == kSm120; });
  ASSERT_NE(f, p.files.end());
  EXPECT_EQ(f->change, Change::untouched);
  EXPECT_EQ(f->reason,
            "its builder call contradicts its name at line 3 [TLR045]: not adopted; --fix-calls writes the call the "
            "name says");
  // Its wrapper is not written, nor recorded as tailor's; every file that is written is.
  auto manifest = std::find_if(p.generated.begin(), p.generated.end(),
                               [](const GeneratedFile& g) { return g.path == kLayoutManifest; });
  ASSERT_NE(manifest, p.generated.end());
  for (const auto& g : p.generated) {
    EXPECT_NE(g.path, kSm120);
    EXPECT_EQ(g.content.find(kSm120), std::string::npos) << g.path;
    if (g.path != kLayoutManifest) {
      EXPECT_NE(manifest->content.find("  " + g.path + "\n"), std::string::npos) << g.path;
    }
  }
  // --fix-calls: the wrapper is written as its name says, line 3 replaced.
  AdoptionPlan fixed = plan_adoption(tree, {"vision", true}, embedded_kb(), Collected().sink());
  f = std::find_if(fixed.files.begin(), fixed.files.end(), [](const AdoptedFile& a) { return a.path == kSm120; });
  ASSERT_NE(f, fixed.files.end());
  EXPECT_EQ(f->change, Change::update);
  EXPECT_EQ(f->lines, std::vector<int>{3});
}

TEST(AdoptPlan, WrittenItIsAdoptedAsItIsAndAnotherSpecRefusesTheNextWrite) {
  test::TempDir tmp("adopt-write");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-wrappers");
  AdoptionPlan p = plan_adoption(tree, {"vision", false}, embedded_kb(), Collected().sink());
  ASSERT_EQ(write_adoption(p), 0);
  EXPECT_EQ(read(tree + "/tailor.toml"), p.spec);
  EXPECT_FALSE(fs::exists(tree + "/" + kSm70));
  EXPECT_EQ(read(tree + "/" + kSm90).substr(0, read(tree + "/" + kSm90).find('\n')),
            "# Vision 0.26 on torch 2.11, for H100 (SM90) — AVX-512 — CUDA 12.8, driver 550 or newer");
  // Adopted again: every file as the spec writes it.
  AdoptionPlan again = plan_adoption(tree, {"vision", false}, embedded_kb(), Collected().sink());
  EXPECT_EQ(again.written(), 0u);
  EXPECT_EQ(adoption_refusals(again, true), "");
  // A tailor.toml of the team's own (here: the spec edited) is never overwritten.
  std::ofstream(tree + "/tailor.toml", std::ios::app) << "# edited\n";
  std::string refused =
      adoption_refusals(plan_adoption(tree, {"vision", false}, embedded_kb(), Collected().sink()), true);
  EXPECT_NE(refused.find(tree + "/tailor.toml: exists and is not the spec adopt imports; nothing was written"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("remove it (or move it away) to adopt again"), std::string::npos) << refused;
}

TEST(AdoptPlan, WrappersOfNoCommonTextPlanNothingAndSayWhy) {
  test::TempDir tmp("adopt-odd");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-wrappers");
  std::ofstream(tree + "/" + kSm90, std::ios::app) << "# a line no other wrapper has\n";
  AdoptionPlan p = plan_adoption(tree, {"vision", false}, embedded_kb(), Collected().sink());
  EXPECT_NE(p.why, "");
  EXPECT_TRUE(p.files.empty());
  EXPECT_EQ(p.spec, "");
  std::string refused = adoption_refusals(p, false);
  EXPECT_NE(refused.find("the tree's wrappers are not understood: " + p.why + "; nothing would be written"),
            std::string::npos)
      << refused;
}

TEST(AdoptPlan, ChangesAreSpelledAsGenerateSpellsThemAndTheReportAsAdoptDoes) {
  // JSON: generate's words; a human's edit is "edited".
  EXPECT_EQ(kChanges.name(Change::create), "create");
  EXPECT_EQ(kChanges.name(Change::update), "update");
  EXPECT_EQ(kChanges.name(Change::unchanged), "unchanged");
  EXPECT_EQ(kChanges.name(Change::conflict), "edited");
  EXPECT_EQ(kChanges.name(Change::stale), "stale");
  EXPECT_EQ(kChanges.name(Change::kept), "keep");
  EXPECT_EQ(kChanges.name(Change::untouched), "untouched");
  // The report's lines: no line for a file already as the spec writes it, nor for an edited one.
  EXPECT_EQ(kAdoptLines.name(Change::create), "write");
  EXPECT_EQ(kAdoptLines.name(Change::update), "replace");
  EXPECT_EQ(kAdoptLines.name(Change::stale), "remove");
  EXPECT_EQ(kAdoptLines.name(Change::kept), "keep");
  EXPECT_EQ(kAdoptLines.name(Change::untouched), "untouched");
  EXPECT_EQ(kAdoptLines.name(Change::unchanged), "");
  EXPECT_EQ(kAdoptLines.name(Change::conflict), "");
}

TEST(AdoptPlan, JsonNamesEachFilesChangeLinesAndReason) {
  AdoptionPlan p;
  p.dir = "vision";
  p.files = {{kSm90, Change::update, false, {1, 3}, ""}, {"NOTES.md", Change::untouched, false, {}, ""}};
  p.impossible = {{kSm70, "nvcc of CUDA 13.0 cannot compile for SM70"}};
  nlohmann::ordered_json j = adoption_json(p, true, true);
  EXPECT_EQ(j["tree"], "vision");
  EXPECT_EQ(j["spec"], "vision/tailor.toml");
  EXPECT_EQ(j["files"][0]["change"], "update");
  EXPECT_EQ(j["files"][0]["lines"], nlohmann::ordered_json::parse("[1, 3]"));
  EXPECT_EQ(j["files"][1]["change"], "untouched");
  EXPECT_EQ(j["written"], 1);
  EXPECT_EQ(j["removed"], 1);
  EXPECT_EQ(adoption_json(p, false, false)["written"], 0);
}

}  // namespace
}  // namespace tailor
