#include "util/text_position.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(TextPosition, CountsLinesAndColumnsFromOne) {
  const std::string_view text = "ab\ncd\n\nx";
  EXPECT_EQ(pos_at(text, 0).line, 1);
  EXPECT_EQ(pos_at(text, 0).column, 1);
  EXPECT_EQ(pos_at(text, 4).line, 2);  // 'd'
  EXPECT_EQ(pos_at(text, 4).column, 2);
  EXPECT_EQ(pos_at(text, 7).line, 4);  // 'x'
  EXPECT_EQ(pos_at(text, 7).column, 1);
  EXPECT_EQ(pos_at(text, 99).line, 4) << "past the end: the end";
  EXPECT_EQ(pos_at(text, 99).column, 2);
}

}  // namespace
}  // namespace tailor
