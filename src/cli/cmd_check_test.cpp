// End-to-end: `tailor check` on the hand-written fixture trees (goldens), on
// every tree `tailor generate` writes (must be clean), and on the Nix corpus
// (must not crash).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor::test {
namespace {

void expect_tree_golden(const std::string& tree, int status) {
  RunResult r = run_tailor({"check", "tests/data/trees/" + tree});
  EXPECT_EQ(r.status, status) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  expect_golden(r.out, "tests/golden/check/" + tree + ".txt");
}

TEST(CmdCheck, HandWrittenCleanTreeHasNoProblems) {
  RunResult r = run_tailor({"check", "tests/data/trees/clean"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "checked 60 files: no problems\n");
}

TEST(CmdCheck, PytorchMainDrift) { expect_tree_golden("pytorch-main", 1); }
TEST(CmdCheck, PytorchPinSwapWithoutPythonSet) { expect_tree_golden("pytorch-pin-swap", 1); }
TEST(CmdCheck, VllmBranch) { expect_tree_golden("vllm-branch", 1); }
// Pages in the shape a generator writes them (issue 44 §3): the floor on a line of its own is of the
// CUDA the title and CUDA line state (12.8: 550+ meets the floor of its SM89/SM90 sections, R520 and
// the H200's 550.90.07 judged by major, through 12.x's compatibility; 13.0: 580+ is 13.0's series), and
// the SM headings' labels are architecture names (SM121 is Blackwell (GB10); Vera Rubin is SM 10.7).
TEST(CmdCheck, GeneratorPages) {
  RunResult r = run_tailor({"check", "--allow-empty", "tests/data/trees/matrix-pages"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("checked 0 files: 1 error, 1 warning\n"), std::string::npos) << r.out;
  expect_golden(r.out, "tests/golden/check/matrix-pages.txt");
}
// Recipes that take python3Packages from Flox's catalog: the warning says the caller decides, not a pin;
// gpuTargets without cudaCapabilities is no finding there (no nixpkgs import to configure).
TEST(CmdCheck, FloxCatalogRecipes) { expect_tree_golden("flox-catalog", 1); }

// The rule codes `tailor check --json` reports on a fixture tree, one per finding.
std::multiset<std::string> rules_found(const std::string& tree) {
  RunResult r = run_tailor({"check", "--json", "tests/data/trees/" + tree});
  std::multiset<std::string> out;
  for (const auto& p : nlohmann::json::parse(r.out)) out.insert(p["rule"].get<std::string>());
  return out;
}

// Versions built from source are what the recipes' texts say: a shared builder's
// `inherit version src;` (torch 2.10.0) and a header that contrasts the pin's vLLM
// 0.14.0 with the 0.14.1 it builds claim nothing wrong (TLR033).
TEST(CmdCheck, VersionsBuiltFromSourceAgreeWithTheirText) {
  EXPECT_EQ(rules_found("torch-from-source").count("TLR033"), 0u);
  EXPECT_EQ(rules_found("vllm-from-source").count("TLR033"), 0u);
  // Still three findings there: the nixpkgs tarballs without sha256 (TLR005).
  EXPECT_EQ(rules_found("vllm-from-source"), (std::multiset<std::string>{"TLR005", "TLR005", "TLR005"}));
}

TEST(CmdCheck, JsonOutput) {
  RunResult r = run_tailor({"check", "--json", "tests/data/trees/pytorch-pin-swap"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "tests/golden/check/pytorch-pin-swap.json");
}

TEST(CmdCheck, JsonOfACleanTree) {
  RunResult r = run_tailor({"check", "tests/data/trees/clean", "--json"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[]\n");
}

TEST(CmdCheck, JsonSchema) {
  RunResult r = run_tailor({"check", "--json", "tests/data/trees/pytorch-main"});
  EXPECT_EQ(r.status, 1);
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty());
  for (const auto& p : j) {
    for (const char* key : {"file", "line", "column", "severity", "rule", "message"})
      EXPECT_TRUE(p.contains(key)) << key << p;
    EXPECT_TRUE(p["file"].is_string());
    EXPECT_TRUE(p["line"].is_number_integer());
    EXPECT_TRUE(p["column"].is_number_integer());
    EXPECT_TRUE(p["severity"] == "error" || p["severity"] == "warning") << p;
    EXPECT_TRUE(p["rule"].get<std::string>().starts_with("TLR")) << p;
  }
  EXPECT_EQ(j[0]["file"], "tests/data/trees/pytorch-main/README.md");
  EXPECT_EQ(j[0]["line"], 3);
  EXPECT_EQ(j[0]["column"], 59);
  EXPECT_EQ(j[0]["rule"], "TLR022");
}

// Warnings alone exit 0 (1 with --strict); errors exit 1.
TEST(CmdCheck, ExitStatusOfWarnings) {
  TempDir dir("check-warnings");
  std::string text = read_file(source_path("tests/data/trees/clean/pytorch-python313-cpu-avx2.nix"));
  size_t sha = text.find("    sha256 = ");
  ASSERT_NE(sha, std::string::npos);
  text.erase(sha, text.find('\n', sha) + 1 - sha);
  std::ofstream(dir.path() + "/pytorch-python313-cpu-avx2.nix") << text;
  RunResult r = run_tailor({"check", dir.path()});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("checked 1 file: 0 errors, 1 warning\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[TLR005]"), std::string::npos) << r.out;
  EXPECT_EQ(run_tailor({"check", "--strict", dir.path()}).status, 1);
}

TEST(CmdCheck, RulesTable) {
  RunResult r = run_tailor({"check", "--rules"});
  EXPECT_EQ(r.status, 0);
  expect_golden(r.out, "tests/golden/check/rules.txt");
}

TEST(CmdCheck, BadUsageExitsTwo) {
  RunResult none = run_tailor({"check"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err,
            "tailor: error: check: a directory is required\nhint: tailor check DIR (or tailor check --rules)\n");
  RunResult missing = run_tailor({"check", "/nonexistent/tree"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err,
            "/nonexistent/tree: error: not a directory\n"
            "hint: tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs or the output of tailor generate\n");
  RunResult flag = run_tailor({"check", "--jsn", "tests/data/trees/clean"});
  EXPECT_EQ(flag.status, 2);
  EXPECT_NE(flag.err.find("did you mean '--json'?"), std::string::npos) << flag.err;
  RunResult dry = run_tailor({"check", "--dry-run", "tests/data/trees/clean"});
  EXPECT_EQ(dry.status, 2);
  EXPECT_NE(dry.err.find("--dry-run requires --fix"), std::string::npos) << dry.err;
  RunResult both = run_tailor({"check", "--diff", "--fix", "tests/data/trees/clean"});
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.err, "tailor: error: check: --fix excludes --diff\nhint: run 'tailor check --help' for its options\n");
}

// Issue 27 §7: a directory without recipes is a mistyped path (a CI job that checks
// "pkgs" instead of ".flox/pkgs" must fail), unless --allow-empty says it is expected.
TEST(CmdCheck, ATreeWithoutRecipesIsAnErrorUnlessAllowed) {
  TempDir dir("check-empty");
  RunResult empty = run_tailor({"check", dir.path()});
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(empty.out, "");
  EXPECT_EQ(empty.err, dir.path() +
                           ": error: no recipe files (*.nix) in this directory\n"
                           "hint: tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs; pass --allow-empty where no "
                           "recipes is expected\n");
  RunResult allowed = run_tailor({"check", "--allow-empty", dir.path()});
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_EQ(allowed.out, "checked 0 files: no problems\n");
  // Docs and a shared builder, but no recipe: still no tree to check.
  std::filesystem::create_directories(dir.path() + "/lib");
  std::ofstream(dir.path() + "/README.md") << "# Builds\n";
  std::ofstream(dir.path() + "/lib/builder.nix") << "{ sm }: sm\n";
  RunResult helpers = run_tailor({"check", "--json", dir.path()});
  EXPECT_EQ(helpers.status, 2);
  EXPECT_EQ(helpers.out, "");
  EXPECT_EQ(helpers.err,
            dir.path() +
                ": error: no recipe files in this directory, only 1 helper (lib/, default.nix, "
                "flake.nix, shell.nix)\n"
                "hint: tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs; pass --allow-empty where no "
                "recipes is expected\n");
  EXPECT_EQ(run_tailor({"check", "--fix", dir.path()}).status, 2);
  EXPECT_EQ(run_tailor({"check", "--allow-empty", "--json", dir.path()}).out, "[]\n");
}

// --fix on a copy of a tree: returns the copy's root.
std::string copy_tree(const std::string& tree, const TempDir& dir) {
  std::filesystem::copy(source_path("tests/data/trees/" + tree), dir.path() + "/" + tree,
                        std::filesystem::copy_options::recursive);
  return dir.path() + "/" + tree;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

std::map<std::string, std::string> files_of(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[std::filesystem::relative(e.path(), root).string()] = read_file(e.path().string());
  return out;
}

TEST(CmdCheckFix, DiffAndDryRunWriteNothing) {
  TempDir dir("check-fix-dry");
  std::string root = copy_tree("fixable", dir);
  auto before = files_of(root);
  RunResult diff = run_tailor({"check", "--diff", root});
  EXPECT_EQ(diff.status, 1);
  expect_golden(diff.out, "tests/golden/check/fixable.diff");
  RunResult dry = run_tailor({"check", "--fix", "--dry-run", root});
  EXPECT_EQ(dry.status, 1);
  expect_golden(replace_all(dry.out, root, "fixable"), "tests/golden/check/fixable-dry-run.txt");
  EXPECT_EQ(files_of(root), before);
  // The diff is a patch git applies, to the same result as --fix.
  if (have_program("git")) {
    TempDir other("check-fix-apply");
    std::string copy = copy_tree("fixable", other);
    std::ofstream(other.path() + "/fix.diff") << diff.out;
    RunResult apply =
        run_command("cd '" + copy + "' && git apply --unsafe-paths '" + other.path() + "/fix.diff'", true);
    EXPECT_EQ(apply.status, 0) << apply.out;
    RunResult fix = run_tailor({"check", "--fix", root});
    EXPECT_EQ(files_of(copy), files_of(root));
  }
}

TEST(CmdCheckFix, FixesTheFixableTree) {
  TempDir dir("check-fix");
  std::string root = copy_tree("fixable", dir);
  RunResult r = run_tailor({"check", "--fix", root});
  EXPECT_EQ(r.status, 1) << r.out;  // the one-line preConfigure cannot take the AVX disables
  EXPECT_EQ(r.err, "");
  expect_golden(replace_all(r.out, root, "fixable"), "tests/golden/check/fixable-fix.txt");
  // Each fixed file as a golden; each parses with Nix's own parser.
  auto after = files_of(root);
  EXPECT_FALSE(after.count("pytorch-cpu-avx2.nix"));  // renamed to its pname
  EXPECT_TRUE(after.count("pytorch-python313-cpu-avx2.nix"));
  for (const auto& [rel, text] : after) {
    expect_golden(text, "tests/golden/check/fixed/" + rel);
    if (have_program("nix-instantiate")) {
      RunResult p = run_command("nix-instantiate --parse '" + root + "/" + rel + "' >/dev/null", true);
      EXPECT_EQ(p.status, 0) << rel << ": " << p.out;
    }
  }
  // Fixed as the clean tree has them, byte for byte.
  for (const char* same : {"pytorch-python313-cuda12_8-sm89-avx512.nix", "pytorch-python313-cuda12_8-sm90-avx2.nix"})
    EXPECT_EQ(after.at(same), read_file(source_path(std::string("tests/data/trees/clean/") + same))) << same;
  // Only the unfixable problem is left; a second --fix changes nothing.
  RunResult again = run_tailor({"check", "--fix", root});
  EXPECT_EQ(again.status, 1);
  EXPECT_TRUE(again.out.starts_with("nothing to fix\n")) << again.out;
  EXPECT_NE(again.out.find("[TLR017]"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("checked 8 files: 1 error, 0 warnings\n"), std::string::npos) << again.out;
  EXPECT_EQ(files_of(root), after);
}

// The pin migration's package-set step as a fix: python3Packages becomes python313Packages, nothing else changes.
TEST(CmdCheckFix, SeedPinSwapPackageSet) {
  TempDir dir("check-fix-branch");
  std::string root = copy_tree("pytorch-pin-swap", dir);
  auto before = files_of(root);
  RunResult r = run_tailor({"check", "--fix", root});
  // Three TLR005 warnings remain, three TLR033 errors (headers claiming PyTorch 2.10.0 on 0182a36, which
  // ships 2.9.1), and the "sm_90" gpuTargets error (TLR026), which has no mechanical fix.
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("checked 3 files: 4 errors, 3 warnings\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[TLR026]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fixed 3 problems in 3 files\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[TLR007]\n  "), std::string::npos) << r.out;
  for (const auto& [rel, text] : files_of(root)) {
    // The uses change (python3Packages.torch), the comments naming the step do not.
    std::string expected = replace_all(before.at(rel), "python3Packages.", "python313Packages.");
    EXPECT_EQ(text, expected) << rel;
  }
}

// Real-world robustness: every tree tailor generates checks clean.
TEST(CmdCheck, EveryGeneratedTreeIsClean) {
  int specs = 0;
  for (std::filesystem::path e : plain_example_specs()) {
    ++specs;
    TempDir dir("check-generated");
    RunResult g = run_tailor({"generate", e.string(), "-o", dir.path()});
    ASSERT_EQ(g.status, 0) << g.err;
    RunResult c = run_tailor({"check", dir.path()});
    EXPECT_EQ(c.status, 0) << e << "\n" << c.out;
    EXPECT_NE(c.out.find(": no problems\n"), std::string::npos) << e << "\n" << c.out;
    RunResult strict = run_tailor({"check", "--strict", dir.path()});
    EXPECT_EQ(strict.status, 0) << e;
  }
  EXPECT_GE(specs, 11);
}

// "rule line:column" of each finding `tailor check --json` reports in \a file under \a root.
std::vector<std::string> findings_in(const std::string& root, const std::string& file) {
  RunResult r = run_tailor({"check", "--json", root});
  std::vector<std::string> out;
  for (const auto& p : nlohmann::json::parse(r.out))
    if (p["file"] == root + "/" + file)
      out.push_back(
          fmt::format("{} {}:{}", p["rule"].get<std::string>(), p["line"].get<int>(), p["column"].get<int>()));
  return out;
}

// 1-based "line:column" of the first \a needle in \a text.
std::string position_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "absent";
  size_t line_start = text.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  return fmt::format("{}:{}", std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1,
                     at - line_start + 1);
}

// A generated tree's texts are checked against what its variant records build: torch
// 2.10.0 from the v2.10.0 tag on pins shipping 2.9.1 (`torchSource = { …; version = "2.10.0"; }`),
// else the pin's own torch. A header or description naming another version is TLR033 at
// that version; the tree as generated says what it builds.
TEST(CmdCheck, GeneratedTextsSayTheVersionTheRecordBuilds) {
  struct Case {
    std::string spec, recipe, built, wrong;
  };
  for (const Case& c : {Case{"pytorch-2.10-python313", "pytorch-python313-cuda13_1-sm75-armv8_2", "2.10.0", "2.9.1"},
                        Case{"pytorch-2.9-python313", "pytorch-python313-cpu-avx2", "2.9.1", "2.8.0"}}) {
    TempDir dir("check-generated-version");
    RunResult g = run_tailor({"generate", "examples/build-pytorch/" + c.spec + ".toml", "-o", dir.path()});
    ASSERT_EQ(g.status, 0) << g.err;
    const std::string rel = ".flox/pkgs/" + c.recipe + ".nix", path = dir.path() + "/" + rel;
    EXPECT_EQ(findings_in(dir.path(), rel), std::vector<std::string>{}) << c.spec;
    std::string text = read_file(path);
    ASSERT_TRUE(text.starts_with("# PyTorch " + c.built + " ")) << text.substr(0, 80);
    const std::string description = "description = \"PyTorch " + c.built;
    ASSERT_NE(text.find(description), std::string::npos) << c.spec;
    text = replace_all(text, "# PyTorch " + c.built + " ", "# PyTorch " + c.wrong + " ");
    text = replace_all(text, description, "description = \"PyTorch " + c.wrong);
    std::ofstream(path) << text;
    // The header's version starts after "# PyTorch " (column 11); the description's after its quote and "PyTorch ".
    std::string in_description = position_of(text, "description = \"PyTorch " + c.wrong);
    size_t colon = in_description.find(':');
    int column =
        std::stoi(in_description.substr(colon + 1)) + static_cast<int>(std::string("description = \"PyTorch ").size());
    EXPECT_EQ(findings_in(dir.path(), rel),
              (std::vector<std::string>{"TLR033 1:11",
                                        "TLR033 " + in_description.substr(0, colon) + ":" + std::to_string(column)}))
        << c.spec;
  }
}

// Arbitrary Nix (the parser corpus, syntax errors included) must not crash check.
TEST(CmdCheck, NixCorpusDoesNotCrash) {
  for (const char* dir : {"tests/nix_corpus", "tests/fuzz_corpus/nix"}) {
    RunResult r = run_tailor({"check", dir});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << dir << ": " << r.err;
    EXPECT_NE(r.out.find("checked "), std::string::npos) << dir;
  }
}

}  // namespace
}  // namespace tailor::test
