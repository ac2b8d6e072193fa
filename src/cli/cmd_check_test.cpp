// End-to-end: `tailor check` on the hand-written fixture trees (goldens), on
// every tree `tailor generate` writes (must be clean), and on the Nix corpus
// (must not crash).
#include <filesystem>

#include <gtest/gtest.h>

#include "support/golden.hpp"
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

TEST(CmdCheck, Seed002MainDrift) { expect_tree_golden("seed-002-main", 1); }
TEST(CmdCheck, Seed000PinSwapWithoutPythonSet) { expect_tree_golden("seed-000-pin-swap", 1); }
TEST(CmdCheck, Seed001Vllm) { expect_tree_golden("seed-001-vllm", 1); }

TEST(CmdCheck, JsonOutput) {
  RunResult r = run_tailor({"check", "--json", "tests/data/trees/seed-000-pin-swap"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "tests/golden/check/seed-000-pin-swap.json");
}

TEST(CmdCheck, JsonOfACleanTree) {
  RunResult r = run_tailor({"check", "tests/data/trees/clean", "--json"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "{\n  \"problems\": [],\n  \"files\": 60\n}\n");
}

TEST(CmdCheck, RulesTable) {
  RunResult r = run_tailor({"check", "--rules"});
  EXPECT_EQ(r.status, 0);
  expect_golden(r.out, "tests/golden/check/rules.txt");
}

TEST(CmdCheck, BadUsageExitsTwo) {
  RunResult none = run_tailor({"check"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "tailor: error: check: a directory is required\nhint: tailor check DIR (or tailor check --rules)\n");
  RunResult missing = run_tailor({"check", "/nonexistent/tree"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err,
            "/nonexistent/tree: error: not a directory\n"
            "hint: tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs or the output of tailor generate\n");
  RunResult flag = run_tailor({"check", "--jsn", "tests/data/trees/clean"});
  EXPECT_EQ(flag.status, 2);
  EXPECT_NE(flag.err.find("did you mean '--json'?"), std::string::npos) << flag.err;
}

// Real-world robustness: every tree tailor generates checks clean.
TEST(CmdCheck, EveryGeneratedTreeIsClean) {
  int specs = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_path("examples"))) {
    if (e.path().extension() != ".toml") continue;
    ++specs;
    TempDir dir("check-generated");
    RunResult g = run_tailor({"generate", e.path().string(), "-o", dir.path()});
    ASSERT_EQ(g.status, 0) << g.err;
    RunResult c = run_tailor({"check", dir.path()});
    EXPECT_EQ(c.status, 0) << e.path() << "\n" << c.out;
    EXPECT_NE(c.out.find(": no problems\n"), std::string::npos) << e.path() << "\n" << c.out;
    RunResult strict = run_tailor({"check", "--strict", dir.path()});
    EXPECT_EQ(strict.status, 0) << e.path();
  }
  EXPECT_GE(specs, 11);
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
