// Compaction and what a relocation reaches (issue 57, compact_fuzzer's first
// finding). compact.so (readelf -lr): the read-only PT_LOAD at 0x2000 holds
// .nv_fatbin [0x2040, 0x21198) and then .eh_frame_hdr at 0x21198; the writable
// PT_LOAD (program header 3, at 0x40 + 3 * 56 = 0xe8, its p_vaddr at 0xf8)
// starts at 0x22dc0; .rela.dyn's sixth entry, at file offset 0x688 + 5 * 24,
// is R_X86_64_RELATIVE with addend 0x23068.
#include "prune/elf_compact.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "binfmt/elf_file.hpp"
#include "support/paths.hpp"

namespace tailor {
namespace {

std::vector<uint8_t> fixture(const std::string& name) {
  std::ifstream f(tailor::test::source_dir() + "/tests/data/elf/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

uint64_t get64(const std::vector<uint8_t>& b, size_t at) {
  uint64_t v = 0;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

struct Sink : CompactSink {
  const std::vector<uint8_t>& source;
  std::vector<uint8_t> out;
  explicit Sink(const std::vector<uint8_t>& s) : source(s), out(s.size(), 0) {}
  void write(uint64_t offset, ByteSlice bytes) override {
    std::memcpy(out.data() + offset, bytes.data(), bytes.size());
  }
  void copy(uint64_t to, uint64_t from, uint64_t length) override {
    std::memmove(out.data() + to, source.data() + from, length);
  }
  void truncate(uint64_t size) override { out.resize(size); }
};

// A pointer at the program headers keeps its target: the headers stay where they are, and what
// the pointer reads there are the headers of the compacted file, as the loader reads them. The
// fuzz oracle once took those rewritten bytes for a pointer that landed elsewhere.
TEST(ElfCompact, APointerAtTheProgramHeadersKeepsItsTargetAndReadsTheNewHeaders) {
  std::vector<uint8_t> b = fixture("compact.so");
  ASSERT_GT(b.size(), 0x6f0u);
  const size_t rela = 0x688 + 5 * 24;
  ASSERT_EQ(get64(b, rela + 8), 8u);  // R_X86_64_RELATIVE, no symbol
  ASSERT_EQ(get64(b, rela + 16), 0x23068u);
  const uint64_t addend = 0xf8;  // p_vaddr of program header 3
  std::memcpy(b.data() + rela + 16, &addend, 8);
  ASSERT_EQ(get64(b, 0xf8), 0x22dc0u);

  auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
  ASSERT_TRUE(elf.has_value());
  const std::vector<PruneTarget> targets{PruneTarget{"90", 90, {}}};
  const RewritePlan plan = plan_rewrite(*elf, targets, false);
  const CompactionPlan compaction = plan_compaction(*elf, plan);
  ASSERT_TRUE(compaction.compacts()) << compaction.refused;
  SliceReader source(ByteSlice(b.data(), b.size()));
  Sink sink(b);
  apply_compaction(compaction, plan, source, sink);
  ASSERT_EQ(sink.out.size(), compaction.new_size);
  EXPECT_LT(sink.out.size(), b.size());
  // The relocation still points at 0xf8, which lies in the first PT_LOAD (file offset = address),
  EXPECT_EQ(get64(sink.out, rela + 16), 0xf8u);
  // where program header 3 now starts at .eh_frame_hdr, the read-only tail it took over.
  EXPECT_EQ(get64(sink.out, 0xe8), 1u | uint64_t{6} << 32);  // PT_LOAD, PF_R | PF_W
  EXPECT_EQ(get64(sink.out, 0xf8), 0x21198u);
}

// compact_fuzzer's second finding: .dynsym entry 15 (__cxa_guard_acquire, the symbol of the
// R_X86_64_JUMP_SLOT at 0x23058, .rela.plt's twelfth entry) made STB_LOCAL, SHN_UNDEF, value
// 0x7a00, inside .nv_fatbin. glibc's loader resolves a local symbol to the object's base plus
// its value, SHN_UNDEF or not: the slot points into the fatbin, so the file keeps its size.
TEST(ElfCompact, ARelocationByAnUndefinedLocalSymbolValuedInTheFatbinRefusesCompaction) {
  std::vector<uint8_t> b = fixture("compact.so");
  ASSERT_GT(b.size(), 0x7d8u + 12 * 24);
  const size_t slot = 0x7d8 + 11 * 24, sym = 0x280 + 15 * 24;
  ASSERT_EQ(get64(b, slot), 0x23058u);
  ASSERT_EQ(get64(b, slot + 8), uint64_t{15} << 32 | 7);  // R_X86_64_JUMP_SLOT, symbol 15
  ASSERT_EQ(b[sym + 4], 0x12);                            // STB_GLOBAL, STT_FUNC
  ASSERT_EQ(b[sym + 6] | b[sym + 7] << 8, 0);             // SHN_UNDEF
  b[sym + 4] = 0;                                         // STB_LOCAL, STT_NOTYPE
  const uint64_t value = 0x7a00;
  std::memcpy(b.data() + sym + 8, &value, 8);

  auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
  ASSERT_TRUE(elf.has_value());
  const std::vector<PruneTarget> targets{PruneTarget{"90", 90, {}}};
  const CompactionPlan compaction = plan_compaction(*elf, plan_rewrite(*elf, targets, false));
  EXPECT_FALSE(compaction.compacts());
  EXPECT_EQ(compaction.refused,
            "relocation at 0x23058 is relative to symbol 15 of .nv_fatbin: it points in, whatever its addend");
  EXPECT_EQ(compaction.new_size, b.size());
}

}  // namespace
}  // namespace tailor
