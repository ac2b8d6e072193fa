// The one engine that reads a team's text back into words: values by hand.
#include "import/put_back.hpp"

#include <cctype>

#include <gtest/gtest.h>

namespace tailor {
namespace {

// A value stands alone where no digit is beside it.
bool no_digit_beside(const std::string& t, size_t at, size_t end) {
  return (at == 0 || !std::isdigit(static_cast<unsigned char>(t[at - 1]))) &&
         (end >= t.size() || !std::isdigit(static_cast<unsigned char>(t[end])));
}

TEST(PutBack, PutsEachValueBackWhereItStandsAlone) {
  EXPECT_EQ(put_back("sm = \"90\"; cap = 900; arch = sm90", {{"{sm_nodot}", "90"}}, no_digit_beside),
            "sm = \"{sm_nodot}\"; cap = 900; arch = sm{sm_nodot}");
}

TEST(PutBack, TextPutBackForAWordIsNeverReadAgain) {
  // "12_8" first: its "12" is no CUDA major; the place "{cuda_underscore}" holds no "12" to find either.
  EXPECT_EQ(put_back("cuda12_8 with 12", {{"{cuda_underscore}", "12_8"}, {"{cuda_major}", "12"}},
                     [](const std::string&, size_t, size_t) { return true; }),
            "cuda{cuda_underscore} with {cuda_major}");
  // A place that itself holds a later value is not read for it.
  EXPECT_EQ(put_back("v1 v2", {{"{x2}", "1"}, {"{y}", "2"}}, [](const std::string&, size_t, size_t) { return true; }),
            "v{x2} v{y}");
}

TEST(PutBack, AnEmptyValueIsNeverPutBack) {
  EXPECT_EQ(put_back("a b", {{"{w}", ""}}, [](const std::string&, size_t, size_t) { return true; }), "a b");
}

}  // namespace
}  // namespace tailor
