#include "repin/toml_strings.hpp"

#include <gtest/gtest.h>

namespace tailor::repin {
namespace {

std::vector<std::string> strings(std::string_view t) {
  std::vector<std::string> out;
  for (auto [b, e] : toml_string_ranges(t)) out.emplace_back(t.substr(b, e - b));
  return out;
}

TEST(TomlStrings, ContentsOfEveryKindAndNeverComments) {
  EXPECT_EQ(
      strings(
          "# \"not\" a string\na = \"x\\\"y\" # 'nor' this\nb = 'lit'\nc = \"\"\"multi\nline\"\"\"\nd = '''raw'''\n"),
      (std::vector<std::string>{"x\\\"y", "lit", "multi\nline", "raw"}));
  EXPECT_EQ(strings("\"quoted key\" = 1\ne = \"unterminated\nf = 2"),
            (std::vector<std::string>{"quoted key", "unterminated"}));
}

}  // namespace
}  // namespace tailor::repin
