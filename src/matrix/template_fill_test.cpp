// The block markers of table and page templates ("{#version}", "{/sm}"): a marker
// alone on its line takes the line's end with it, so a block written on lines of
// its own leaves no empty line where it stood.
#include "matrix/template_fill.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(TemplateFill, AMarkerAloneOnItsLineTakesTheLinesEnd) {
  const std::string_view t = "a\n{#sm}\nb {/sm}\n{/sm}";
  EXPECT_EQ(find_marker(t, "{#sm}", 0), (std::pair<size_t, size_t>{2, 8}));     // its line's end too
  EXPECT_EQ(find_marker(t, "{/sm}", 0), (std::pair<size_t, size_t>{10, 15}));   // text before it on the line
  EXPECT_EQ(find_marker(t, "{/sm}", 11), (std::pair<size_t, size_t>{16, 21}));  // the last line: no line end
  EXPECT_EQ(find_marker(t, "{#cuda}", 0).first, std::string_view::npos);
  EXPECT_EQ(marker_end("{#sm}\nx", 0, 5), 6u);
  EXPECT_EQ(marker_end("x{#sm}\n", 1, 6), 6u);
}

}  // namespace
}  // namespace tailor
