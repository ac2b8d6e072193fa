#include "binfmt/elf_file.hpp"

#include <elf.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "support/binary_builder.hpp"
#include "support/error_of.hpp"
#include "support/paths.hpp"
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

// compact.so (tests/data/elf/make-compact.sh, nvcc 13.0.88, 146,616 bytes): every figure
// below is readelf -lrsdW's.
std::vector<uint8_t> compact_so() {
  std::ifstream f(test::source_dir() + "/tests/data/elf/compact.so", std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

TEST(ElfTables, SegmentsAreTheProgramHeaders) {
  std::vector<uint8_t> b = compact_so();
  auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
  ASSERT_TRUE(elf);
  EXPECT_EQ(elf->program_table_offset, 64u);
  const std::vector<ElfSegment> segs = elf->segments();
  ASSERT_EQ(segs.size(), 9u);
  EXPECT_EQ(segs[2].type, PT_LOAD);  // read-only: .rodata, .nv_fatbin, .eh_frame
  EXPECT_EQ(segs[2].flags, PF_R);
  EXPECT_EQ(segs[2].offset, 0x2000u);
  EXPECT_EQ(segs[2].filesz, 0x1f748u);
  EXPECT_EQ(segs[2].align, 0x1000u);
  EXPECT_EQ(segs[3].type, PT_LOAD);  // writable, its .bss past the file size
  EXPECT_EQ(segs[3].flags, PF_R | PF_W);
  EXPECT_EQ(segs[3].offset, 0x21dc0u);
  EXPECT_EQ(segs[3].vaddr, 0x22dc0u);
  EXPECT_EQ(segs[3].paddr, 0x22dc0u);
  EXPECT_EQ(segs[3].filesz, 0x300u);
  EXPECT_EQ(segs[3].memsz, 0x3e0u);
  EXPECT_EQ(segs[4].type, PT_DYNAMIC);
  EXPECT_EQ(segs[7].type, PT_GNU_STACK);
  EXPECT_EQ(segs[8].type, PT_GNU_RELRO);
  EXPECT_EQ(segs[8].memsz, 0x240u);
}

TEST(ElfTables, RelocationsSymbolsAndDynamicEntries) {
  std::vector<uint8_t> b = compact_so();
  auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
  ASSERT_TRUE(elf);
  const std::vector<ElfRelocation> dyn = elf->relocations(*elf->find(".rela.dyn"));
  ASSERT_EQ(dyn.size(), 14u);
  EXPECT_EQ(dyn[6].at, 0x688u + 6 * 24);  // the first wrapper's pointer to the first container
  EXPECT_EQ(dyn[6].offset, 0x23080u);
  EXPECT_EQ(dyn[6].type, R_X86_64_RELATIVE);
  EXPECT_EQ(dyn[6].symbol, 0u);
  EXPECT_EQ(dyn[6].addend, 0x2040u);
  EXPECT_EQ(dyn[9].offset, 0x22fc8u);
  EXPECT_EQ(dyn[9].type, R_X86_64_GLOB_DAT);
  EXPECT_EQ(dyn[9].symbol, 2u);  // __cxa_finalize
  const std::vector<ElfRelocation> plt = elf->relocations(*elf->find(".rela.plt"));
  ASSERT_EQ(plt.size(), 13u);
  EXPECT_EQ(plt[11].offset, 0x23058u);
  EXPECT_EQ(plt[11].type, R_X86_64_JUMP_SLOT);
  EXPECT_EQ(plt[11].symbol, 15u);  // __cxa_guard_acquire

  const std::vector<ElfSymbol> syms = elf->symbols(*elf->find(".dynsym"));
  ASSERT_EQ(syms.size(), 19u);
  EXPECT_EQ(syms[15].at, 0x280u + 15 * 24);
  EXPECT_EQ(syms[15].info, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC));
  EXPECT_EQ(syms[15].shndx, SHN_UNDEF);
  EXPECT_EQ(syms[15].value, 0u);
  EXPECT_EQ(syms[2].info, ELF64_ST_INFO(STB_WEAK, STT_FUNC));
  EXPECT_EQ(elf->symbols(*elf->find(".symtab")).size(), 108u);

  const std::vector<ElfDynamic> d = elf->dynamic_entries();
  ASSERT_EQ(d.size(), 25u);  // 26 with DT_NULL
  EXPECT_EQ(d[0].tag, DT_NEEDED);
  EXPECT_EQ(d[3].tag, DT_INIT);
  EXPECT_EQ(d[3].value, 0x1000u);
  EXPECT_EQ(d[18].tag, DT_RELA);
  EXPECT_EQ(d[18].value, 0x688u);
  EXPECT_EQ(d[24].tag, DT_RELACOUNT);
  EXPECT_EQ(d[24].value, 9u);
}

// 32-bit big-endian (ppc) relocations: r_info packs the symbol above 8 bits of type,
// and a negative r_addend widens as the loader adds it.
TEST(ElfTables, ThirtyTwoBitBigEndianRelocations) {
  test::Bytes rela{{}, true};
  rela.put<uint32_t>(0x10010);                     // r_offset
  rela.put<uint32_t>(5u << 8 | R_PPC_ADDR32);      // symbol 5
  rela.put<uint32_t>(static_cast<uint32_t>(-16));  // r_addend
  auto bytes = elf_file(32, true, EM_PPC, {{".rela.dyn", rela.b}});
  uint32_t shoff = ByteSlice(bytes.data(), bytes.size()).read_be<uint32_t>(32, "");
  test::Bytes b{bytes, true};
  b.put_at<uint32_t>(shoff + 40 + 4, SHT_RELA);  // section 1's sh_type
  auto elf = try_open_elf(ByteSlice(b.b.data(), b.size()));
  ASSERT_TRUE(elf);
  const std::vector<ElfRelocation> r = elf->relocations(elf->sections[1]);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].offset, 0x10010u);
  EXPECT_EQ(r[0].type, R_PPC_ADDR32);
  EXPECT_EQ(r[0].symbol, 5u);
  EXPECT_EQ(r[0].addend, static_cast<uint64_t>(-16));
}

// A hostile table is a diagnostic, never a read outside the file.
TEST(ElfTables, CorruptTablesAreClearErrors) {
  const std::vector<uint8_t> good = compact_so();
  auto error = [](std::vector<uint8_t> b, auto read) {
    return test::error_of([&] {
      auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
      read(*elf);
    });
  };
  auto segments = [](const ElfFile& f) { f.segments(); };
  std::vector<uint8_t> b = good;
  b[54] = 32;  // e_phentsize
  EXPECT_EQ(error(b, segments), "corrupt ELF header: program header size 32 is smaller than 56");
  b = good;
  b[56] = 0xff, b[57] = 0x0f;  // e_phnum 4095: the table runs past the end
  EXPECT_EQ(error(b, segments),
            "truncated or corrupt input: program header table at offset 0x40 needs 229320 bytes, only 146552 remain");
  b = good;
  test::Bytes note{b, false};
  note.put_at<uint64_t>(0x40 + 5 * 56 + 8, 0x10000000);  // PT_NOTE's p_offset
  b = note.b;
  EXPECT_EQ(error(b, segments),
            "truncated or corrupt input: segment 5 starts at offset 0x10000000, past the end (0x23cb8)");
  auto rela_dyn = [](const ElfFile& f) { f.relocations(*f.find(".rela.dyn")); };
  b = good;
  b[0x234b8 + 7 * 64 + 32] = 0x40;  // .rela.dyn's sh_size 0x140: 13 1/3 entries
  EXPECT_EQ(error(b, rela_dyn), ".rela.dyn is not whole relocations");
  b = good;
  b[0x234b8 + 7 * 64 + 27] = 0x10;  // .rela.dyn's sh_offset 0x10000688
  EXPECT_EQ(error(b, rela_dyn),
            "truncated or corrupt input: section .rela.dyn starts at offset 0x10000688, past the end (0x23cb8)");
  EXPECT_EQ(error(good, [](const ElfFile& f) { f.relocations(*f.find(".dynsym")); }),
            "section .dynsym (type 11) holds no relocations");
  EXPECT_EQ(error(good, [](const ElfFile& f) { f.symbols(*f.find(".rela.dyn")); }),
            "section .rela.dyn (type 4) holds no symbols");
}

TEST(Elf, MachineNames) {
  EXPECT_EQ(elf_machine_name(62), "x86_64");
  EXPECT_EQ(elf_machine_name(183), "aarch64");
  EXPECT_EQ(elf_machine_name(21, false), "ppc64le");
  EXPECT_EQ(elf_machine_name(4242), "machine 4242");
}

}  // namespace
}  // namespace tailor
