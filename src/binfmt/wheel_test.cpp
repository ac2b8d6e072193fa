#include "binfmt/wheel.hpp"

#include <zlib.h>

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/error_of.hpp"
#include "support/golden.hpp"
#include "support/zip_builder.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

std::vector<uint8_t> raw_deflate(const std::string& s) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> out(deflateBound(&z, s.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

struct Member {
  std::string name;
  std::string content;
  uint16_t method;
};

// A zip archive as Python's zipfile writes it (no data descriptors).
std::vector<uint8_t> zip(const std::vector<Member>& members) {
  std::vector<test::ZipMember> packed;
  for (const auto& m : members)
    packed.push_back({m.name,
                      m.method == 8 ? raw_deflate(m.content) : std::vector<uint8_t>(m.content.begin(), m.content.end()),
                      static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(m.content.data()),
                                                  static_cast<uInt>(m.content.size()))),
                      m.content.size(), m.method});
  return test::zip_archive(packed);
}

std::string text(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

using test::error_of;

TEST(Wheel, ReadsStoredAndDeflatedMembers) {
  std::string big(100000, 'x');
  auto bytes = zip({{"pkg/a.txt", "hello", 0}, {"pkg/lib/big.so", big, 8}, {"pkg/", "", 0}});
  auto w = try_open_wheel(ByteSlice(bytes.data(), bytes.size()));
  ASSERT_TRUE(w);
  ASSERT_EQ(w->members.size(), 3u);
  EXPECT_EQ(w->members[1].name, "pkg/lib/big.so");
  EXPECT_EQ(w->members[1].method, 8);
  EXPECT_LT(w->members[1].compressed_size, 1000u);
  EXPECT_EQ(text(w->read(w->members[0])), "hello");
  EXPECT_EQ(text(w->read(w->members[1])), big);
  EXPECT_EQ(text(w->read_prefix(w->members[1], 4)), "xxxx");
  EXPECT_TRUE(w->members[2].is_directory());
}

// What a zip allows and a wheel must not carry: refused when the wheel is opened,
// before any member is inflated.
TEST(Wheel, DuplicateOutsideAndOverlappingMembersAreRefused) {
  auto open = [](const std::vector<uint8_t>& z) {
    return error_of([&] { try_open_wheel(ByteSlice(z.data(), z.size())); });
  };
  EXPECT_EQ(open(zip({{"pkg/a.so", "one", 0}, {"pkg/b.so", "two", 0}, {"pkg/a.so", "three", 0}})),
            "not a usable wheel: two members named 'pkg/a.so'");
  EXPECT_EQ(open(zip({{"pkg/../../evil.so", "x", 0}})),
            "not a usable wheel: member 'pkg/../../evil.so' points outside the install folder");
  EXPECT_EQ(open(zip({{"/etc/evil", "x", 0}})),
            "not a usable wheel: member '/etc/evil' points outside the install folder");
  EXPECT_EQ(open(zip({{"pkg\\..\\evil", "x", 0}})),
            "not a usable wheel: member 'pkg\\..\\evil' points outside the install folder");
  // Names that only look alike stay: "..a", "a..", a folder member.
  EXPECT_EQ(open(zip({{"pkg/..a", "x", 0}, {"pkg/a..", "y", 0}, {"pkg/", "", 0}})), "(no error)");
  // Two central entries on one local body: the second entry's offset pointed at the first.
  auto two = zip({{"a.so", std::string(4000, 'z'), 8}, {"b.so", std::string(4000, 'z'), 8}});
  auto w = try_open_wheel(ByteSlice(two.data(), two.size()));
  ASSERT_TRUE(w);
  uint64_t dir = w->members[1].local_header_offset + 30 + 4 + w->members[1].compressed_size;
  test::Bytes b{two, false};
  b.put_at<uint32_t>(dir + 46 + 4 + 42, 0);  // the second central header's local header offset
  EXPECT_EQ(open(b.b), "corrupt zip archive: members 'a.so' and 'b.so' overlap (one stored body read as many)");
  // A symbolic link made on Unix (version made by 3.x, mode 0120777): its body is the target.
  auto link = zip({{"pkg/a.so", "one", 0}, {"pkg/evil.so", "/etc/passwd", 0}});
  test::Bytes l{link, false};
  uint64_t second = 46 + 8;  // the second central header: after the first's 46 bytes and name
  uint64_t central = link.size() - 22 - (2 * 46 + 8 + 11);
  l.put_at<uint16_t>(central + second + 4, (3 << 8) | 20);
  l.put_at<uint32_t>(central + second + 38, 0120777u << 16);
  EXPECT_EQ(open(l.b), "not a usable wheel: member 'pkg/evil.so' is a symbolic link");
  // The same mode from a maker that is not Unix (version made by 0.x) means nothing.
  l.put_at<uint16_t>(central + second + 4, 20);
  EXPECT_EQ(open(l.b), "(no error)");
}

TEST(Wheel, NotAZip) {
  std::string s =
      "\x7f"
      "ELF not a zip at all, long enough to hold an end record";
  EXPECT_FALSE(try_open_wheel(ByteSlice::of(s)));
}

TEST(Wheel, CorruptionIsDetected) {
  auto good = zip({{"a.so", std::string(5000, 'y') + "tail", 8}});
  // CRC mismatch: change the recorded CRC in the central directory.
  auto w = try_open_wheel(ByteSlice(good.data(), good.size()));
  WheelMember m = w->members[0];
  m.crc32 ^= 1;
  EXPECT_EQ(error_of([&] { w->read(m); }), "corrupt zip archive: CRC-32 mismatch in 'a.so'");
  // A size claim no deflate stream can reach.
  m = w->members[0];
  m.uncompressed_size = 1ull << 40;
  EXPECT_NE(error_of([&] { w->read(m); }).find("claims"), std::string::npos);
  // The stream ends before the claimed size.
  m = w->members[0];
  m.uncompressed_size += 10;
  EXPECT_NE(error_of([&] { w->read(m); }).find("inflates to"), std::string::npos);
  // The stream goes on past the claimed size (the whole-member inflater stops there).
  m = w->members[0];
  m.uncompressed_size -= 10;
  EXPECT_EQ(error_of([&] { w->read(m); }), "corrupt zip archive: cannot inflate 'a.so' (longer than its size)");
  // Garbage where the deflate stream should be: block type 3 does not exist.
  {
    test::Bytes g{good, false};
    ByteSlice body = w->stored(w->members[0]);
    g.b[body.base()] = 0xff;
    auto bad = try_open_wheel(ByteSlice(g.b.data(), g.size()));
    EXPECT_EQ(error_of([&] { bad->read(bad->members[0]); }),
              "corrupt zip archive: cannot inflate 'a.so' (invalid deflate data)");
  }
  // Unsupported method.
  m = w->members[0];
  m.method = 12;
  EXPECT_EQ(error_of([&] { w->read(m); }), "unsupported zip compression method 12 for 'a.so' (wheels use 0 or 8)");
  // Truncated archive: the end record is gone.
  auto cut = std::vector<uint8_t>(good.begin(), good.begin() + 40);
  EXPECT_EQ(error_of([&] { try_open_wheel(ByteSlice(cut.data(), cut.size())); }),
            "truncated zip archive: no end-of-central-directory record");
  // A member count the directory cannot hold.
  test::Bytes b{good, false};
  b.put_at<uint16_t>(good.size() - 22 + 10, 60000);
  EXPECT_NE(error_of([&] { try_open_wheel(ByteSlice(b.b.data(), b.size())); }).find("members claimed"),
            std::string::npos);
}

TEST(Wheel, RealFixtureWheel) {
  std::string bytes = test::read_file(test::source_path("tests/data/elf/fixture-0.1-cp313-cp313-linux_x86_64.whl"));
  auto w = try_open_wheel(ByteSlice::of(bytes));
  ASSERT_TRUE(w);
  std::vector<std::string> names;
  for (const auto& m : w->members) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fixture/lib/libmulti.so", "fixture/lib/libcpu.so",
                                             "fixture-0.1.dist-info/METADATA"}));
  // The member is byte-identical to the library it was made from (cuobjdump's multi.so).
  EXPECT_EQ(w->read(w->members[0]).size(), 1060056u);
  EXPECT_EQ(text(w->read(w->members[2])), "Metadata-Version: 2.1\nName: fixture\nVersion: 0.1\n");
}

}  // namespace
}  // namespace tailor
