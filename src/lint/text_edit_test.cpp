// Text edits of `tailor check --fix`: renames by span, ordering, and the diff
// (checked against git apply where git is installed).
#include <fstream>

#include <gtest/gtest.h>

#include "lint/text_edit.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

nix::Span at(uint32_t begin, uint32_t end) { return {begin, end, 1, static_cast<int>(begin) + 1}; }

TEST(TextEdit, RenameIdentifiersAndStringLiterals) {
  std::string text = "a python3Packages \"python3Packages\" ''python3Packages'' \"py\\x\"";
  auto id = rename_at(text, at(2, 17), "python3Packages", "python313Packages");
  ASSERT_TRUE(id);
  EXPECT_EQ(*id, (TextEdit{2, 17, "python313Packages"}));
  auto quoted = rename_at(text, at(18, 35), "python3Packages", "python313Packages");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(*quoted, (TextEdit{19, 34, "python313Packages"}));  // the inside only
  auto indented = rename_at(text, at(36, 55), "python3Packages", "python313Packages");
  ASSERT_TRUE(indented);
  EXPECT_EQ(*indented, (TextEdit{38, 53, "python313Packages"}));
  // The bytes must read the old name: an escape is not rewritten.
  EXPECT_FALSE(rename_at(text, at(56, 63), "pyx", "python313"));
  // A new name that would need escaping inside a string is refused.
  EXPECT_FALSE(rename_at(text, at(18, 35), "python3Packages", "a\"b"));
  EXPECT_FALSE(rename_at(text, at(60, 90), "x", "y"));  // past the end
}

TEST(TextEdit, SortAndApply) {
  std::vector<TextEdit> edits{{4, 5, "X"}, {0, 0, "<"}, {4, 4, "^"}};
  ASSERT_TRUE(sort_edits(edits));
  EXPECT_EQ(edits[1], (TextEdit{4, 4, "^"}));  // the insertion before the replacement at one offset
  EXPECT_EQ(apply_edits("abcdefg", edits), "<abcd^Xfg");
  std::vector<TextEdit> overlapping{{1, 4, "x"}, {3, 5, "y"}};
  EXPECT_FALSE(sort_edits(overlapping));
}

TEST(TextEdit, DiffOfALastLineWithoutNewlineAppliesWithGit) {
  std::string text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten";
  std::vector<TextEdit> edits{{4, 7, "TWO"}, {static_cast<uint32_t>(text.size() - 3), static_cast<uint32_t>(text.size()), "TEN"}};
  std::string diff = unified_diff("f.txt", "f.txt", text, edits);
  EXPECT_EQ(diff,
            "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n"
            "@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n three\n four\n five\n"
            "@@ -7,4 +7,4 @@\n seven\n eight\n nine\n-ten\n\\ No newline at end of file\n+TEN\n\\ No newline at end of file\n");
  EXPECT_EQ(unified_diff("f.txt", "f.txt", text, {}), "");
  if (!test::have_program("git")) GTEST_SKIP() << "git not installed";
  test::TempDir dir("text-edit-diff");
  std::ofstream(dir.path() + "/f.txt", std::ios::binary) << text;
  std::ofstream(dir.path() + "/p.diff", std::ios::binary) << diff;
  test::RunResult r = test::run_command("cd '" + dir.path() + "' && git apply p.diff", true);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(test::read_file(dir.path() + "/f.txt"), apply_edits(text, edits));
}

}  // namespace
}  // namespace tailor::lint
