#include "recipe/line_index.hpp"

#include <gtest/gtest.h>

#include "nix/parser.hpp"
#include "util/diagnostic.hpp"

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

TEST(LineIndex, ALineIsTheTextBetweenItsNewlinesWithoutACarriageReturn) {
  // Written out by hand: line 2 ends in \r\n, line 4 is empty, line 5 has no newline.
  const std::string text = "first\nsecond\r\nthird\n\nlast";
  LineIndex lines(text);
  EXPECT_EQ(lines.line(1), "first");
  EXPECT_EQ(lines.line(2), "second");
  EXPECT_EQ(lines.line(3), "third");
  EXPECT_EQ(lines.line(4), "");
  EXPECT_EQ(lines.line(5), "last");
  EXPECT_EQ(lines.line(6), "");
  EXPECT_EQ(lines.line(0), "");
  EXPECT_EQ(LineIndex("a\n").line(2), "");
  for (int n = 0; n <= 6; ++n) EXPECT_EQ(lines.line(n), line_of(text, n)) << n;
}

}  // namespace
}  // namespace tailor::recipe
