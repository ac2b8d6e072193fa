#include "migrate/text_edit.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

namespace tailor::migrate {
namespace {

TEST(TextEdit, ReplacesRangesInAnyOrderAndKeepsTheRest) {
  std::string text = "let a = \"x\"; # keep\nin a";
  std::vector<TextEdit> edits{{18, 18, " !", "insert"}, {9, 10, "yy", "value"}, {4, 5, "b", "name"}};
  EXPECT_EQ(apply_edits(text, edits), "let b = \"yy\"; # kee !p\nin a");
}

TEST(TextEdit, AppliesADuplicateOnceAndRejectsOverlaps) {
  EXPECT_EQ(apply_edits("abcdef", {{1, 3, "X", ""}, {1, 3, "X", ""}}), "aXdef");
  EXPECT_THROW(apply_edits("abcdef", {{1, 4, "X", ""}, {3, 5, "Y", ""}}), std::logic_error);
  EXPECT_THROW(apply_edits("abc", {{2, 9, "X", ""}}), std::logic_error);
}

}  // namespace
}  // namespace tailor::migrate
