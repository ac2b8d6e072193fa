// Parser errors are tailor's own wording, kept verbatim in golden files
// beside the bad inputs (tests/nix_corpus/bad/NAME.err).
#include "nix/parser.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "nix/normal_form.hpp"
#include "support/golden.hpp"

namespace tailor::nix {
namespace {

TEST(NixParser, ErrorGoldens) {
  namespace fs = std::filesystem;
  int n = 0;
  for (const auto& e : fs::directory_iterator(test::source_path("tests/nix_corpus/bad"))) {
    if (e.path().extension() != ".nix") continue;
    std::string rel = "tests/nix_corpus/bad/" + e.path().filename().string();
    SCOPED_TRACE(rel);
    SymbolTable symbols;
    NormalForm r = normal_form(rel, test::read_file(e.path().string()), PathContext{"/base", "/home/u"}, symbols);
    ASSERT_TRUE(r.error.has_value());
    test::expect_golden(r.error->render(), "tests/nix_corpus/bad/" + e.path().stem().string() + ".err");
    ++n;
  }
  EXPECT_GE(n, 10);
}

TEST(NixParser, SpansCoverTheSource) {
  SymbolTable symbols;
  std::string text = "let\n  a = f x;\nin a.b or 1";
  ParseResult r = parse("t.nix", text, symbols);
  ASSERT_TRUE(r.expr);
  EXPECT_EQ(r.expr->span.begin, 0u);
  EXPECT_EQ(r.expr->span.end, text.size());
  const auto& let = static_cast<const Attrs&>(*r.expr);
  ASSERT_EQ(let.bindings.size(), 1u);
  EXPECT_EQ(text.substr(let.bindings[0].span.begin, let.bindings[0].span.end - let.bindings[0].span.begin), "a = f x;");
  const Expr& value = *let.bindings[0].value;
  EXPECT_EQ(value.kind, ExprKind::call);
  EXPECT_EQ(value.span.line, 2);
  EXPECT_EQ(value.span.column, 7);
  EXPECT_EQ(let.body->kind, ExprKind::select);
  EXPECT_EQ(text.substr(let.body->span.begin), "a.b or 1");
}

TEST(NixParser, DeepNestingIsADiagnostic) {
  SymbolTable symbols;
  std::string deep(100000, '(');
  ParseResult r = parse("deep.nix", deep, symbols);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->message.find("nested too deeply"), std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 100000; ++i) chain += " + 1";
  r = parse("chain.nix", chain, symbols);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->message.find("nested too deeply"), std::string::npos);
  std::string unary(100000, '!');
  r = parse("unary.nix", unary + "true", symbols);
  ASSERT_TRUE(r.error.has_value());
}

TEST(NixParser, SymbolsPersistAcrossFiles) {
  // One Nix process parsing two files: names first seen in the first file
  // keep their earlier place in the second.
  SymbolTable symbols;
  PathContext ctx{"/base", "/home/u"};
  ASSERT_FALSE(normal_form("a.nix", "{ zeta }: zeta", ctx, symbols).error);
  EXPECT_EQ(normal_form("b.nix", "{ alpha, zeta }: alpha", ctx, symbols).text, "({ zeta, alpha }: alpha)\n");
}

// check parses with a table that records nothing: it still parses, and ranks no name.
TEST(NixParser, AnUnrecordedTableParsesAndRanksNoName) {
  const std::string text = "{ zeta, alpha }: let b = 1; a = zeta; in { inherit a b; c.d = alpha; }";
  SymbolTable recorded, unrecorded = SymbolTable::unrecorded();
  ParseResult r1 = parse("a.nix", text, recorded), r2 = parse("a.nix", text, unrecorded);
  ASSERT_TRUE(r1.expr && r2.expr);
  EXPECT_EQ(r1.expr->height, r2.expr->height);
  EXPECT_EQ(r1.expr->span.end, r2.expr->span.end);
  EXPECT_NE(recorded.rank("zeta"), UINT64_MAX);
  EXPECT_LT(recorded.rank("zeta"), recorded.rank("alpha"));  // first seen, first ranked
  for (std::string_view name : {"zeta", "alpha", "b", "a", "c", "d"})
    EXPECT_EQ(unrecorded.rank(name), UINT64_MAX) << name;
  EXPECT_TRUE(unrecorded.less("alpha", "zeta"));  // by name
}

}  // namespace
}  // namespace tailor::nix
