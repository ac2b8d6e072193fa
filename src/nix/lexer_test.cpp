// The lexer follows flex's longest-match rules of Nix 2.8's lexer.l.
#include "nix/lexer.hpp"

#include <gtest/gtest.h>

namespace tailor::nix {
namespace {

std::vector<Tok> kinds(std::string_view text) {
  Lexer lex(text);
  std::vector<Tok> out;
  for (;;) {
    Token t = lex.next();
    out.push_back(t.kind);
    if (t.kind == Tok::end || t.kind == Tok::error) return out;
  }
}

std::vector<std::string> values(std::string_view text) {
  Lexer lex(text);
  std::vector<std::string> out;
  for (Token t = lex.next(); t.kind != Tok::end && t.kind != Tok::error; t = lex.next()) out.emplace_back(t.value);
  return out;
}

TEST(NixLexer, KeywordsAndIdentifiers) {
  EXPECT_EQ(kinds("if iff or or' a-b"),
            (std::vector<Tok>{Tok::kw_if, Tok::id, Tok::kw_or, Tok::id, Tok::id, Tok::end}));
}

TEST(NixLexer, NumbersFollowFloatRegex) {
  EXPECT_EQ(kinds("1 1.5 .5 1e3"),
            (std::vector<Tok>{Tok::int_lit, Tok::float_lit, Tok::float_lit, Tok::int_lit, Tok::id, Tok::end}));
  EXPECT_EQ(kinds("12345678901234567890").back(), Tok::error);
}

TEST(NixLexer, PathsUrisAndSearchPaths) {
  EXPECT_EQ(kinds("a/b x:y <p/q> ~/h")[0], Tok::path);
  EXPECT_EQ(kinds("x:y")[0], Tok::uri);
  EXPECT_EQ(kinds("x: y")[1], Tok::colon);
  EXPECT_EQ(kinds("<p/q>")[0], Tok::spath);
  EXPECT_EQ(kinds("~/h")[0], Tok::hpath);
  EXPECT_EQ(kinds("./a/ ").back(), Tok::error);
}

TEST(NixLexer, InterpolatedPath) {
  EXPECT_EQ(kinds("./a/${b}c"),
            (std::vector<Tok>{Tok::path, Tok::dollar_curly, Tok::id, Tok::rbrace, Tok::str, Tok::path_end, Tok::end}));
  EXPECT_EQ(values("x/${b}"), (std::vector<std::string>{"x/", "", "b", "", ""}));
}

TEST(NixLexer, StringsAreUnescaped) {
  EXPECT_EQ(values("\"a\\nb\\$c${x}$$\""), (std::vector<std::string>{"", "a\nb$c", "", "x", "", "$$", ""}));
}

TEST(NixLexer, IndentedStringEscapes) {
  EXPECT_EQ(values("''a''$b'''c''\\n'"), (std::vector<std::string>{"", "a", "$", "b", "''", "c", "\n", "'"}));
}

TEST(NixLexer, CommentsAreSkipped) {
  EXPECT_EQ(kinds("# c\n/* d */ 1 /* unterminated"),
            (std::vector<Tok>{Tok::int_lit, Tok::slash, Tok::star, Tok::id, Tok::end}));
}

TEST(NixLexer, OperatorsLongestMatch) {
  EXPECT_EQ(kinds("++ + // -> - ... == != <= >= && ||"),
            (std::vector<Tok>{Tok::concat, Tok::plus, Tok::update, Tok::impl, Tok::minus, Tok::ellipsis, Tok::eq,
                              Tok::neq, Tok::leq, Tok::geq, Tok::and_, Tok::or_, Tok::end}));
}

TEST(NixLexer, SpansHaveLineAndColumn) {
  Lexer lex("a\n  bc");
  lex.next();
  Token t = lex.next();
  EXPECT_EQ(t.span.line, 2);
  EXPECT_EQ(t.span.column, 3);
  EXPECT_EQ(t.span.begin, 4u);
  EXPECT_EQ(t.span.end, 6u);
}

TEST(NixLexer, PeekDoesNotConsume) {
  Lexer lex("a b");
  EXPECT_EQ(lex.peek(1).value, "b");
  EXPECT_EQ(lex.next().value, "a");
  EXPECT_EQ(lex.next().value, "b");
}

}  // namespace
}  // namespace tailor::nix
