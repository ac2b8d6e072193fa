#include "util/edit_distance.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(EditDistance, Basics) {
  EXPECT_EQ(edit_distance("", ""), 0);
  EXPECT_EQ(edit_distance("avx512", "avx521"), 1);  // transposition
  EXPECT_EQ(edit_distance("matrx", "matrix"), 1);
  EXPECT_EQ(edit_distance("abc", ""), 3);
}

TEST(EditDistance, SuggestsOnlyCloseNames) {
  std::vector<std::string> isas = {"avx", "avx2", "avx512", "avx512bf16", "avx512vnni", "armv8_2", "armv9"};
  EXPECT_EQ(did_you_mean("avx521", isas), "did you mean 'avx512'?");
  EXPECT_EQ(did_you_mean("armv8.2", isas), "did you mean 'armv8_2'?");
  EXPECT_EQ(did_you_mean("neon", isas), "");
}

}  // namespace
}  // namespace tailor
