// inspect --svg beyond its first bytes: one bar per architecture the fixture
// carries and one for the rest, whose byte counts add up to the file, drawn
// to scale, in a document whose elements are closed and whose size holds
// every row.
#include "inspect/inspection_svg.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "support/paths.hpp"

namespace tailor {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

struct Row {
  int width = 0;
  uint64_t bytes = 0;
};

TEST(InspectionSvg, BarsAddUpToTheFileAndAreDrawnToScale) {
  const std::string path = test::source_dir() + "/tests/data/elf/multi.so";
  const std::string svg = to_svg(inspect_path(path));

  // Every element it opens it closes.
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")) << svg.substr(0, 60);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_EQ(count(svg, "<title>"), count(svg, "</title>"));
  EXPECT_EQ(count(svg, "<title>"), count(svg, "</rect>"));

  // The bars: label, width and bytes of each.
  static const std::regex bar(
      R"re(<rect x="150" y="\d+" width="(\d+)" height="20" fill="#[0-9a-f]{6}"><title>([^:<]+): (\d+) bytes</title></rect>)re");
  std::map<std::string, Row> rows;
  for (std::sregex_iterator it(svg.begin(), svg.end(), bar), end; it != end; ++it)
    rows[(*it)[2]] = {std::stoi((*it)[1]), std::stoull((*it)[3])};
  // multi.so carries SASS for sm_75, 80, 86, 90, 100 and 120 and PTX for
  // compute_120 (tests/data/elf/README.md, its build line).
  std::map<std::string, Row> want_labels = {{"sm_75", {}},       {"sm_80", {}},          {"sm_86", {}},
                                            {"sm_90", {}},       {"sm_100", {}},         {"sm_120", {}},
                                            {"compute_120", {}}, {"outside fatbins", {}}};
  ASSERT_EQ(rows.size(), want_labels.size()) << svg;
  uint64_t sum = 0, max = 0;
  for (const auto& [label, row] : rows) {
    EXPECT_TRUE(want_labels.count(label)) << label;
    EXPECT_GT(row.bytes, 0u) << label;
    sum += row.bytes;
    max = std::max(max, row.bytes);
  }
  // The bars are all of the file but the headers of its three fatbin containers (16 bytes each).
  EXPECT_EQ(std::filesystem::file_size(path) - sum, 3u * 16);
  for (const auto& [label, row] : rows) {
    EXPECT_EQ(row.width, static_cast<int>(static_cast<double>(row.bytes) * 520 / static_cast<double>(max))) << label;
  }

  // The canvas holds the title, the rows and the legend: 64 + 26 per row + 40.
  const int height = 64 + 26 * static_cast<int>(rows.size()) + 40;
  EXPECT_NE(svg.find(" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 860 " + std::to_string(height) + "\""),
            std::string::npos)
      << svg.substr(0, 200);
}

}  // namespace
}  // namespace tailor
