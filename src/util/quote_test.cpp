// Quoting for each language tailor writes, checked two ways: the exact text
// (written by hand from each language's rules), and a round trip through the
// language's real reader (nix-instantiate, toml++, PyYAML, /bin/sh), which
// must give back the original string.
#include "util/quote.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "support/run.hpp"

namespace tailor {
namespace {

// Strings that break naive quoting somewhere.
const std::vector<std::string> kAwkward = {
    "plain",       "x\"y",      "back\\slash", "${interp}", "$",         "$${x}",  "a$",     "''",
    "line\nbreak", "tab\there", "cr\rhere",    "ml: prod",  "# comment", "yes",    "No",     "null",
    "123",         "1.5",       " lead",       "trail ",    "it's",      "-dash",  "a|b",    "`tick`",
    "é ü ✓",       "ctl\x01x",  "del\x7f",     "",          "[x]",       "{a: b}", "*ref",   "&anchor",
    "!tag",        "%dir",      "@at",         "~",         "a,b",       "? q",    "\\${x}", "\xc2\x85nel"};

TEST(Quote, NixStringByHand) {
  EXPECT_EQ(nix_string("x\"y"), "\"x\\\"y\"");
  EXPECT_EQ(nix_string("${a}"), "\"\\${a}\"");
  EXPECT_EQ(nix_string("$a"), "\"$a\"");
  EXPECT_EQ(nix_string("a\\b\n"), "\"a\\\\b\\n\"");
}

TEST(Quote, NixAttrNameByHand) {
  EXPECT_EQ(nix_attr_name("x86_64-linux"), "x86_64-linux");
  EXPECT_EQ(nix_attr_name("it's"), "it's");
  EXPECT_EQ(nix_attr_name("in"), "\"in\"");
  EXPECT_EQ(nix_attr_name("3d"), "\"3d\"");
  EXPECT_EQ(nix_attr_name("a b"), "\"a b\"");
  EXPECT_EQ(nix_attr_name(""), "\"\"");
}

// nix-instantiate evaluates an attribute set built from every awkward string,
// as names and as values, and prints it as JSON: the strings come back.
TEST(Quote, NixRoundTripsThroughNixInstantiate) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("quote-nix");
  std::string expr = "{\n";
  nlohmann::json expected = nlohmann::json::object();
  for (size_t i = 0; i < kAwkward.size(); ++i) {
    std::string name = kAwkward[i].empty() ? "empty" : kAwkward[i];
    if (kAwkward[i].find('\x7f') != std::string::npos || kAwkward[i].find('\x01') != std::string::npos) continue;
    expr += "  " + nix_attr_name(name) + " = " + nix_string(kAwkward[i]) + ";\n";
    expected[name] = kAwkward[i];
  }
  expr += "}\n";
  std::ofstream(dir.path() + "/e.nix") << expr;
  auto r = test::run_command("nix-instantiate --eval --strict --json " + dir.path() + "/e.nix 2>/dev/null");
  ASSERT_EQ(r.status, 0) << r.out << expr;
  EXPECT_EQ(nlohmann::json::parse(r.out), expected);
}

TEST(Quote, TomlByHand) {
  EXPECT_EQ(toml_string("x\"y"), "\"x\\\"y\"");
  EXPECT_EQ(toml_string("a\x01"), "\"a\\u0001\"");
  EXPECT_EQ(toml_string("del\x7f"), "\"del\\u007F\"");
  EXPECT_EQ(toml_key("pytorch-python313-cpu-avx2"), "pytorch-python313-cpu-avx2");
  EXPECT_EQ(toml_key("a.b"), "\"a.b\"");
}

// UTF-8 by the Unicode standard's table of well-formed byte sequences (Table 3-7).
TEST(Quote, Utf8ByHand) {
  for (std::string ok :
       {"", "v2.10.0", "caf\xc3\xa9", "\xe2\x80\x94", "\xed\x9f\xbf", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"})
    EXPECT_TRUE(is_utf8(ok)) << ok;
  for (std::string bad : {"\xff", "v2.\xff", "\xc0\xaf", "\xc3", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xe2\x28\xa1", "\x80", "\xf0\x9f\x98"})
    EXPECT_FALSE(is_utf8(bad)) << bad;
}

TEST(Quote, TomlRoundTripsThroughTomlPlusPlus) {
  for (const auto& s : kAwkward) {
    std::string doc = "v = " + toml_string(s) + "\n" + toml_key(s) + " = 1\n";
    toml::parse_result parsed = toml::parse(doc);  // built without exceptions
    if (!parsed) {
      ADD_FAILURE() << "not TOML: " << doc << parsed.error().description();
      continue;
    }
    const toml::table& t = parsed.table();
    EXPECT_EQ(t["v"].value<std::string>(), s) << doc;
    EXPECT_TRUE(t.contains(s)) << doc;
  }
}

TEST(Quote, YamlByHand) {
  EXPECT_EQ(yaml_scalar("build main"), "build main");
  EXPECT_EQ(yaml_scalar("pytorch-python313-cpu-avx2"), "pytorch-python313-cpu-avx2");
  EXPECT_EQ(yaml_scalar("ml: prod"), "\"ml: prod\"");
  EXPECT_EQ(yaml_scalar("yes"), "\"yes\"");
  EXPECT_EQ(yaml_scalar("123"), "\"123\"");
  EXPECT_EQ(yaml_scalar("a\nb"), "\"a\\nb\"");
}

// PyYAML reads a list of every awkward string back, each as a string.
TEST(Quote, YamlRoundTripsThroughPyYaml) {
  TAILOR_SKIP_IF_TOOL_MISSING(test::run_command("python3 -c 'import yaml'").status != 0,
                              "python3-yaml is not installed");
  test::TempDir dir("quote-yaml");
  std::string doc = "items:\n";
  for (const auto& s : kAwkward) doc += "  - " + yaml_scalar(s) + "\n";
  std::ofstream(dir.path() + "/d.yml") << doc;
  auto r =
      test::run_command("python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' " +
                            dir.path() + "/d.yml",
                        true);
  ASSERT_EQ(r.status, 0) << r.out << doc;
  EXPECT_EQ(nlohmann::json::parse(r.out)["items"], nlohmann::json(kAwkward)) << doc;
}

TEST(Quote, ShellByHand) {
  EXPECT_EQ(shell_word("examples/main.toml"), "examples/main.toml");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word(""), "''");
  EXPECT_EQ(shell_word("a b"), "'a b'");
}

// /bin/sh prints each word back unchanged (NUL cannot be an argument).
TEST(Quote, ShellRoundTripsThroughSh) {
  for (const auto& s : kAwkward) {
    auto r = test::run_command("printf %s " + shell_word(s));
    EXPECT_EQ(r.out, s) << shell_word(s);
  }
}

TEST(Quote, MarkdownByHand) {
  EXPECT_EQ(markdown_code("main"), "`main`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x`"), "`` `x` ``");
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
}

// A row of cells keeps its column count whatever the cells hold: the only
// unescaped pipes are the separators.
TEST(Quote, MarkdownCellsKeepTheirColumns) {
  for (const auto& s : kAwkward) {
    std::string row = "| " + markdown_cell(s) + " | " + markdown_cell(markdown_code(s)) + " |";
    EXPECT_EQ(row.find('\n'), std::string::npos) << row;
    int separators = 0;
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i] == '\\')
        ++i;
      else if (row[i] == '|')
        ++separators;
    }
    EXPECT_EQ(separators, 3) << row;
  }
}

TEST(Quote, CommentTextStaysOnOneLine) {
  EXPECT_EQ(comment_text("a\nb\rc\x01"
                         "d"),
            "a b c d");
  EXPECT_EQ(comment_text("spec: x # y"), "spec: x # y");
}

}  // namespace
}  // namespace tailor
