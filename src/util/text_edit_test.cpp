// Text edits shared by `tailor check --fix` and `tailor repin`: ordering,
// duplicates, overlaps, and the diff in both styles (checked against git apply
// and patch -p1 where they are installed).
#include "util/text_edit.hpp"

#include <fstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

/// \a name holding \a text after \a apply (a shell command) read p.diff holding \a diff.
std::string patched(const std::string& name, const std::string& text, const std::string& diff,
                    const std::string& apply) {
  test::TempDir dir("text-edit-diff");
  std::ofstream(dir.path() + "/" + name, std::ios::binary) << text;
  std::ofstream(dir.path() + "/p.diff", std::ios::binary) << diff;
  test::RunResult r = test::run_command("cd '" + dir.path() + "' && " + apply, true);
  EXPECT_EQ(r.status, 0) << r.out;
  return test::read_file(dir.path() + "/" + name);
}

TEST(TextEdit, SortAndApply) {
  std::vector<TextEdit> edits{{4, 5, "X", ""}, {0, 0, "<", ""}, {4, 4, "^", ""}};
  ASSERT_TRUE(normalize_edits(edits));
  EXPECT_EQ(edits[1], (TextEdit{4, 4, "^", ""}));  // the insertion before the replacement at one offset
  EXPECT_EQ(apply_edits("abcdefg", edits), "<abcd^Xfg");
  std::vector<TextEdit> overlapping{{1, 4, "x", ""}, {3, 5, "y", ""}};
  EXPECT_FALSE(normalize_edits(overlapping));
}

TEST(TextEdit, ReplacesRangesInAnyOrderAndKeepsTheRest) {
  std::string text = "let a = \"x\"; # keep\nin a";
  std::vector<TextEdit> edits{{18, 18, " !", "insert"}, {9, 10, "yy", "value"}, {4, 5, "b", "name"}};
  EXPECT_EQ(apply_edits(text, edits), "let b = \"yy\"; # kee !p\nin a");
}

TEST(TextEdit, AppliesADuplicateOnceAndRejectsOverlaps) {
  std::vector<TextEdit> twice{{1, 3, "X", "a"}, {1, 3, "X", "b"}};  // the label does not make it another edit
  EXPECT_TRUE(normalize_edits(twice));
  EXPECT_EQ(twice.size(), 1u);
  EXPECT_EQ(apply_edits("abcdef", {{1, 3, "X", ""}, {1, 3, "X", ""}}), "aXdef");
  EXPECT_THROW(apply_edits("abcdef", {{1, 4, "X", ""}, {3, 5, "Y", ""}}), std::logic_error);
  EXPECT_THROW(apply_edits("abc", {{2, 9, "X", ""}}), std::logic_error);
  EXPECT_THROW(unified_diff("f", "f", "abcdef", {{1, 4, "X", ""}, {3, 5, "Y", ""}}), std::logic_error);
}

TEST(TextEdit, DiffOfALastLineWithoutNewlineAppliesWithGit) {
  std::string text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten";
  std::vector<TextEdit> edits{{text.size() - 3, text.size(), "TEN", ""}, {4, 7, "TWO", ""}};  // any order
  std::string diff = unified_diff("f.txt", "f.txt", text, edits);
  EXPECT_EQ(diff,
            "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n"
            "@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n three\n four\n five\n"
            "@@ -7,4 +7,4 @@\n seven\n eight\n nine\n-ten\n\\ No newline at end of file\n+TEN\n\\ No newline at end of "
            "file\n");
  EXPECT_EQ(unified_diff("f.txt", "f.txt", text, {}), "");
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("git"), "git not installed");
  EXPECT_EQ(patched("f.txt", text, diff, "git apply p.diff"), apply_edits(text, edits));
}

TEST(TextEdit, DiffOfARenameShowsOnlyInGitStyle) {
  EXPECT_EQ(unified_diff("a.nix", "b.nix", "x\n", {}),
            "diff --git a/a.nix b/b.nix\nrename from a.nix\nrename to b.nix\n");
  EXPECT_EQ(unified_diff("a.nix", "b.nix", "x\n", {}, {.context = 3, .git = false}), "");
}

// repin --dry-run's style: no context, every change its own hunk (adjacent lines too),
// several edits on one line one hunk, a line inserted after an unchanged one shown alone.
TEST(TextEdit, DiffWithoutContextAppliesWithPatch) {
  std::string text = "a = 1;\nb = 2; c = 3;\nd = 4;\n\ne = 5;\n";
  std::vector<TextEdit> edits{
      {4, 5, "10", ""}, {11, 12, "20", ""}, {18, 19, "30", ""}, {27, 27, "\nd2 = 4;", ""}, {33, 34, "50", ""}};
  std::string diff = unified_diff("f.nix", "f.nix", text, edits, {.context = 0, .git = false});
  EXPECT_EQ(diff,
            "--- a/f.nix\n+++ b/f.nix\n"
            "@@ -1,1 +1,1 @@\n-a = 1;\n+a = 10;\n"
            "@@ -2,1 +2,1 @@\n-b = 2; c = 3;\n+b = 20; c = 30;\n"
            "@@ -3,0 +4,1 @@\n+d2 = 4;\n"
            "@@ -5,1 +6,1 @@\n-e = 5;\n+e = 50;\n");
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("patch"), "patch not installed");
  EXPECT_EQ(patched("f.nix", text, diff, "patch -p1 --quiet < p.diff"), apply_edits(text, edits));
}

}  // namespace
}  // namespace tailor
