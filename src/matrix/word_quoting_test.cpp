// Issue 57 #1: a [layout] template word is quoted for the place it lands. The
// expected texts are Nix's and Markdown's own escapes, written by hand (Nix
// manual, "String literals": \" \\ \$ in a double-quoted string, ''$ and '''
// in an indented one; GFM: \| inside a table cell).
#include "matrix/word_quoting.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

// The word between \a before and \a after, quoted; nullopt when it is refused.
std::optional<std::string> landed(TextLanguage l, std::string_view before, std::string_view value,
                                  std::string_view after = "") {
  WordQuoter q(l);
  q.text(before);
  q.word(value, "{w}");
  q.text(after);
  std::string out;
  try {
    out = q.finish();
  } catch (const DiagnosticError&) {
    return std::nullopt;
  }
  EXPECT_TRUE(out.starts_with(before) && out.ends_with(after)) << out;
  return out.substr(before.size(), out.size() - before.size() - after.size());
}

const std::string kHostile = "H100\"; injected = builtins.trace \"INJECTED\" 1; x = \"";

TEST(WordQuoting, InANixStringAQuoteABackslashAndADollarAreEscaped) {
  EXPECT_EQ(landed(TextLanguage::nix, "{ names = \"", "H100, L40S"), "H100, L40S");
  EXPECT_EQ(landed(TextLanguage::nix, "{ names = \"", kHostile),
            "H100\\\"; injected = builtins.trace \\\"INJECTED\\\" 1; x = \\\"");
  EXPECT_EQ(landed(TextLanguage::nix, "x = \"", "a\\b${c}$"), "a\\\\b\\${c}\\$");
  EXPECT_EQ(landed(TextLanguage::nix, "x = \"", "two\nlines"), "two\\nlines");
  // Inside an interpolation's string, too.
  EXPECT_EQ(landed(TextLanguage::nix, "x = \"a ${f \"", "\""), "\\\"");
}

TEST(WordQuoting, InAnIndentedStringQuotesAndDollarsAreEscaped) {
  EXPECT_EQ(landed(TextLanguage::nix, "x = ''\n  ", "it's ${x}"), "it${\"'\"}s ''${x}");
}

TEST(WordQuoting, InACommentALineBreakBecomesASpace) {
  EXPECT_EQ(landed(TextLanguage::nix, "# for ", "H100\ninjected = 1;"), "H100 injected = 1;");
  // (A "/*" opens a comment only where a "*/" closes it, as Nix's lexer reads it.)
  EXPECT_EQ(landed(TextLanguage::nix, "/* for ", "a */ b", " */ 1"), "a * / b");
  // A string's "#" opens no comment: the word after it is in the string.
  EXPECT_EQ(landed(TextLanguage::nix, "x = \"#", "\""), "\\\"");
}

TEST(WordQuoting, BareCodeTakesWordsAndCompleteStringsOnly) {
  EXPECT_EQ(landed(TextLanguage::nix, "driver = ", "570"), "570");
  EXPECT_EQ(landed(TextLanguage::nix, "kit = pkgs.", "cudaPackages_13_0"), "cudaPackages_13_0");
  EXPECT_EQ(landed(TextLanguage::nix, "flags = [ ", "\"-mavx2\" \"-mfma\""), "\"-mavx2\" \"-mfma\"");
  EXPECT_EQ(landed(TextLanguage::nix, "names = ", "H100, L40S"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "flags = [ ", "\"a\" ]; x = [ \"b\""), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "flags = [ ", "\"${builtins.trace 1 1}\""), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "x = ", "1;\ny = 2"), std::nullopt);
}

// A list of compiler flags as teams write it, one to a line with a comment after each, lands in
// code whole (a target's text of [layout.targets]); a comment that would swallow the text after
// the word, or end at a carriage return as Nix ends it, is refused.
TEST(WordQuoting, BareCodeTakesAListOfStringsOverLinesWithComments) {
  const std::string flags = "\"-mavx2\"   # AVX2\n    \"-mfma\"    # fused multiply-add\n";
  EXPECT_EQ(landed(TextLanguage::nix, "{ f = [\n    ", flags, "  ];\n}\n"), flags);
  EXPECT_EQ(landed(TextLanguage::nix, "{ f = [\n    ", "\"-mavx2\"\n    \"-mfma\"", "\n  ];\n}\n"),
            "\"-mavx2\"\n    \"-mfma\"");
  EXPECT_EQ(landed(TextLanguage::nix, "{ f = [ ", "\"-mavx2\" # AVX2", " ]; }"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "{ f = [\n    ", "\"-mavx2\" # a\r];", "\n  ];\n}\n"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "{ f = [\n    ", "\"-mavx2\"\n  ];\n  g = [ \"x\"", "\n  ];\n}\n"), std::nullopt);
}

// layout_template_fuzzer: tokens each of them code's can still make no expression
// ("iVisio .99 - n" in a list, a keyword, two names in a function's formals). Where the
// file parses with a letter for the word, it must parse with the value.
TEST(WordQuoting, AValueThatLeavesTheFileUnparsedIsRefused) {
  EXPECT_EQ(landed(TextLanguage::nix, "{ c = [ ", "iVisio.99 -n", " ]; }"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "{ c = [ ", "if", " ]; }"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "{ ", "cuda nccl", " }: 1"), std::nullopt);
  EXPECT_EQ(landed(TextLanguage::nix, "{ ", "cuda", " }: 1"), "cuda");
  EXPECT_EQ(landed(TextLanguage::nix, "{ c = [ ", "\"-mavx2\" \"-mfma\"", " ]; }"), "\"-mavx2\" \"-mfma\"");
}

TEST(WordQuoting, AWordThatWouldJoinTheTextBeforeItIsRefused) {
  // "$" then "{…": an interpolation the template did not write.
  EXPECT_EQ(landed(TextLanguage::nix, "x = \"$", "{y}"), std::nullopt);
  // "\" then nothing: the template's closing quote would be escaped.
  EXPECT_EQ(landed(TextLanguage::nix, "{ x = \"\\", "", "\"; y = 1; }"), std::nullopt);
  // "*" in a comment then "/…": the word would close it.
  EXPECT_EQ(landed(TextLanguage::nix, "/* *", "/ 1", " */ 1"), std::nullopt);
}

// Issue 57, layout_template_fuzzer's second finding: Nix ends a line comment at a carriage
// return as at a line feed (lexer.l: \#[^\r\n]*), so the word after "\r{ names = \"" lands in
// a string, and is quoted as a string's (a hand-written reader took it for comment text).
TEST(WordQuoting, ACarriageReturnEndsALineCommentAsNixReadsIt) {
  EXPECT_EQ(landed(TextLanguage::nix, "# for H100\r{ names = \"", kHostile, "\"; }"),
            "H100\\\"; injected = builtins.trace \\\"INJECTED\\\" 1; x = \\\"");
  EXPECT_EQ(landed(TextLanguage::nix, "# for H100\r{ names = ", "H100, L40S", "; }"), std::nullopt);
}

TEST(WordQuoting, MarkdownKeepsItsLineAndItsCell) {
  EXPECT_EQ(landed(TextLanguage::markdown, "## SM90, Hopper: ", "H100\n# injected"), "H100 # injected");
  EXPECT_EQ(landed(TextLanguage::markdown, "| `x` | ", "H100 | injected"), "H100 \\| injected");
  EXPECT_EQ(landed(TextLanguage::markdown, "| `x-", "a`b"), std::nullopt);
}

TEST(WordQuoting, TheRefusalNamesTheWordAndWhereItLands) {
  WordQuoter q(TextLanguage::nix);
  q.text("names = ");
  q.word("H100, L40S", "[layout.tables] lib/gpus.nix: {gpu_names@9.0}");
  try {
    q.finish();
    FAIL() << "no refusal";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "[layout.tables] lib/gpus.nix: {gpu_names@9.0} lands in Nix code, where its value \"H100, L40S\" "
              "cannot be written safely");
  }
}

TEST(WordQuoting, TheLanguageIsThePathsExtension) {
  EXPECT_EQ(language_of(".flox/pkgs/lib/gpus.nix"), TextLanguage::nix);
  EXPECT_EQ(language_of("docs/tables/vision-0.26-cuda-12.8.md"), TextLanguage::markdown);
  EXPECT_EQ(language_of("lib/gpus.json"), TextLanguage::other);
}

}  // namespace
}  // namespace tailor
