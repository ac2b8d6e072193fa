#include "util/edit_distance.hpp"

#include <algorithm>
#include <cstdint>

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

// closest_match prunes by length and stops rows early; it must pick exactly
// what a full comparison against every candidate picks.
TEST(EditDistance, PruningPicksWhatAFullComparisonPicks) {
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  auto word = [&] {
    std::string w(3 + next() % 10, 'a');
    for (char& c : w) c = static_cast<char>('a' + next() % 4);  // small alphabet: many near misses
    return w;
  };
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back(word());
  for (int t = 0; t < 300; ++t) {
    std::string w = word();
    int limit = std::clamp(static_cast<int>(w.size()) / 3, 1, 3);
    std::optional<std::string> expected;
    int best = limit + 1;
    for (const auto& n : names)
      if (int d = edit_distance(w, n); d < best) {
        best = d;
        expected = n;
      }
    EXPECT_EQ(closest_match(w, names), expected) << w;
  }
}

}  // namespace
}  // namespace tailor
