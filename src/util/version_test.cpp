#include "util/version.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

Version v(const char* s) { return *Version::parse(s); }

TEST(Version, ParsesAndComparesNumerically) {
  EXPECT_LT(v("12.8"), v("12.9"));
  EXPECT_LT(v("12.9"), v("12.10"));
  EXPECT_EQ(v("12.9"), v("12.9.0"));
  EXPECT_LT(v("575.51.03"), v("580.65.06"));
  EXPECT_LT(v("570.26"), v("570.86.10"));
  EXPECT_EQ(v("10.3").major(), 10);
  EXPECT_EQ(v("10.3").minor(), 3);
  EXPECT_EQ(v("2.9.1").str(), "2.9.1");
}

TEST(Version, RejectsMalformed) {
  for (const char* bad : {"", ".", "12.", ".8", "12..8", "12.8a", "v12", "1 2", "99999999"})
    EXPECT_FALSE(Version::parse(bad).has_value()) << bad;
}

}  // namespace
}  // namespace tailor
