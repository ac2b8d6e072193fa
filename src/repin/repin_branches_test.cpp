// Issue 44 §4, on tests/data/repin/branch-rows (a branch whose README also
// describes its sibling branches, as flox/build-pytorch's do): repin changes
// only what belongs to the tree's own branch, says when the new pin lacks the
// tree's Python, lists what a Python-set move leaves, and tells the findings
// it introduced from those the tree already had.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/run.hpp"
#include "util/read_file.hpp"

namespace tailor::test {
namespace {

namespace fs = std::filesystem;

const std::string kTree = "tests/data/repin/branch-rows";
constexpr const char* k6a0 = "6a030d535719c5190187c4cec156f335e95e3211";

std::string repinned_readme(const std::string& out) { return read_file(out + "/README.md"); }

TEST(RepinBranches, RowsOfOtherBranchesStayAndAreListed) {
  TempDir tmp("repin-rows");
  const std::string out = tmp.path() + "/out";
  RunResult r = run_tailor({"repin", kTree, "--rev", k6a0, "-o", out});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  // The bullet and both rows of torch-py312 share the old pin: they are that branch's, not this tree's.
  EXPECT_NE(r.out.find("README.md:5: mentions branch torch-py312: left\n"
                       "README.md:12: mentions branch torch-py312: left\n"
                       "README.md:13: mentions branch torch-py312: left\n"),
            std::string::npos)
      << r.out;
  const std::string readme = repinned_readme(out);
  EXPECT_NE(readme.find("> You are on the `torch-py311` branch: Python 3.11 on nixpkgs `6a030d5`."), std::string::npos);
  EXPECT_NE(readme.find("| **`torch-py311`** (this branch) | 2.9.1 | 3.11 | `6a030d5` |"), std::string::npos);
  EXPECT_NE(readme.find("- **`torch-py312`**: the same pin (`46336d4`) with Python 3.12."), std::string::npos);
  EXPECT_NE(readme.find("| `torch-py312` | 2.9.1 | 3.12 | `46336d4` |\n| | | 3.12 | `46336d4` |"), std::string::npos);
}

TEST(RepinBranches, TheGivenBranchWinsOverTheMarkedOne) {
  TempDir tmp("repin-rows-given");
  const std::string out = tmp.path() + "/out";
  RunResult r = run_tailor({"repin", kTree, "--rev", k6a0, "--branch", "torch-py312", "-o", out});
  EXPECT_NE(r.out.find("README.md:11: mentions branch torch-py311: left\n"), std::string::npos) << r.out;
  EXPECT_NE(repinned_readme(out).find("| `torch-py312` | 2.9.1 | 3.12 | `6a030d5` |"), std::string::npos);
}

TEST(RepinBranches, ANewPinWithoutTheTreesPythonIsSaid) {
  RunResult r = run_tailor({"repin", kTree, "--rev", "0182a36", "--dry-run"});
  EXPECT_NE(r.out.find("  - 0182a36 does not provide Python 3.11 per the knowledge base (it has 3.12, 3.13), but the "
                       "recipes use python311Packages: they fail to evaluate on the new pin unless it has it; move "
                       "them with --python-set\n"),
            std::string::npos)
      << r.out;
}

TEST(RepinBranches, FindingsTheTreeHadAreNoFailureOfTheMove) {
  // The README lists a variant without a recipe (TLR023, an error) before and after.
  RunResult r = run_tailor({"repin", kTree, "--rev", k6a0, "--dry-run"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("tailor check on the result: nothing introduced by repin (the tree had 1 error, 2 warnings "
                       "before; 3 of them remain, not shown: tailor check tests/data/repin/branch-rows):\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("[TLR023]"), std::string::npos) << r.out;
}

TEST(RepinBranches, APythonSetMoveListsTheNamesItLeavesAndFailsOnWhatItIntroduced) {
  RunResult r = run_tailor({"repin", kTree, "--rev", k6a0, "--python-set", "python313Packages", "--dry-run"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("tailor check on the result: 2 errors, 0 warnings introduced by repin"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  - 2 files still name python311 while the package set is now python313Packages (tailor "
                       "check reports each as TLR007): rename them, with their pnames and descriptions, to python313, "
                       "or repin without --python-set; first: "
                       "tests/data/repin/branch-rows/.flox/pkgs/pytorch-python311-cpu-avx2.nix\n"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace tailor::test
