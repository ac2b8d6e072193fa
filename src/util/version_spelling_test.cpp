#include "util/version_spelling.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

// A version as trees spell it: without its dots, with underscores, cut to major.minor.
struct Spelled {
  const char* version;
  const char* nodot;
  const char* underscored;
  const char* major_minor;
};

TEST(VersionSpelling, EachSpellingOfAVersion) {
  for (const Spelled& s :
       {Spelled{"3.13", "313", "3_13", "3.13"}, Spelled{"9.0", "90", "9_0", "9.0"},
        Spelled{"0.26.0", "0260", "0_26_0", "0.26"}, Spelled{"2.10.0.post1", "2100post1", "2_10_0_post1", "2.10"},
        Spelled{"12", "12", "12", "12"}}) {
    EXPECT_EQ(nodot(s.version), s.nodot) << s.version;
    EXPECT_EQ(underscored(s.version), s.underscored) << s.version;
    EXPECT_EQ(major_minor_text(s.version), s.major_minor) << s.version;
  }
}

// The parsed release, for table lookups: a missing minor counts as 0, and what
// is not all decimal stays as written. On a plain dotted version it is the text cut.
TEST(VersionSpelling, MajorMinorParsesTheRelease) {
  EXPECT_EQ(major_minor("0.26.0"), "0.26");
  EXPECT_EQ(major_minor("2.11"), "2.11");
  EXPECT_EQ(major_minor("2"), "2.0");
  EXPECT_EQ(major_minor("2.10.0.post1"), "2.10.0.post1");
  for (const char* v : {"0.26.0", "2.11.1", "12.8", "575.51.03"}) EXPECT_EQ(major_minor(v), major_minor_text(v)) << v;
}

}  // namespace
}  // namespace tailor
