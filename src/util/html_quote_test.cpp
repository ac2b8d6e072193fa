#include "util/html_quote.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(HtmlQuote, TextEscapesMarkupAndBothQuotes) {
  EXPECT_EQ(html_text("<a href=\"x\">Tom & Jerry's</a>"), "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(html_text("plain text, é"), "plain text, é");
}

}  // namespace
}  // namespace tailor
