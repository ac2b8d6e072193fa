#include "util/diagnostic.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(Diagnostic, RendersPositionLineCaretAndHint) {
  std::string text = "[branch]\nisa = [\"avx2\", \"avx521\"]\n";
  Diagnostic d = diagnostic_at("spec.toml", text, Pos{2, 16}, "unknown ISA 'avx521'", "did you mean 'avx512'?");
  EXPECT_EQ(d.render(),
            "spec.toml:2:16: error: unknown ISA 'avx521'\n"
            "isa = [\"avx2\", \"avx521\"]\n"
            "               ^\n"
            "hint: did you mean 'avx512'?\n");
}

TEST(Diagnostic, CaretFollowsTabs) {
  Diagnostic d = diagnostic_at("f.nix", "\tx = 1;\n", Pos{1, 2}, "m");
  EXPECT_EQ(d.render(), "f.nix:1:2: error: m\n\tx = 1;\n\t^\n");
}

TEST(Diagnostic, WithoutPositionOrPath) {
  Diagnostic d;
  d.message = "unknown command 'matrx'";
  d.hint = "did you mean 'matrix'?";
  EXPECT_EQ(d.render(), "tailor: error: unknown command 'matrx'\nhint: did you mean 'matrix'?\n");
  d.path = "spec.toml";
  d.notes = {"a", "b"};
  d.hint.clear();
  EXPECT_EQ(d.render(), "spec.toml: error: unknown command 'matrx'\nnote: a\nnote: b\n");
}

TEST(Diagnostic, LineOfHandlesEdgesAndCrlf) {
  EXPECT_EQ(line_of("a\r\nb\n", 1), "a");
  EXPECT_EQ(line_of("a\nb", 2), "b");
  EXPECT_EQ(line_of("a\nb", 3), "");
  EXPECT_EQ(line_of("a", 0), "");
}

// Issue 46 #8: control characters and terminal escapes of the input were echoed raw.
TEST(Diagnostic, ControlCharactersOfTheInputAreShownNotRun) {
  Diagnostic d;
  d.path = "a\x1b[2Jb.nix";
  d.pos = {1, 4};
  d.line_text = "x\x1b[\tz\r";
  d.message = "unknown name 'q\x1b]0;owned\x07'";
  d.hint = std::string("did you mean 'p") + '\0' + "'?";
  d.notes = {"line one\nline two\x7f"};
  EXPECT_EQ(d.render(),
            "a\\x1b[2Jb.nix:1:4: error: unknown name 'q\\x1b]0;owned\\x07'\n"
            "x?[\tz?\n"
            "   ^\n"
            "hint: did you mean 'p\\x00'?\n"
            "note: line one\nline two\\x7f\n");
}

}  // namespace
}  // namespace tailor
