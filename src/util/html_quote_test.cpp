#include "util/html_quote.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(HtmlQuote, TextEscapesMarkupAndBothQuotes) {
  EXPECT_EQ(html_text("<a href=\"x\">Tom & Jerry's</a>"), "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(html_text("plain text, é"), "plain text, é");
}

TEST(HtmlQuote, ScriptJsonCannotCloseTheElement) {
  EXPECT_EQ(script_json(R"({"a":"</script><!--x"})"), R"({"a":"\u003c/script>\u003c!--x"})");
  EXPECT_EQ(script_json(R"({"b":"a > b"})"), R"({"b":"a > b"})");
}

}  // namespace
}  // namespace tailor
