// End-to-end: `tailor parse` output, diagnostics and exit status.
#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::test {
namespace {

TEST(CmdParse, PrintsNormalFormOfEachFile) {
  RunResult r =
      run_tailor({"parse", source_path("tests/nix_corpus/curpos.nix"), source_path("tests/nix_corpus/legacy.nix")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Checked against nix-instantiate --parse on the same two files.
  EXPECT_EQ(r.out,
            "{ a = __curPos; b = (builtins).true or (false); c = true; d = null; e = false; }\n"
            "(rec { body = { inherit x ; inherit y ; }; x = 1; y = (x + 1); }).body\n");
}

TEST(CmdParse, SyntaxErrorExitsTwoAndGoesOn) {
  RunResult r = run_tailor({"parse", "tests/nix_corpus/bad/missing_semicolon.nix", "tests/nix_corpus/curpos.nix"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "{ a = __curPos; b = (builtins).true or (false); c = true; d = null; e = false; }\n");
  EXPECT_EQ(r.err,
            "tests/nix_corpus/bad/missing_semicolon.nix:1:9: error: expected ';', got '}'\n"
            "{ a = 1 }\n"
            "        ^\n");
}

TEST(CmdParse, MissingFile) {
  RunResult r = run_tailor({"parse", "/nonexistent/x.nix"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "/nonexistent/x.nix: error: cannot read the file\n");
}

TEST(CmdParse, NeedsAFile) {
  RunResult r = run_tailor({"parse"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace tailor::test
