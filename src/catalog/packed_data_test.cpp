#include "catalog/packed_data.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(PackedData, Base64OfZlibByHand) {
  // zlib of "" at level 9 is 78 DA 03 00 00 00 00 01 (header, empty block, Adler-32 of nothing).
  EXPECT_EQ(pack_for_page(""), "eNoDAAAAAAE=");
  EXPECT_EQ(unpack_from_page("eNoDAAAAAAE="), "");
}

TEST(PackedData, RoundTripsAndShrinksRepetition) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "GPU: no CUDA variant runs on GPU 0 (Volta GPU) (SM 7.0, driver 570.26); ";
  std::string packed = pack_for_page(text);
  EXPECT_LT(packed.size(), text.size() / 20);
  EXPECT_EQ(packed.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n"),
            std::string::npos);
  EXPECT_EQ(unpack_from_page(packed), text);
  EXPECT_THROW(unpack_from_page("not base64!"), std::runtime_error);
  EXPECT_THROW(unpack_from_page("AAAA"), std::runtime_error);
}

}  // namespace
}  // namespace tailor
