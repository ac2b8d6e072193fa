// The one traversal: every kind of node with children, visited in source
// order, each child with the binding it is the value of. The expected walk is
// written by hand from the text.
#include "nix/visit.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "nix/parser.hpp"

namespace tailor::nix {
namespace {

/// "TEXT@BINDING" for every node of \a text that spans at most 20 bytes, in walk order.
std::vector<std::string> small_nodes(const std::string& text) {
  SymbolTable symbols;
  ParseResult r = parse("walk.nix", text, symbols);
  EXPECT_TRUE(r.expr) << (r.error ? r.error->render() : "");
  std::vector<std::string> out;
  if (!r.expr) return out;
  walk(*r.expr, [&](const Expr& e, std::string_view binding) {
    size_t n = e.span.end - e.span.begin;
    if (n <= 20) out.push_back(text.substr(e.span.begin, n) + "@" + std::string(binding));
  });
  return out;
}

TEST(NixVisit, BindingsReachValuesListsAndOperands) {
  // A list element and both sides of `++` are still the value of gpuTargets.
  EXPECT_EQ(small_nodes("{ gpuTargets = [ a ] ++ [ \"8.9\" ]; pname = p; }"),
            (std::vector<std::string>{"[ a ] ++ [ \"8.9\" ]@gpuTargets", "[ a ]@gpuTargets", "a@gpuTargets",
                                      "[ \"8.9\" ]@gpuTargets", "\"8.9\"@gpuTargets", "p@pname"}));
}

TEST(NixVisit, EveryKindOfChildInSourceOrder) {
  // let value and body, lambda formal default and body, call function and
  // argument, select subject, dynamic name and `or` default, string
  // interpolation, if/assert/with parts, unary and inherit-from.
  EXPECT_EQ(small_nodes("let x = { a ? 1 }: f a; in x"),
            (std::vector<std::string>{"{ a ? 1 }: f a@x", "1@", "f a@", "f@", "a@", "x@"}));
  EXPECT_EQ(small_nodes("s.${k}.v or d"), (std::vector<std::string>{"s.${k}.v or d@", "s@", "k@", "d@"}));
  EXPECT_EQ(small_nodes("\"a${b}\""), (std::vector<std::string>{"\"a${b}\"@", "b@"}));
  EXPECT_EQ(small_nodes("if c then !t else e"),
            (std::vector<std::string>{"if c then !t else e@", "c@", "!t@", "t@", "e@"}));
  EXPECT_EQ(small_nodes("assert a; with w; b"),
            (std::vector<std::string>{"assert a; with w; b@", "a@", "with w; b@", "w@", "b@"}));
  EXPECT_EQ(small_nodes("{ inherit (s) n; }"), (std::vector<std::string>{"{ inherit (s) n; }@", "s@"}));
}

TEST(NixVisit, ChildrenGiveNodeHeights) {
  // update_height counts an attribute path's length: `a.b.c = 1` lowers to three nested sets.
  SymbolTable symbols;
  ParseResult r = parse("h.nix", "{ a.b.c = 1; }", symbols);
  ASSERT_TRUE(r.expr);
  EXPECT_EQ(r.expr->height, 4);
  ParseResult l = parse("l.nix", "[ [ [ 1 ] ] ]", symbols);
  ASSERT_TRUE(l.expr);
  EXPECT_EQ(l.expr->height, 4);
}

}  // namespace
}  // namespace tailor::nix
