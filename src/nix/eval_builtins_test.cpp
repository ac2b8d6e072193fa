// The builtins table against the names Nix itself binds (nix/builtin_names.cpp,
// measured on Nix 2.8): a row whose name Nix does not know would be a builtin
// no tree can call, so a misspelt row fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "nix/builtin_names.hpp"
#include "nix/eval.hpp"

namespace tailor::nix {
namespace {

TEST(NixBuiltins, EveryRowIsABuiltinOfNix) {
  std::set<std::string> nix(kEarlySymbols.begin(), kEarlySymbols.end());
  std::set<std::string> unknown_to_nix_2_8;
  for (const auto& name : builtin_names())
    if (!nix.contains(name)) unknown_to_nix_2_8.insert(name);
  // getFlake is bound only with the flakes feature on, which the measured Nix had off.
  EXPECT_EQ(unknown_to_nix_2_8, std::set<std::string>{"getFlake"});
}

TEST(NixBuiltins, EachNameHasOneRow) {
  std::vector<std::string> names = builtin_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  EXPECT_EQ(names.size(), 67u);  // 47 evaluated, 20 that need a download, the host or the store
}

}  // namespace
}  // namespace tailor::nix
