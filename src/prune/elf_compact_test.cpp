// Compaction and what a relocation reaches (issue 57, compact_fuzzer's first
// finding). compact.so (readelf -lr): the read-only PT_LOAD at 0x2000 holds
// .nv_fatbin [0x2040, 0x21198) and then .eh_frame_hdr at 0x21198; the writable
// PT_LOAD (program header 3, at 0x40 + 3 * 56 = 0xe8, its p_vaddr at 0xf8)
// starts at 0x22dc0; .rela.dyn's sixth entry, at file offset 0x688 + 5 * 24,
// is R_X86_64_RELATIVE with addend 0x23068.
#include "prune/elf_compact.hpp"

#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>

#include "binfmt/elf_file.hpp"
#include "prune/fatbin_rewrite.hpp"
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

// Relocatable device code (tests/data/elf/make-rdc.sh, laid out as libnccl.so.2 and
// libnvshmem_host.so.3): __nv_relfatbin, then .nv_fatbin, in one read-only segment. Only
// one of them can leave the file (the bytes after it join the writable segment); the other
// is pruned where it lands. The compacted file must read as the one pruned in place
// (--no-compact) wherever it is read: every section but the one that shrank and the
// tables compaction patches, and each wrapper's container.
struct InPlaceSink : CompactSink {  // compaction within one buffer, as in a wheel's scratch file
  std::vector<uint8_t>& b;
  explicit InPlaceSink(std::vector<uint8_t>& buf) : b(buf) {}
  void write(uint64_t offset, ByteSlice bytes) override { std::memmove(b.data() + offset, bytes.data(), bytes.size()); }
  void copy(uint64_t to, uint64_t from, uint64_t length) override {
    std::memmove(b.data() + to, b.data() + from, length);
  }
  void truncate(uint64_t size) override { b.resize(size); }
};

struct Pruned {
  std::vector<uint8_t> original, kept, compacted, compacted_in_place;
  CompactionPlan compaction;
};

// Prunes r.original (a fixture, or one mutated) for SM 9.0: in place, and compacted fresh and in place.
Pruned prune_bytes_for_sm90(Pruned r, const CompactionOptions& options) {
  auto elf = try_open_elf(ByteSlice(r.original.data(), r.original.size()));
  EXPECT_TRUE(elf.has_value());
  const std::vector<PruneTarget> targets{PruneTarget{"90", 90, {}}};
  const RewritePlan plan = plan_rewrite(*elf, targets, false);
  r.compaction = plan_compaction(*elf, plan, options);
  SliceReader source(ByteSlice(r.original.data(), r.original.size()));
  r.kept = r.original;
  BufferSink kept(r.kept);
  apply_rewrite(plan, source, kept);
  if (!r.compaction.compacts()) return r;
  Sink fresh(r.original);
  apply_compaction(r.compaction, plan, source, fresh);
  r.compacted = fresh.out;
  r.compacted_in_place = r.original;
  SliceReader own(ByteSlice(r.compacted_in_place.data(), r.compacted_in_place.size()));
  InPlaceSink in_place(r.compacted_in_place);
  apply_compaction(r.compaction, plan, own, in_place);
  return r;
}

Pruned prune_for_sm90(const std::string& name, const CompactionOptions& options = {}) {
  Pruned r;
  r.original = fixture(name);
  return prune_bytes_for_sm90(std::move(r), options);
}

// The bytes at virtual address \a v of \a f (a PT_LOAD's file bytes), \a n of them.
std::vector<uint8_t> at_address(const ElfFile& f, uint64_t v, uint64_t n) {
  for (const ElfSegment& s : f.segments())
    if (s.type == PT_LOAD && v >= s.vaddr && v - s.vaddr + n <= s.filesz) {
      std::vector<uint8_t> buf;
      ByteSlice b = f.reader->read(s.offset + (v - s.vaddr), n, "container", buf);
      return {b.data(), b.data() + b.size()};
    }
  ADD_FAILURE() << "no PT_LOAD holds " << v;
  return {};
}

void expect_reads_as_pruned_in_place(const Pruned& r, const std::vector<std::string>& holes, int wrappers_expected) {
  ASSERT_TRUE(r.compaction.compacts()) << r.compaction.refused;
  EXPECT_EQ(r.compacted_in_place, r.compacted);
  auto kept = try_open_elf(ByteSlice(r.kept.data(), r.kept.size()));
  auto compacted = try_open_elf(ByteSlice(r.compacted.data(), r.compacted.size()));
  ASSERT_TRUE(kept && compacted);
  ASSERT_EQ(kept->sections.size(), compacted->sections.size());
  for (size_t i = 1; i < kept->sections.size(); ++i) {
    const ElfSection& k = kept->sections[i];
    const ElfSection& c = compacted->sections[i];
    EXPECT_EQ(k.addr, c.addr) << k.name;
    const bool hole = std::find(holes.begin(), holes.end(), k.name) != holes.end();
    if (hole) {
      EXPECT_LT(c.size, k.size) << k.name;
    }
    if (hole || k.name == ".nvFatBinSegment" || k.name == ".rela.dyn" || k.name == ".symtab" || k.name == ".dynsym")
      continue;
    EXPECT_EQ(kept->read_section(k), compacted->read_section(c)) << k.name;
  }
  // The wrappers' relocations, in order: each sets a pointer to a container with the same bytes.
  const ElfSection* seg = kept->find(".nvFatBinSegment");
  const auto kr = kept->relocations(*kept->find(".rela.dyn")),
             cr = compacted->relocations(*compacted->find(".rela.dyn"));
  ASSERT_EQ(kr.size(), cr.size());
  int wrappers = 0;
  for (size_t i = 0; i < kr.size(); ++i) {
    EXPECT_EQ(kr[i].offset, cr[i].offset);
    EXPECT_EQ(kr[i].type, cr[i].type);
    if (kr[i].offset < seg->addr || kr[i].offset >= seg->addr + seg->size || (kr[i].offset - seg->addr) % 24 != 8)
      continue;
    ++wrappers;
    std::vector<uint8_t> header = at_address(*kept, kr[i].addend, 16);
    uint64_t payload = 0;
    std::memcpy(&payload, header.data() + 8, 8);
    EXPECT_EQ(at_address(*kept, kr[i].addend, 16 + payload), at_address(*compacted, cr[i].addend, 16 + payload));
  }
  EXPECT_EQ(wrappers, wrappers_expected);
}

// rdc.so: units for seven GPUs, the device link for sm_90 and sm_120. For SM 9.0
// __nv_relfatbin frees 7,712 + 8,024 bytes (its two containers' entries but sm_90's),
// .nv_fatbin 10,576 (the linked sm_120 cubin): __nv_relfatbin leaves the file. Its kept
// containers end at 0x2a78 (0x2090 + 16 + 1,232, then 16 + 1,272), 0x3d78 bytes before
// its end at 0x67f0; the writable segment's address is 0x1000 past its offset: the file
// loses (0x3d78 - 0x1000) rounded down to 0x1000, 0x2000 bytes: 57,656 -> 49,464.
TEST(ElfCompact, RelocatableDeviceCodeLeavesTheFileWhereItFreesTheMost) {
  const Pruned r = prune_for_sm90("rdc.so");
  ASSERT_EQ(r.original.size(), 57656u);
  expect_reads_as_pruned_in_place(r, {"__nv_relfatbin"}, 3);  // two units', the device link's
  EXPECT_EQ(r.compacted.size(), 49464u);
}

// rdc-linked.so: beside the units (sm_90, sm_120) a unit compiled whole for five GPUs in
// .nv_fatbin. For SM 9.0 .nv_fatbin frees 10,576 + 3 x 7,656 + 10,936 = 0xadc0 bytes, the
// two units' sm_120 cubins in __nv_relfatbin far less: .nv_fatbin leaves the file, losing
// (0xadc0 - 0x1000) rounded down to 0x1000, 0x9000 bytes: 87,200 -> 50,336; __nv_relfatbin,
// before it, is pruned where it stands.
TEST(ElfCompact, AFatbinBeforeTheOneThatShrinksIsPrunedWhereItStands) {
  const Pruned r = prune_for_sm90("rdc-linked.so");
  ASSERT_EQ(r.original.size(), 87200u);
  expect_reads_as_pruned_in_place(r, {".nv_fatbin"}, 4);  // two units', the device link's, the whole unit's
  EXPECT_EQ(r.compacted.size(), 50336u);
}

// --reuse-note-header on rdc.so: both sections leave the file. __nv_relfatbin's kept
// containers end at 0x2a78, 0x3d78 before its end at 0x67f0: M (.nvHRKI ... .nvHRCE) and
// .nv_fatbin move down by 0x3000, in a PT_LOAD of their own at offset 0x37f0, address
// 0x67f0. .nv_fatbin [0x6800, 0xad48) keeps its first container, the device link's, and
// frees its sm_120 cubin, 10,576 = 0x2950 bytes: the new PT_LOAD ends at 0x6800 + 0x4548 -
// 0x2950 = 0x83f8 (0x1c08 bytes). Before the tail at 0xad48: 0x2950 + 0x3000 bytes, less the
// writable segment's 0x1000: the file loses 0x4000 bytes, 57,656 -> 41,272, and the tail
// moves by 0x5000 to 0x5d48. The PT_NOTE entry (5) is gone, the entries after the new
// PT_LOAD move up one, and the build-id note keeps its section.
TEST(ElfCompact, WithTheNoteHeaderReusedBothFatbinSectionsLeaveTheFile) {
  const Pruned r = prune_for_sm90("rdc.so", {.reuse_note_header = true});
  ASSERT_EQ(r.original.size(), 57656u);
  expect_reads_as_pruned_in_place(r, {"__nv_relfatbin", ".nv_fatbin"}, 3);
  EXPECT_TRUE(r.compaction.note_header_reused);
  EXPECT_EQ(r.compacted.size(), 41272u);
  auto elf = try_open_elf(ByteSlice(r.compacted.data(), r.compacted.size()));
  ASSERT_TRUE(elf.has_value());
  const std::vector<ElfSegment> segs = elf->segments();
  ASSERT_EQ(segs.size(), 9u);
  const std::vector<uint32_t> types = {PT_LOAD,    PT_LOAD,         PT_LOAD,      PT_LOAD,     PT_LOAD,
                                       PT_DYNAMIC, PT_GNU_EH_FRAME, PT_GNU_STACK, PT_GNU_RELRO};
  for (size_t i = 0; i < segs.size(); ++i) EXPECT_EQ(segs[i].type, types[i]) << i;
  EXPECT_EQ(segs[2].offset, 0x2000u);
  EXPECT_EQ(segs[2].filesz, 0xa78u);  // up to __nv_relfatbin's kept containers
  const ElfSegment& m = segs[3];
  EXPECT_EQ(m.offset, 0x37f0u);
  EXPECT_EQ(m.vaddr, 0x67f0u);
  EXPECT_EQ(m.paddr, 0x67f0u);
  EXPECT_EQ(m.filesz, 0x1c08u);
  EXPECT_EQ(m.memsz, 0x1c08u);
  EXPECT_EQ(m.flags, uint32_t{PF_R});
  EXPECT_EQ(m.align, 0x1000u);
  EXPECT_EQ(segs[4].offset, 0x5d48u);  // the tail, joined to the writable segment
  EXPECT_EQ(segs[4].vaddr, 0xad48u);
  EXPECT_EQ(segs[8].offset, 0x5d48u);  // PT_GNU_RELRO over it
  const ElfSection* note = elf->find(".note.gnu.build-id");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->offset, 0x238u);
  EXPECT_EQ(elf->find(".nv_fatbin")->offset, 0x3800u);
}

// The option changes nothing where one hole cuts as much: rdc-linked.so (its __nv_relfatbin
// frees less than a segment alignment), compact.so (one fatbin section); nor where rdc.so
// has no PT_NOTE, or a pointer into .nv_fatbin that would not follow its container. Each is
// the plan without the option, byte for byte.
TEST(ElfCompact, TheNoteHeaderIsReusedOnlyWhereItCutsMoreInTheLayoutItKnows) {
  for (const char* name : {"rdc-linked.so", "compact.so"}) {
    SCOPED_TRACE(name);
    const Pruned with = prune_for_sm90(name, {.reuse_note_header = true}), without = prune_for_sm90(name);
    ASSERT_TRUE(with.compaction.compacts());
    EXPECT_FALSE(with.compaction.note_header_reused);
    EXPECT_EQ(with.compacted, without.compacted);
  }
  EXPECT_EQ(prune_for_sm90("rdc-linked.so", {.reuse_note_header = true}).compacted.size(), 50336u);
  // rdc.so: program headers at 0x40 (5: PT_NOTE).
  const std::vector<std::pair<const char*, std::function<void(std::vector<uint8_t>&)>>> mutations = {
      {"PT_NOTE made PT_NULL",
       [](std::vector<uint8_t>& b) {
         const uint32_t null = PT_NULL;
         std::memcpy(b.data() + 0x40 + 5 * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, p_type), &null, 4);
       }},
      // .rela.dyn at 0x988, its fifth entry R_X86_64_RELATIVE at 0xd080 (__dso_handle) with
      // addend 0xd080, pointed into .nv_fatbin at 0x6900: no wrapper's, so .nv_fatbin's bytes
      // must keep their addresses; with one hole they do (it moves with the tail).
      {"a relocation into .nv_fatbin that is no wrapper's",
       [](std::vector<uint8_t>& b) {
         const uint64_t addend = 0x6900;
         std::memcpy(b.data() + 0x988 + 4 * sizeof(Elf64_Rela) + offsetof(Elf64_Rela, r_addend), &addend, 8);
       }},
  };
  for (const auto& [what, mutate] : mutations) {
    SCOPED_TRACE(what);
    Pruned in;
    in.original = fixture("rdc.so");
    mutate(in.original);
    const Pruned with = prune_bytes_for_sm90(in, {.reuse_note_header = true}), without = prune_bytes_for_sm90(in, {});
    ASSERT_TRUE(with.compaction.compacts()) << with.compaction.refused;
    EXPECT_FALSE(with.compaction.note_header_reused);
    EXPECT_EQ(with.compacted.size(), 49464u);
    EXPECT_EQ(with.compacted, without.compacted);
  }
}

// One refusal reason per row: compact.so, which compacts as it is, with one mutation.
// The offsets are readelf -hlSrsW's of compact.so: program headers at 0x40 (56 bytes
// each: 2 the read-only PT_LOAD [0x2000, 0x21748) holding .nv_fatbin [0x2040, 0x21198),
// 3 the writable PT_LOAD at offset 0x21dc0, address 0x22dc0, 5 PT_NOTE, 8 PT_GNU_RELRO);
// section headers at 0x234b8 (64 bytes each: 3 .dynsym at 0x280, 7 .rela.dyn at 0x688,
// 8 .rela.plt, 14 .rodata, 15 __nv_module_id at 0x2010, 16 .nv_fatbin, 17 .eh_frame_hdr,
// 26 .nvFatBinSegment at 0x22078, address 0x23078: three wrappers); .rela.dyn's entries 6,
// 7, 8 set the wrappers' pointers (at 0x23080, 0x23098, 0x230b0) to the containers at
// 0x2040, 0xc608, 0x16bd0 (each 0xa5c8 bytes, back to back); its entry 9 is the first with
// a symbol (R_X86_64_GLOB_DAT at 0x22fc8, symbol 2). The file is 0x23cb8 bytes.
// "offset ... lies inside .nv_fatbin" has no row: every offset compaction maps belongs to a
// section that check_sections has already placed outside .nv_fatbin.
constexpr size_t kPhdrs = 0x40, kShdrs = 0x234b8, kRelaDyn = 0x688, kDynsym = 0x280, kWrappers = 0x22078;
size_t phdr(size_t i, size_t field) { return kPhdrs + i * sizeof(Elf64_Phdr) + field; }
size_t shdr(size_t i, size_t field) { return kShdrs + i * sizeof(Elf64_Shdr) + field; }
size_t rela(size_t i, size_t field) { return kRelaDyn + i * sizeof(Elf64_Rela) + field; }

template <class T>
void put(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

// The section header table again, 72 bytes an entry, at the end of the file.
void widen_section_headers(std::vector<uint8_t>& b) {
  const size_t at = (b.size() + 7) / 8 * 8, n = 32;
  b.resize(at + n * 72, 0);
  for (size_t i = 0; i < n; ++i) std::memcpy(b.data() + at + i * 72, b.data() + shdr(i, 0), sizeof(Elf64_Shdr));
  put<uint64_t>(b, offsetof(Elf64_Ehdr, e_shoff), at);
  put<uint16_t>(b, offsetof(Elf64_Ehdr, e_shentsize), 72);
}

struct RefusalRow {
  const char* mutation;
  std::function<void(std::vector<uint8_t>&)> file;
  std::function<void(RewritePlan&)> plan;
  const char* refused;
};

using B = std::vector<uint8_t>;
const std::vector<RefusalRow> kRefusalRows = {
    {"every container kept whole", nullptr,
     [](RewritePlan& p) {
       for (auto& c : p.containers) c.new_payload = c.old_payload;
     },
     "nothing removed"},
    {"e_machine EM_ARM", [](B& b) { put<uint16_t>(b, offsetof(Elf64_Ehdr, e_machine), EM_ARM); }, nullptr,
     "a 64-bit arm file (compaction knows little-endian 64-bit x86_64 and aarch64)"},
    {"e_type ET_EXEC", [](B& b) { put<uint16_t>(b, offsetof(Elf64_Ehdr, e_type), ET_EXEC); }, nullptr,
     "not a shared library (e_type 2)"},
    {"__nv_module_id named .nv_fatbin", [](B& b) { std::memcpy(b.data() + shdr(15, 0), b.data() + shdr(16, 0), 4); },
     nullptr, "more than one .nv_fatbin section"},
    {".nv_fatbin named .rodata", [](B& b) { std::memcpy(b.data() + shdr(16, 0), b.data() + shdr(14, 0), 4); }, nullptr,
     "no .nv_fatbin section"},
    {".nv_fatbin's sh_offset past the end",
     [](B& b) { put<uint64_t>(b, shdr(16, offsetof(Elf64_Shdr, sh_offset)), 0x30000); }, nullptr,
     "truncated or corrupt input: section .nv_fatbin starts at offset 0x30000, past the end (0x23cb8)"},
    {"e_phentsize 64", [](B& b) { put<uint16_t>(b, offsetof(Elf64_Ehdr, e_phentsize), 64); }, nullptr,
     "unusual program header table"},
    {"e_phoff at .eh_frame_hdr", [](B& b) { put<uint64_t>(b, offsetof(Elf64_Ehdr, e_phoff), 0x21198); }, nullptr,
     "the program headers lie after .nv_fatbin"},
    {"PT_NOTE's p_offset past the end",
     [](B& b) { put<uint64_t>(b, phdr(5, offsetof(Elf64_Phdr, p_offset)), 0x10000000); }, nullptr,
     "truncated or corrupt input: segment 5 starts at offset 0x10000000, past the end (0x23cb8)"},
    {".nv_fatbin's sh_size up to 0x23600, over the section headers",
     [](B& b) { put<uint64_t>(b, shdr(16, offsetof(Elf64_Shdr, sh_size)), 0x23600 - 0x2040); }, nullptr,
     "the section headers overlap .nv_fatbin"},
    {"PT_NOTE made PT_INTERP", [](B& b) { put<uint32_t>(b, phdr(5, offsetof(Elf64_Phdr, p_type)), PT_INTERP); },
     nullptr, "an executable (PT_INTERP): the kernel finds its program headers by offset"},
    {"the fatbin's PT_LOAD made PT_NULL",
     [](B& b) { put<uint32_t>(b, phdr(2, offsetof(Elf64_Phdr, p_type)), PT_NULL); }, nullptr,
     ".nv_fatbin is in no PT_LOAD segment"},
    {"the fatbin's PT_LOAD p_memsz 0x20748",
     [](B& b) { put<uint64_t>(b, phdr(2, offsetof(Elf64_Phdr, p_memsz)), 0x20748); }, nullptr,
     ".nv_fatbin's segment has bytes past its file size"},
    {"the fatbin's PT_LOAD p_align 0x3000",
     [](B& b) { put<uint64_t>(b, phdr(2, offsetof(Elf64_Phdr, p_align)), 0x3000); }, nullptr,
     "segment alignment 0x3000 is not a power of two"},
    {"the writable PT_LOAD's p_offset 0x21000, inside the fatbin's",
     [](B& b) { put<uint64_t>(b, phdr(3, offsetof(Elf64_Phdr, p_offset)), 0x21000); }, nullptr,
     "the segment after .nv_fatbin's overlaps it"},
    {"the writable PT_LOAD made PT_NULL",
     [](B& b) { put<uint32_t>(b, phdr(3, offsetof(Elf64_Phdr, p_type)), PT_NULL); }, nullptr,
     "sections follow .nv_fatbin in the last loadable segment"},
    {"the writable PT_LOAD made PF_R", [](B& b) { put<uint32_t>(b, phdr(3, offsetof(Elf64_Phdr, p_flags)), PF_R); },
     nullptr, "the segment after .nv_fatbin's is not writable: its tail has nowhere to go"},
    {"the writable PT_LOAD's p_vaddr 0x22dc8",
     [](B& b) { put<uint64_t>(b, phdr(3, offsetof(Elf64_Phdr, p_vaddr)), 0x22dc8); }, nullptr,
     "segment offsets and addresses are not aligned alike"},
    {"PT_GNU_RELRO made PT_NULL", [](B& b) { put<uint32_t>(b, phdr(8, offsetof(Elf64_Phdr, p_type)), PT_NULL); },
     nullptr, "no PT_GNU_RELRO at the start of the writable segment: the read-only tail would stay writable"},
    {".eh_frame_hdr made SHF_EXECINSTR",
     [](B& b) { put<uint64_t>(b, shdr(17, offsetof(Elf64_Shdr, sh_flags)), SHF_ALLOC | SHF_EXECINSTR); }, nullptr,
     "executable section .eh_frame_hdr follows .nv_fatbin in its segment"},
    // Three containers back to back, up to the section's end: 8 bytes freed; the writable
    // segment's address is 0x1000 past its offset, the fatbin's segment's 0.
    {"8 bytes freed", nullptr,
     [](RewritePlan& p) {
       for (auto& c : p.containers) c.new_payload = c.old_payload;
       p.containers[0].new_payload -= 8;
     },
     "8 bytes freed in .nv_fatbin, less than the segment alignment 0x1000 plus 0x1000"},
    {"__nv_module_id's sh_size 0x100, into .nv_fatbin",
     [](B& b) { put<uint64_t>(b, shdr(15, offsetof(Elf64_Shdr, sh_size)), 0x100); }, nullptr,
     "section __nv_module_id straddles the bytes that move"},
    {"PT_NOTE's p_filesz 0x2000, into .nv_fatbin",
     [](B& b) { put<uint64_t>(b, phdr(5, offsetof(Elf64_Phdr, p_filesz)), 0x2000); }, nullptr,
     "program header 5 (type 0x4) overlaps the bytes that move"},
    {".nvFatBinSegment's sh_size 0x40", [](B& b) { put<uint64_t>(b, shdr(26, offsetof(Elf64_Shdr, sh_size)), 0x40); },
     nullptr, "no .nvFatBinSegment of whole wrappers"},
    {"wrapper 1's magic 0x12345678", [](B& b) { put<uint32_t>(b, kWrappers + 24, 0x12345678); }, nullptr,
     "wrapper 1 of .nvFatBinSegment has magic 0x12345678"},
    {".rela.plt made SHT_REL", [](B& b) { put<uint32_t>(b, shdr(8, offsetof(Elf64_Shdr, sh_type)), SHT_REL); }, nullptr,
     "REL relocations in .rela.plt (compaction reads RELA)"},
    {".rela.plt made SHT_RELR", [](B& b) { put<uint32_t>(b, shdr(8, offsetof(Elf64_Shdr, sh_type)), SHT_RELR); },
     nullptr, "RELR relocations in .rela.plt (compaction reads RELA)"},
    {".rela.plt's sh_size 0x130", [](B& b) { put<uint64_t>(b, shdr(8, offsetof(Elf64_Shdr, sh_size)), 0x130); },
     nullptr, ".rela.plt is not whole relocations"},
    {".nv_fatbin's sh_addr 0x2d000000002040",
     [](B& b) { put<uint64_t>(b, shdr(16, offsetof(Elf64_Shdr, sh_addr)), 0x2d000000002040); }, nullptr,
     ".nv_fatbin's address 0x2d000000002040 is not where its segment maps its offset 0x2040"},
    {".rela.plt's sh_offset 0x727, inside .rela.dyn",
     [](B& b) { put<uint64_t>(b, shdr(8, offsetof(Elf64_Shdr, sh_offset)), 0x727); }, nullptr,
     ".rela.dyn and .rela.plt overlap: a patch to one would change the other"},
    {".rela.dyn's first r_offset 0x2100",
     [](B& b) { put<uint64_t>(b, rela(0, offsetof(Elf64_Rela, r_offset)), 0x2100); }, nullptr,
     "a relocation applies inside .nv_fatbin at 0x2100"},
    {".rela.dyn's sh_link 0", [](B& b) { put<uint32_t>(b, shdr(7, offsetof(Elf64_Shdr, sh_link)), 0); }, nullptr,
     "relocation at 0x22fc8 is relative to symbol 2 of no symbol table"},
    {".dynsym's sh_size 48, two symbols", [](B& b) { put<uint64_t>(b, shdr(3, offsetof(Elf64_Shdr, sh_size)), 48); },
     nullptr, "relocation at 0x22fc8 is relative to symbol 2 past its symbol table"},
    {".dynsym's symbol 2 defined in .nv_fatbin (st_shndx 16)",
     [](B& b) { put<uint16_t>(b, kDynsym + 2 * sizeof(Elf64_Sym) + offsetof(Elf64_Sym, st_shndx), 16); }, nullptr,
     "relocation at 0x22fc8 is relative to symbol 2 of .nv_fatbin: it points in, whatever its addend"},
    {".dynsym's sh_offset past the end",
     [](B& b) { put<uint64_t>(b, shdr(3, offsetof(Elf64_Shdr, sh_offset)), 0x10000280); }, nullptr,
     "truncated or corrupt input: section .dynsym starts at offset 0x10000280, past the end (0x23cb8)"},
    {".rela.dyn's first r_addend 0x2048",
     [](B& b) { put<uint64_t>(b, rela(0, offsetof(Elf64_Rela, r_addend)), 0x2048); }, nullptr,
     "relocation at 0x22dc0 points into .nv_fatbin (0x2048) but is no wrapper's pointer to a container"},
    {"wrapper 0's relocation made a copy of .data's (0x23068 + 0x23068)",
     [](B& b) {
       put<uint64_t>(b, rela(6, offsetof(Elf64_Rela, r_offset)), 0x23068);
       put<uint64_t>(b, rela(6, offsetof(Elf64_Rela, r_addend)), 0x23068);
     },
     nullptr, "wrapper 0 of .nvFatBinSegment has no RELA relocation"},
    {"wrapper 0 stores 0x2050", [](B& b) { put<uint64_t>(b, kWrappers + 8, 0x2050); }, nullptr,
     "wrapper 0 stores 0x2050, not its relocation's 0x2040"},
    {"wrapper 2 pointed at the first container, its stored pointer 0",
     [](B& b) {
       put<uint64_t>(b, rela(8, offsetof(Elf64_Rela, r_addend)), 0x2040);
       put<uint64_t>(b, kWrappers + 2 * 24 + 8, 0);
     },
     nullptr, "the container at 0x16bd0 is no wrapper's: something else may point at it"},
    {"section headers of 72 bytes", widen_section_headers, nullptr, "unusual section header size"},
};

TEST(ElfCompact, EachRefusalReasonHasItsFile) {
  const std::vector<uint8_t> original = fixture("compact.so");
  ASSERT_EQ(original.size(), 0x23cb8u);
  const std::vector<PruneTarget> targets{PruneTarget{"90", 90, {}}};
  auto source = try_open_elf(ByteSlice(original.data(), original.size()));
  ASSERT_TRUE(source.has_value());
  const RewritePlan plan = plan_rewrite(*source, targets, false);
  ASSERT_EQ(plan.containers.size(), 3u);
  ASSERT_TRUE(plan_compaction(*source, plan).compacts()) << plan_compaction(*source, plan).refused;
  for (const RefusalRow& row : kRefusalRows) {
    SCOPED_TRACE(row.mutation);
    std::vector<uint8_t> b = original;
    if (row.file) row.file(b);
    RewritePlan p = plan;
    if (row.plan) row.plan(p);
    auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
    ASSERT_TRUE(elf.has_value());
    const CompactionPlan c = plan_compaction(*elf, p);
    EXPECT_FALSE(c.compacts());
    EXPECT_EQ(c.refused, row.refused);
    EXPECT_EQ(c.new_size, b.size());
  }
}

}  // namespace
}  // namespace tailor
