#include "binfmt/elf_file.hpp"

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/error_of.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

using test::elf_file;

std::string error_of(const std::vector<uint8_t>& bytes) {
  return test::error_of([&] { try_open_elf(ByteSlice(bytes.data(), bytes.size())); });
}

std::vector<uint8_t> payload(size_t n, uint8_t v) { return std::vector<uint8_t>(n, v); }

class ElfLayouts : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(ElfLayouts, ReadsSectionsOfEveryClassAndByteOrder) {
  auto [bits, be] = GetParam();
  auto bytes = elf_file(bits, be, 183, {{".text", payload(100, 0x90)}, {".nv_fatbin", payload(24, 0x11)}});
  auto elf = try_open_elf(ByteSlice(bytes.data(), bytes.size()));
  ASSERT_TRUE(elf);
  EXPECT_EQ(elf->bits, bits);
  EXPECT_EQ(elf->big_endian, be);
  EXPECT_EQ(elf->machine, 183);
  EXPECT_EQ(elf->type, 3);
  ASSERT_EQ(elf->sections.size(), 4u);  // null, .text, .nv_fatbin, .shstrtab
  const ElfSection* fb = elf->find(".nv_fatbin");
  ASSERT_NE(fb, nullptr);
  EXPECT_EQ(fb->size, 24u);
  std::vector<uint8_t> c = elf->read_section(*fb);
  EXPECT_EQ(c.size(), 24u);
  EXPECT_EQ(c[0], 0x11);
  EXPECT_EQ(elf->find(".shstrtab")->type, 3u);
  EXPECT_EQ(elf->find(".missing"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(All, ElfLayouts,
                         ::testing::Combine(::testing::Values(32, 64), ::testing::Values(false, true)));

TEST(Elf, NotElfIsNotAnError) {
  std::vector<uint8_t> zip = {'P', 'K', 3, 4, 0, 0};
  EXPECT_FALSE(try_open_elf(ByteSlice(zip.data(), zip.size())));
  EXPECT_FALSE(try_open_elf(ByteSlice()));
}

TEST(Elf, TruncatedHeadersAreClearErrors) {
  auto bytes = elf_file(64, false, 62, {{".nv_fatbin", payload(16, 1)}});
  EXPECT_EQ(error_of(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 20)),
            "truncated or corrupt input: ELF header at offset 0x0 needs 64 bytes, only 20 remain");
  // Cut inside the section header table.
  auto cut = std::vector<uint8_t>(bytes.begin(), bytes.end() - 10);
  EXPECT_NE(error_of(cut).find("section header table"), std::string::npos) << error_of(cut);
  auto bad_class = bytes;
  bad_class[4] = 7;
  EXPECT_EQ(error_of(bad_class), "not a valid ELF file: class 7 is neither 32- nor 64-bit");
}

TEST(Elf, SectionPointingPastTheEndFailsOnlyWhenRead) {
  auto bytes = elf_file(64, false, 62, {{".nv_fatbin", payload(16, 1)}});
  uint64_t shoff = ByteSlice(bytes.data(), bytes.size()).read_le<uint64_t>(40, "");
  // Section 1's sh_size (64-bit layout: +32) made huge.
  test::Bytes b{bytes, false};
  b.put_at<uint64_t>(shoff + 64 + 32, 1ull << 40);
  auto elf = try_open_elf(ByteSlice(b.b.data(), b.size()));
  ASSERT_TRUE(elf);
  try {
    elf->section_reader(*elf->find(".nv_fatbin"));
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_NE(e.diagnostic().message.find("section .nv_fatbin at offset"), std::string::npos) << e.diagnostic().message;
  }
}

TEST(Elf, BadNameOffsetsAndIndexes) {
  auto bytes = elf_file(32, true, 62, {{".nv_fatbin", payload(16, 1)}});
  test::Bytes b{bytes, true};
  b.put_at<uint16_t>(50, 99);  // e_shstrndx
  EXPECT_EQ(error_of(b.b), "corrupt ELF header: section name table index 99 is out of range (3 sections)");
  b = test::Bytes{bytes, true};
  uint32_t shoff = ByteSlice(bytes.data(), bytes.size()).read_be<uint32_t>(32, "");
  b.put_at<uint32_t>(shoff + 40, 0xfffffff0);  // sh_name of section 1
  EXPECT_NE(error_of(b.b).find("name of section 1"), std::string::npos) << error_of(b.b);
  b = test::Bytes{bytes, true};
  b.put_at<uint16_t>(46, 8);  // e_shentsize smaller than a header
  EXPECT_EQ(error_of(b.b), "corrupt ELF header: section header size 8 is smaller than 40");
}

TEST(Elf, HugeSectionCountIsRejectedBeforeAllocating) {
  auto bytes = elf_file(64, false, 62, {});
  test::Bytes b{bytes, false};
  b.put_at<uint16_t>(60, 0);  // e_shnum = 0: the count comes from section 0's sh_size
  uint64_t shoff = ByteSlice(bytes.data(), bytes.size()).read_le<uint64_t>(40, "");
  b.put_at<uint64_t>(shoff + 32, 1ull << 60);
  EXPECT_NE(error_of(b.b).find("section header table"), std::string::npos) << error_of(b.b);
}

TEST(Elf, MachineNames) {
  EXPECT_EQ(elf_machine_name(62), "x86_64");
  EXPECT_EQ(elf_machine_name(183), "aarch64");
  EXPECT_EQ(elf_machine_name(21, false), "ppc64le");
  EXPECT_EQ(elf_machine_name(4242), "machine 4242");
}

}  // namespace
}  // namespace tailor
