// The closed sets of the data (an accelerator, a need strategy, a gpu_target
// strategy, a package scope, an OS, a build status, a verdict, an artifact
// kind) are enums parsed once where the data is read, each with one name
// table (util/enum_names.hpp). No code compares a field holding one of them
// with a string literal: that would spell the data's names a second time, and
// a renamed member would compile and silently never match. A template word is
// a row of the word table (matrix/template_words.cpp), asked for its fact: no
// code compares a text with a word's name either.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/source_scan.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// "LINE: TEXT" of each line of \a text that compares a closed-set field with a
// string literal, either way round: `p.os == "darwin"`, `"cuda" != v.backend`.
std::vector<std::string> closed_set_comparisons(const std::string& text) {
  static const std::string field = R"((?:strategy|status|os|gpu_target|accelerator|backend|kind|verdict|scope))";
  static const std::regex field_first(R"(\b)" + field + R"(\s*[!=]=\s*")");
  static const std::regex literal_first(R"("\s*[!=]=\s*[\w.>\-]*\b)" + field + R"(\b(?!\s*\())");
  std::vector<std::string> out;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (std::regex_search(line, field_first) || std::regex_search(line, literal_first))
      out.push_back(std::to_string(n) + ": " + line);
  }
  return out;
}

TEST(ClosedSets, TheScannerFindsAComparisonEitherWayRound) {
  EXPECT_EQ(closed_set_comparisons("  if (platform.os == \"darwin\") {\n"
                                   "  bool gpu = \"cuda\" != v.backend;\n"
                                   "  ok = r.status==\"succeeded\";\n"),
            (std::vector<std::string>{"1:   if (platform.os == \"darwin\") {", "2:   bool gpu = \"cuda\" != v.backend;",
                                      "3:   ok = r.status==\"succeeded\";"}));
  // Other names, and the typed comparison, are not the scanner's business.
  EXPECT_TRUE(closed_set_comparisons("  if (spec == \"none\") return r;\n"
                                     "  if (platform.os == Os::darwin) {\n"
                                     "  if (cosine == \"x\") {}\n"
                                     "  std::string macos = \"darwin\";\n")
                  .empty());
}

TEST(ClosedSets, NoSourceComparesAFieldOfOneWithAString) {
  std::vector<std::string> found;
  auto all = test::sources("");
  for (const auto& [path, text] : all)
    for (const auto& hit : closed_set_comparisons(text)) found.push_back(path + ":" + hit);
  EXPECT_GT(all.size(), 300u) << "the scan found too few sources to mean anything";
  EXPECT_EQ(found, std::vector<std::string>{})
      << "compare with the enum (util/enum_names.hpp tables) instead of the data's spelling";
}

// The names of the word table's rows, read from its source ({"sm_nodot", scopes(…)…}): the
// names a template may write ("*" rows, the paired package's, are the data's).
std::vector<std::string> word_names() {
  std::ifstream in(test::source_path("src/matrix/template_words.cpp"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex row(R"re(\{"([a-z_0-9]+)",\s*scopes\()re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

TEST(ClosedSets, NoSourceComparesATextWithATemplateWordsName) {
  std::vector<std::string> names = word_names();
  EXPECT_GT(names.size(), 50u) << "the word table's rows were not found";
  // Names without '_' ("sm", "cuda", "version") are also an axis's or a block's: the distinct ones.
  std::string alternatives;
  for (const auto& n : names)
    if (n.find('_') != std::string::npos) alternatives += (alternatives.empty() ? "" : "|") + n;
  std::regex compared(R"re([!=]=\s*"()re" + alternatives + R"re()"|"()re" + alternatives + R"re()"\s*[!=]=)re");
  EXPECT_EQ(test::matching_lines("", compared), std::vector<std::string>{})
      << "ask the word table for the word's fact (template_words.hpp)";
}

}  // namespace
}  // namespace tailor
