#include "recipe/line_index.hpp"

#include <gtest/gtest.h>

#include "nix/parser.hpp"

namespace tailor::recipe {
namespace {

// "{\n  a = 1;\n\n}\n": lines start at 0, 2, 11 (after "  a = 1;"), 12 (an empty line) and 14 (after the end).
constexpr std::string_view kText = "{\n  a = 1;\n\n}\n";

TEST(LineIndex, TheParserHandsOverTheLineStartsItFound) {
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse("t.nix", kText, symbols);
  ASSERT_TRUE(r.expr);
  EXPECT_EQ(r.line_starts, (std::vector<uint32_t>{0, 2, 11, 12, 14}));
}

TEST(LineIndex, OverHandedLineStartsItGivesTheSameSpans) {
  nix::SymbolTable symbols;
  LineIndex handed(kText, nix::parse("t.nix", kText, symbols).line_starts);
  LineIndex scanned(kText);
  for (const LineIndex* lines : {&handed, &scanned}) {
    nix::Span a = lines->span(4, 5);  // the `a`
    EXPECT_EQ(a.line, 2);
    EXPECT_EQ(a.column, 3);
    nix::Span brace = lines->span(12, 13);
    EXPECT_EQ(brace.line, 4);
    EXPECT_EQ(brace.column, 1);
    EXPECT_EQ(lines->span(0, 1).line, 1);
  }
}

}  // namespace
}  // namespace tailor::recipe
