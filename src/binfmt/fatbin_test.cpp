#include "binfmt/fatbin.hpp"

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/error_of.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

using test::EntrySpec;
using test::fatbin_container;

std::vector<uint8_t> concat(std::initializer_list<std::vector<uint8_t>> parts, size_t align = 8) {
  test::Bytes b;
  for (const auto& p : parts) {
    b.append(p);
    b.pad_to(align);
  }
  return b.b;
}

Fatbin walk(const std::vector<uint8_t>& bytes) {
  auto fb = try_open_fatbin(ByteSlice(bytes.data(), bytes.size()));
  EXPECT_TRUE(fb);
  return fb ? *fb : Fatbin{};
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  return test::error_of([&] { try_open_fatbin(ByteSlice(bytes.data(), bytes.size())); });
}

uint64_t claimed(const Fatbin& fb) {
  uint64_t n = 0;
  for (const auto& e : fb.entries) n += e.stored_bytes();
  return n;
}

TEST(Fatbin, WalksContainersAndEntries) {
  auto bytes =
      concat({fatbin_container({{.kind = 2, .arch = 90, .payload = 40},
                                {.kind = 2, .arch = 90, .flags = 0x100011, .payload = 48},
                                {.kind = 1, .arch = 90, .flags = 0x8011, .payload = 24, .uncompressed = 300}}),
              fatbin_container({{.kind = 2, .arch = 100, .flags = 0x1200011, .payload = 8, .header_size = 96}})});
  Fatbin fb = walk(bytes);
  ASSERT_EQ(fb.containers.size(), 2u);
  ASSERT_EQ(fb.entries.size(), 4u);
  EXPECT_EQ(fb.containers[0].entry_count, 3u);
  EXPECT_EQ(fb.containers[1].first_entry, 3u);
  EXPECT_EQ(fb.entries[0].arch_name(), "sm_90");
  EXPECT_EQ(fb.entries[1].arch_name(), "sm_90a");
  EXPECT_EQ(fb.entries[2].arch_name(), "compute_90");
  EXPECT_EQ(fb.entries[2].compression, FatbinCompression::zstd);
  EXPECT_EQ(fb.entries[2].uncompressed_size, 300u);
  EXPECT_EQ(fb.entries[0].uncompressed_size, 40u);
  EXPECT_EQ(fb.entries[3].arch_name(), "sm_100f");
  EXPECT_EQ(fb.entries[3].header_size, 96u);
  EXPECT_EQ(fb.entries[0].offset, 16u);
  EXPECT_EQ(fb.entries[1].offset, 16u + 64 + 40);
  // Every byte accounted: entries + overhead == section.
  EXPECT_EQ(claimed(fb) + fb.overhead(), bytes.size());
  EXPECT_EQ(fb.overhead(), 2 * 16u);
}

TEST(Fatbin, EmptyContainersZeroSizeEntriesAndZeroTail) {
  auto bytes = concat({fatbin_container({}), fatbin_container({{.payload = 0}}), std::vector<uint8_t>(24, 0)});
  Fatbin fb = walk(bytes);
  EXPECT_EQ(fb.containers.size(), 2u);
  ASSERT_EQ(fb.entries.size(), 1u);
  EXPECT_EQ(fb.entries[0].payload_size, 0u);
  EXPECT_EQ(claimed(fb) + fb.overhead(), bytes.size());
}

TEST(Fatbin, Lz4FlagAndOldCubinKind) {
  Fatbin fb = walk(fatbin_container({{.kind = 4, .arch = 75, .flags = 0x2011, .payload = 8, .uncompressed = 99}}));
  EXPECT_EQ(fb.entries[0].kind, FatbinKind::sass);
  EXPECT_EQ(fb.entries[0].compression, FatbinCompression::lz4);
  EXPECT_EQ(fb.entries[0].uncompressed_size, 99u);
  Fatbin nvvm = walk(fatbin_container({{.kind = 8, .arch = 80}}));
  EXPECT_EQ(nvvm.entries[0].arch_name(), "nvvm_80");
}

TEST(Fatbin, NotAFatbin) {
  std::vector<uint8_t> zeros(32, 0);
  EXPECT_FALSE(try_open_fatbin(ByteSlice(zeros.data(), zeros.size())));
  EXPECT_FALSE(try_open_fatbin(ByteSlice()));
}

TEST(Fatbin, EntryPastItsContainer) {
  auto c = fatbin_container({{.payload = 32}});
  test::Bytes b{c, false};
  b.put_at<uint64_t>(16 + 8, 1000);  // the entry's payload size
  EXPECT_EQ(
      error_of(b.b),
      "corrupt fatbin: entry at offset 0x10 (64 header + 1000 payload bytes) extends 968 bytes past its container");
  b.put_at<uint64_t>(16 + 8, ~0ull - 8);  // overflowing sum
  EXPECT_NE(error_of(b.b), "(no error)");
}

TEST(Fatbin, ContainerPastTheSection) {
  auto c = fatbin_container({{.payload = 32}});
  test::Bytes b{c, false};
  b.put_at<uint64_t>(8, 4096);
  EXPECT_EQ(error_of(b.b), "corrupt fatbin: container at offset 0x0 claims 4096 payload bytes, only 96 remain");
  b.put_at<uint64_t>(8, ~0ull);
  EXPECT_NE(error_of(b.b), "(no error)");
}

TEST(Fatbin, TruncatedHeaders) {
  auto c = fatbin_container({{.payload = 32}});
  EXPECT_NE(error_of(std::vector<uint8_t>(c.begin(), c.begin() + 10)).find("container header"), std::string::npos);
  // A container whose payload holds less than an entry header.
  test::Bytes b{std::vector<uint8_t>(c.begin(), c.begin() + 16 + 20), false};
  b.put_at<uint64_t>(8, 20);
  EXPECT_NE(error_of(b.b).find("entry header"), std::string::npos) << error_of(b.b);
  // A header size smaller than the fixed fields would loop forever if accepted.
  test::Bytes h{c, false};
  h.put_at<uint32_t>(16 + 4, 0);
  EXPECT_EQ(error_of(h.b), "corrupt fatbin: entry at offset 0x10 has a header of 0 bytes (at least 48 expected)");
}

TEST(Fatbin, GarbageBetweenContainers) {
  auto bytes = concat({fatbin_container({{.payload = 8}}), std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}});
  EXPECT_EQ(error_of(bytes), "corrupt fatbin: expected a container (magic 0xba55ed50) at offset 0x58");
}

TEST(Fatbin, OverlappingEntriesCannotBeExpressed) {
  // Entries are walked back to back, so a size that would make two entries
  // overlap instead shifts the next header: the walk then fails or sees fewer
  // entries, never more bytes than the container holds.
  auto c = fatbin_container({{.payload = 64}, {.payload = 64}});
  test::Bytes b{c, false};
  b.put_at<uint64_t>(16 + 8, 8);  // first entry claims less: the next header lands in its payload
  std::string e = error_of(b.b);
  EXPECT_NE(e, "(no error)");
}

}  // namespace
}  // namespace tailor
