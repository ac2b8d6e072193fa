#include "nix/core.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tailor::nix {
namespace {

std::vector<std::string> names_of(const CoreAttrMap& m) {
  std::vector<std::string> out;
  for (const auto& [name, def] : m) out.push_back(name);
  return out;
}

// Past a few dozen names a set sorts what was appended by its names' first 8
// bytes and position; names alike in those bytes, shorter than 8 bytes, or
// with bytes above 0x7f (compared unsigned, as std::string compares) must
// still come out in std::string's order, and each found where it went.
TEST(CoreAttrMap, IteratesInNameOrderWhateverTheNamesShare) {
  std::vector<std::string> names = {
      "abcdefgh", "abcdefgh0", "abcdefgh1", "abcdefg", "abcdefg\x7f", "abcdefg\x80", "a", "", std::string("a\0b", 3),
      "b",        "\xff",      "x1",        "x10",     "x2",          "x9"};
  for (int i = 0; i < 200; ++i) names.push_back("name" + std::to_string(i * 7919 % 1000));
  std::mt19937 rng(46);
  std::shuffle(names.begin(), names.end(), rng);
  CoreAttrMap m;
  for (size_t i = 0; i < names.size(); ++i) {
    CoreAttrDef d;
    d.span.begin = static_cast<uint32_t>(i);
    ASSERT_TRUE(m.emplace(names[i], d).second) << names[i];
  }
  EXPECT_FALSE(m.emplace("abcdefgh", {}).second);  // a duplicate, before sorting
  std::vector<std::string> expected = names;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names_of(m), expected);
  for (size_t i = 0; i < names.size(); ++i) {  // each entry kept its definition
    auto it = m.find(names[i]);
    ASSERT_NE(it, m.end()) << names[i];
    EXPECT_EQ(it->second.span.begin, i) << names[i];
  }
  EXPECT_TRUE(m.contains("x10"));
  EXPECT_FALSE(m.contains("x3"));
  // Appending after a sort merges the new names in.
  m.emplace("abcdefgh00", {});
  m.emplace("0", {});
  expected.push_back("abcdefgh00");
  expected.push_back("0");
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names_of(m), expected);
}

// Every node of a parsed file is a Core (600,000 attributes: as many nodes), so
// what only lambdas need lives in CoreLambda and a number is one field: `parse`
// of 600k attributes peaked at 385 MB with 192-byte nodes (nix-instantiate: 244 MB).
TEST(CoreTree, ANodeHoldsOnlyWhatEveryKindNeeds) {
  EXPECT_LE(sizeof(Core), 128u);
  CoreTree t;
  Core* n = t.make(CoreKind::int_lit, {});
  n->int_value = 7;
  EXPECT_EQ(n->lambda, nullptr);
  CoreLambda* l = t.make_lambda();
  l->arg = "x";
  l->formals.emplace_back("a", nullptr);
  t.clear();  // made again: a reused node and head start empty
  Core* again = t.make(CoreKind::float_lit, {});
  EXPECT_EQ(again, n);
  EXPECT_EQ(again->int_value, 0);
  CoreLambda* l2 = t.make_lambda();
  EXPECT_EQ(l2, l);
  EXPECT_TRUE(l2->arg.empty());
  EXPECT_TRUE(l2->formals.empty());
}

}  // namespace
}  // namespace tailor::nix
