#include "repin/python_sites.hpp"

#include <gtest/gtest.h>

#include "nix/parser.hpp"

namespace tailor::repin {
namespace {

std::vector<std::string> roles(const std::string& text) {
  nix::SymbolTable symbols;
  auto r = nix::parse("t.nix", text, symbols);
  EXPECT_FALSE(r.error);
  std::vector<std::string> out;
  for (const auto& n : find_python_names(text, *r.expr)) {
    EXPECT_EQ(text.substr(n.begin, n.end - n.begin), n.name);
    out.push_back(n.role + ":" + n.name);
  }
  return out;
}

TEST(PythonSites, FormalsWithSelectsAndInterpreters) {
  EXPECT_EQ(
      roles("{ lib, python3Packages }: with python3Packages; [ torch python3Packages.numpy pkgs.python3.pkgs.six ]"),
      (std::vector<std::string>{"formal:python3Packages", "use:python3Packages", "use:python3Packages",
                                "attribute:python3"}));
}

TEST(PythonSites, BindingsInheritsAndRecordStrings) {
  EXPECT_EQ(roles("{ inherit (pkgs) python312Packages; variant = { pythonPackages = \"python312Packages\"; }; }"),
            (std::vector<std::string>{"inherit:python312Packages", "string:python312Packages"}));
  // Quoted attribute names, comments and other strings are not names of the set.
  EXPECT_EQ(roles("# python3Packages\n{ \"python3Packages\" = 1; note = \"python3Packages\"; }"),
            std::vector<std::string>{});
}

}  // namespace
}  // namespace tailor::repin
