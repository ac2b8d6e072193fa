// The zip module's writer and reader against each other and against an
// archive written out by hand from APPNOTE.TXT (4.3.7 local header, 4.3.12
// central header, 4.3.16 end record), byte by byte.
#include "binfmt/zip.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <vector>

#include "binfmt/wheel.hpp"

namespace tailor {
namespace {

// The empty raw deflate stream: one final fixed-Huffman block holding only its end code.
const uint8_t kEmptyDeflate[] = {0x03, 0x00};

// What \a write puts in a fresh archive, read back whole.
template <class Write>
std::vector<uint8_t> written(Write&& write) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  ZipWriter zip(fileno(f), "test.whl");
  write(zip);
  zip.finish();
  std::vector<uint8_t> out(zip.written());
  EXPECT_EQ(::pread(fileno(f), out.data(), out.size(), 0), static_cast<ssize_t>(out.size()));
  std::fclose(f);
  return out;
}

WheelMember file_like() {
  WheelMember like;
  like.external_attributes = 0100644u << 16;  // a regular file, rw-r--r--
  return like;
}

TEST(Zip, WriterGivesTheBytesTheFormatSays) {
  std::vector<uint8_t> got =
      written([](ZipWriter& zip) { zip.add_packed("a", ByteSlice(kEmptyDeflate, 2), 0, 0, file_like()); });
  const std::vector<uint8_t> expected = {
      // local header at 0
      0x50, 0x4b, 0x03, 0x04,  // signature
      0x14, 0x00,              // version needed: 2.0
      0x00, 0x08,              // flags: bit 11, UTF-8 names
      0x08, 0x00,              // method: deflate
      0x00, 0x00, 0x21, 0x00,  // time 00:00, date 1980-01-01
      0x00, 0x00, 0x00, 0x00,  // CRC-32 of no bytes
      0x02, 0x00, 0x00, 0x00,  // compressed size
      0x00, 0x00, 0x00, 0x00,  // size
      0x01, 0x00, 0x00, 0x00,  // name length, extra length
      'a',                     // name
      0x03, 0x00,              // data
      // central header at 33
      0x50, 0x4b, 0x01, 0x02,                                                  // signature
      0x14, 0x03,                                                              // made by: Unix, 2.0
      0x14, 0x00, 0x00, 0x08, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00,              // needed, flags, method, time, date
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // CRC-32, sizes
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00,                                      // name, extra, comment lengths
      0x00, 0x00, 0x00, 0x00,                                                  // disk, internal attributes
      0x00, 0x00, 0xa4, 0x81,  // external attributes: mode 0100644 << 16
      0x00, 0x00, 0x00, 0x00,  // local header offset
      'a',
      // end record at 80
      0x50, 0x4b, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00,  // signature, disk numbers
      0x01, 0x00, 0x01, 0x00,                          // entries on this disk, in all
      0x2f, 0x00, 0x00, 0x00,                          // directory size: 47
      0x21, 0x00, 0x00, 0x00,                          // directory offset: 33
      0x00, 0x00,                                      // comment length
  };
  EXPECT_EQ(got, expected);
}

TEST(Zip, WhatTheWriterWritesTheReaderReadsBack) {
  std::vector<uint8_t> got = written([](ZipWriter& zip) {
    zip.add_packed("a", ByteSlice(kEmptyDeflate, 2), 0, 0, file_like());
    // Streamed: the compressed size is written back into the local header at the end.
    zip.begin_packed("torch/lib/b.so", 0, 0, file_like());
    zip.append_packed(ByteSlice(kEmptyDeflate, 1));
    zip.append_packed(ByteSlice(kEmptyDeflate + 1, 1));
    EXPECT_EQ(zip.end_packed(), 2u);
  });
  ByteSlice data(got.data(), got.size());
  EXPECT_TRUE(starts_like_zip(data));
  auto end = find_zip_end(data);
  ASSERT_TRUE(end);
  std::vector<WheelMember> members = read_zip_directory(data, *end);
  WheelMember a = file_like(), b = file_like();
  a.name = "a";
  b.name = "torch/lib/b.so";
  a.method = b.method = 8;
  a.compressed_size = b.compressed_size = 2;
  a.version_made_by = b.version_made_by = 0x0314;
  b.local_header_offset = 30 + 1 + 2;
  EXPECT_EQ(members, (std::vector<WheelMember>{a, b}));
  for (const auto& m : members) {
    ByteSlice stored = zip_member_data(data, m);
    EXPECT_EQ(std::vector<uint8_t>(stored.data(), stored.data() + stored.size()), std::vector<uint8_t>({0x03, 0x00}));
  }
  // And as a wheel: each member inflates to its (empty) bytes, its CRC-32 checked.
  auto wheel = try_open_wheel(data);
  ASSERT_TRUE(wheel);
  EXPECT_TRUE(wheel->read(wheel->members[1]).empty());
}

}  // namespace
}  // namespace tailor
