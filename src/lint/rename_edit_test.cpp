// Renames by span, as `tailor check --fix` writes them.
#include "lint/rename_edit.hpp"

#include <gtest/gtest.h>

namespace tailor::lint {
namespace {

nix::Span at(uint32_t begin, uint32_t end) { return {begin, end, 1, static_cast<int>(begin) + 1}; }

TEST(RenameEdit, IdentifiersAndStringLiterals) {
  std::string text = "a python3Packages \"python3Packages\" ''python3Packages'' \"py\\x\"";
  auto id = rename_at(text, at(2, 17), "python3Packages", "python313Packages");
  ASSERT_TRUE(id);
  EXPECT_EQ(*id, (TextEdit{2, 17, "python313Packages", ""}));
  auto quoted = rename_at(text, at(18, 35), "python3Packages", "python313Packages");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(*quoted, (TextEdit{19, 34, "python313Packages", ""}));  // the inside only
  auto indented = rename_at(text, at(36, 55), "python3Packages", "python313Packages");
  ASSERT_TRUE(indented);
  EXPECT_EQ(*indented, (TextEdit{38, 53, "python313Packages", ""}));
  // The bytes must read the old name: an escape is not rewritten.
  EXPECT_FALSE(rename_at(text, at(56, 63), "pyx", "python313"));
  // A new name that would need escaping inside a string is refused.
  EXPECT_FALSE(rename_at(text, at(18, 35), "python3Packages", "a\"b"));
  EXPECT_FALSE(rename_at(text, at(60, 90), "x", "y"));  // past the end
}

}  // namespace
}  // namespace tailor::lint
