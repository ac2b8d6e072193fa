#include "util/flat_index.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(FlatIndex, FindsWhatWasInsertedAndKeepsTheFirstEntryOfAName) {
  std::vector<std::string> names;
  FlatIndex index;
  auto name_of = [&](size_t i) -> std::string_view { return names[i]; };
  auto add = [&](std::string n) {
    auto [at, fresh] = index.insert(n, names.size(), name_of);
    if (fresh) names.push_back(std::move(n));
    return std::pair{at, fresh};
  };
  EXPECT_EQ(index.find("a", name_of), FlatIndex::npos);  // empty: no slots yet
  EXPECT_EQ(add("a"), (std::pair<size_t, bool>{0, true}));
  EXPECT_EQ(add("b"), (std::pair<size_t, bool>{1, true}));
  EXPECT_EQ(add("a"), (std::pair<size_t, bool>{0, false}));
  EXPECT_EQ(add(""), (std::pair<size_t, bool>{2, true}));  // the empty name is a name
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.find("b", name_of), 1u);
  EXPECT_EQ(index.find("", name_of), 2u);
  EXPECT_EQ(index.find("c", name_of), FlatIndex::npos);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find("a", name_of), FlatIndex::npos);
}

// Positions, not views: short (SSO) strings move when their vector grows, and
// the index must still find them without being rebuilt; growing the slots
// keeps every name.
TEST(FlatIndex, PositionsStayTrueWhileTheEntriesMoveAndTheSlotsGrow) {
  std::vector<std::string> names;
  FlatIndex index;
  auto name_of = [&](size_t i) -> std::string_view { return names[i]; };
  for (size_t i = 0; i < 100000; ++i) {
    std::string n = "a" + std::to_string(i);
    ASSERT_TRUE(index.insert(n, names.size(), name_of).second) << n;
    names.push_back(n);
  }
  for (size_t i = 0; i < 100000; i += 997) EXPECT_EQ(index.find("a" + std::to_string(i), name_of), i);
  EXPECT_EQ(index.find("a100000", name_of), FlatIndex::npos);
  EXPECT_EQ(index.find("a-1", name_of), FlatIndex::npos);
}

// The point of the stored hash bits: a lookup reads an entry's name only when
// its 32 bits match, so looking up absent names reads almost none (a node-based
// map, or slots without the bits, would compare at least one name per probe).
TEST(FlatIndex, ReadsANameOnlyWhenItsHashBitsMatch) {
  std::vector<std::string> names;
  FlatIndex index;
  size_t reads = 0;
  auto name_of = [&](size_t i) -> std::string_view {
    ++reads;
    return names[i];
  };
  for (size_t i = 0; i < 50000; ++i) {
    names.push_back("k" + std::to_string(i));
    index.insert(names.back(), i, name_of);
  }
  reads = 0;
  for (size_t i = 0; i < 50000; ++i) EXPECT_EQ(index.find("absent" + std::to_string(i), name_of), FlatIndex::npos);
  EXPECT_LT(reads, 10u);  // a 32-bit collision per probe: about one in a billion
  reads = 0;
  for (size_t i = 0; i < 50000; ++i) index.find(names[i], name_of);
  EXPECT_LT(reads, 50010u);  // each present name read once, give or take a collision
}

}  // namespace
}  // namespace tailor
