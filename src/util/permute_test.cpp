#include "util/permute.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tailor {
namespace {

// Element j of the result is the one that was at from[j], for a permutation
// of cycles of every length (fixed points, swaps, one long cycle), and each
// element moves once: a moved-from string is never read again.
TEST(ApplyOrder, PutsEachElementWhereTheOrderSays) {
  std::mt19937 rng(46);
  for (size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    std::vector<std::string> items(n);
    for (size_t i = 0; i < n; ++i) items[i] = "item number " + std::to_string(i) + " (long enough for the heap)";
    std::vector<size_t> from(n);
    std::iota(from.begin(), from.end(), size_t{0});
    std::shuffle(from.begin(), from.end(), rng);
    std::vector<std::string> want(n);
    for (size_t j = 0; j < n; ++j) want[j] = items[from[j]];
    apply_order(items.data(), from);
    EXPECT_EQ(items, want) << n;
  }
  std::vector<int> v = {10, 11, 12, 13};
  std::vector<size_t> from = {0, 2, 1, 3};  // fixed points and one swap
  apply_order(v.data(), from);
  EXPECT_EQ(v, (std::vector<int>{10, 12, 11, 13}));
}

}  // namespace
}  // namespace tailor
