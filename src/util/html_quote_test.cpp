#include "util/html_quote.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(HtmlQuote, TextEscapesMarkupAndBothQuotes) {
  EXPECT_EQ(html_text("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(html_text("plain text, é"), "plain text, é");
  // A file name with a newline or a tab: XML (inspect's SVG) forbids control characters.
  EXPECT_EQ(html_text("lib\nfoo\t.so"), "lib?foo?.so");
}

}  // namespace
}  // namespace tailor
