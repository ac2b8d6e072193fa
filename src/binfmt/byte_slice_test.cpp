#include "binfmt/byte_slice.hpp"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "support/error_of.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

using test::error_of;

TEST(ByteSlice, ReadsBothByteOrders) {
  const uint8_t b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  ByteSlice s(b, sizeof b);
  EXPECT_EQ(s.read_le<uint32_t>(0, "x"), 0x04030201u);
  EXPECT_EQ(s.read_be<uint32_t>(0, "x"), 0x01020304u);
  EXPECT_EQ(s.read_le<uint64_t>(0, "x"), 0x0807060504030201ull);
  EXPECT_EQ(s.read_be<uint16_t>(6, "x"), 0x0708u);
}

TEST(ByteSlice, OutOfRangeReadsThrowWithAbsoluteOffsets) {
  const uint8_t b[16] = {};
  ByteSlice whole(b, sizeof b);
  ByteSlice tail = whole.sub(8, 8, "tail");
  EXPECT_EQ(tail.base(), 8u);
  EXPECT_EQ(error_of([&] { tail.read_le<uint64_t>(4, "entry size"); }),
            "truncated or corrupt input: entry size at offset 0xc needs 8 bytes, only 4 remain");
  EXPECT_EQ(error_of([&] { tail.sub(9, 0, "entry"); }),
            "truncated or corrupt input: entry starts at offset 0x11, past the end (0x10)");
  // An offset that would wrap around must not pass the bounds check.
  EXPECT_NE(error_of([&] { whole.sub(std::numeric_limits<uint64_t>::max(), 2, "wrap"); }), "(no error)");
  EXPECT_EQ(whole.sub(16, 0, "empty").size(), 0u);
}

TEST(ByteSlice, CheckedArithmetic) {
  constexpr uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(checked_add(1, 2, "x"), 3u);
  EXPECT_EQ(error_of([] { checked_add(max, 1, "container"); }), "container: offset arithmetic overflows");
  EXPECT_EQ(error_of([] { checked_mul(max / 2, 3, "table"); }), "table: size arithmetic overflows");
  EXPECT_EQ(checked_align_up(9, 8, "x"), 16u);
  EXPECT_EQ(checked_align_up(16, 8, "x"), 16u);
  EXPECT_NE(error_of([] { checked_align_up(max - 2, 8, "pad"); }), "(no error)");
}

TEST(ByteSlice, CStringNeedsItsTerminator) {
  std::string text("abc\0de\0", 7);
  ByteSlice s = ByteSlice::of(text);
  EXPECT_EQ(s.cstring(0, "name"), "abc");
  EXPECT_EQ(s.cstring(4, "name"), "de");
  EXPECT_EQ(s.cstring(3, "name"), "");
  std::string unterminated = "abc";
  EXPECT_EQ(error_of([&] { ByteSlice::of(unterminated).cstring(1, "name of section 3"); }),
            "truncated or corrupt input: name of section 3 at offset 0x1 is not NUL-terminated");
  EXPECT_NE(error_of([&] { ByteSlice::of(unterminated).cstring(3, "name"); }), "(no error)");
  EXPECT_NE(error_of([&] { ByteSlice::of(unterminated).cstring(4, "name"); }), "(no error)");
}

}  // namespace
}  // namespace tailor
