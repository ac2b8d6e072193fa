#include "util/formats_to.hpp"

#include <string>

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(FormatsTo, EqualOnlyToWhatTheFormatPrints) {
  EXPECT_TRUE(formats_to("cuda12_9", "cuda{}_{}", 12, 9));
  EXPECT_FALSE(formats_to("cuda12_9", "cuda{}_{}", 12, 90));
  EXPECT_FALSE(formats_to("cuda12_", "cuda{}_{}", 12, 9));
  EXPECT_TRUE(formats_to("", "{}", ""));
  // Longer than the buffer on the stack: still compared whole.
  std::string long_text(100, 'x');
  EXPECT_TRUE(formats_to(long_text, "{}", long_text));
  EXPECT_FALSE(formats_to(long_text.substr(0, 64), "{}", long_text));
  EXPECT_FALSE(formats_to(long_text + "y", "{}", long_text));
}

}  // namespace
}  // namespace tailor
