// The tree as check reads it: a file that does not parse is a TLR001 finding
// unless it ignores that rule, and reading the files as they are parsed
// (check_tree) finds what reading them first (read_tree) finds.
#include "lint/findings.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lint/linter.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

// The recipe tree keeps the syntax error; the linter makes it TLR001.
TEST(LintTree, ASyntaxErrorIsTLR001UnlessTheFileIgnoresIt) {
  std::vector<Problem> problems;
  LintTree t = make_tree(
      "t",
      {{"a.nix", "{ a = ; }\n"}, {"b.nix", "# tailor: ignore TLR001 kept broken\n{ b = ; }\n"}, {"c.nix", "{ }\n"}},
      embedded_kb(), problems);
  ASSERT_EQ(t.nix.size(), 3u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].rule->code, "TLR001");
  EXPECT_EQ(problems[0].path, "t/a.nix");
  EXPECT_EQ(problems[0].rel, "a.nix");
  EXPECT_EQ(problems[0].pos.line, 1);
  ASSERT_TRUE(t.nix[0].syntax_error);
  EXPECT_EQ(problems[0].message, t.nix[0].syntax_error->message);
  EXPECT_TRUE(t.nix[1].syntax_error);
  EXPECT_EQ(t.ignores_of(t.nix[1]).codes, std::set<std::string>{"TLR001"});
  EXPECT_TRUE(t.ignores_of(t.nix[2]).codes.empty());
}

// Ignores are read from a file's comments, by rule code or name; a code that
// names no rule is kept apart (TLR025 reports it), and the reason ends the list.
TEST(LintTree, IgnoresNameRulesByCodeOrName) {
  std::vector<Problem> problems;
  LintTree t = make_tree("t", {{"a.nix", "# tailor: ignore TLR005, syntax, TLR999 because TLR002\n{ }\n"}},
                         embedded_kb(), problems);
  ASSERT_EQ(t.nix.size(), 1u);
  const Ignores& i = t.ignores_of(t.nix[0]);
  EXPECT_EQ(i.codes, (std::set<std::string>{"TLR001", "TLR005"}));
  ASSERT_EQ(i.unknown.size(), 1u);
  EXPECT_EQ(i.unknown[0].text, "TLR999");
  NixFile copy = t.nix[0];  // not a file of t: ignores nothing
  EXPECT_TRUE(t.ignores_of(copy).codes.empty());
}

// check_tree reads each recipe as it parses it; check_files gets them read.
TEST(ReadTree, ReadingWhileParsingFindsWhatReadingFirstFinds) {
  const KnowledgeBase kb = KnowledgeBase::load();
  for (const std::string tree : {"tests/data/trees/flox-catalog", "tests/data/check/gpu-targets/bad"}) {
    std::string dir = test::source_path(tree);
    CheckResult streamed = check_tree(dir, kb), read_first = check_files(dir, read_tree(dir), kb);
    ASSERT_GT(streamed.problems.size(), 0u) << tree;
    EXPECT_EQ(render_text(streamed), render_text(read_first)) << tree;
  }
}

// Issue 46 #2: each finding read its line by scanning the file from the top, and each pin was
// looked up among all found before: 40 s for a 17 MB file. The line is now read from an index
// built once; what it reads must stay the finding's own line, to the last one of a big file.
TEST(Sink, EveryFindingOfAFileWithThousandsShowsItsOwnLine) {
  constexpr int kEntries = 3000;
  std::string text = "{\n";
  for (int i = 0; i < kEntries; ++i)
    text += fmt::format(
        "  a{} = builtins.fetchTarball {{ url = \"https://github.com/NixOS/nixpkgs/archive/{:040x}.tar.gz\"; }};\n", i,
        i);
  text += "}";  // no newline after the last line
  CheckResult r = check_files("t", {{"default.nix", text}}, embedded_kb());
  std::map<std::string, int> per_rule;
  for (const auto& p : r.problems) {
    ++per_rule[std::string(p.rule->code)];
    ASSERT_GE(p.pos.line, 1);
    ASSERT_LE(p.pos.line, kEntries + 2);
    const int i = p.pos.line - 2;
    const std::string want = p.pos.line == 1              ? "{"
                             : p.pos.line == kEntries + 2 ? "}"
                                                          : fmt::format(
                                                                "  a{} = builtins.fetchTarball {{ url = "
                                                                "\"https://github.com/NixOS/nixpkgs/archive/"
                                                                "{:040x}.tar.gz\"; }};",
                                                                i, i);
    ASSERT_EQ(p.line_text, want) << p.render();
  }
  // One unknown pin and one nixpkgs fetch without a hash (TLR005) per entry.
  EXPECT_EQ(per_rule["TLR006"], kEntries);
  EXPECT_EQ(per_rule["TLR005"], kEntries);
}

}  // namespace
}  // namespace tailor::lint
