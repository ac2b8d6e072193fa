// Fuzz target for compaction (prune/elf_compact.cpp, which plans over
// binfmt/elf_file's segments, relocations and symbols). Every input first goes
// through those table readers whole (segments, each section's relocations and
// symbols, the dynamic entries): a DiagnosticError or nothing, whatever the
// bytes, also where compaction refuses before it reads them. The oracle: every pointer a relocation sets (S + A of each
// RELA entry in an allocated section) reaches the same bytes in the compacted output as in the --no-compact output (the
// same prune, the file's layout kept). A relocation compaction failed to follow lands on other bytes. Bytes compaction
// rewrites where they stand (its patches: the program headers, symbols, relocation addends, wrapper pointers) are not
// compared: a pointer at the program headers keeps its target, and what it reads there must be the new headers (issue
// 57, compact_fuzzer's first finding). The oracle parses the files with its own few lines, not with the reader under
// test. The first byte picks the target SM (its low bits), --keep-ptx (0x80) and
// --reuse-note-header (0x40: both fatbin sections cut, PT_NOTE made a PT_LOAD); the rest is the file.
#include <elf.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "binfmt/elf_file.hpp"
#include "prune/elf_compact.hpp"
#include "prune/fatbin_rewrite.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

namespace {

using namespace tailor;

void check(bool ok) {
  if (!ok) std::abort();
}

uint64_t get(const std::vector<uint8_t>& b, uint64_t at, int n) {
  uint64_t v = 0;
  if (at > b.size() || b.size() - at < static_cast<uint64_t>(n)) return 0;
  std::memcpy(&v, b.data() + at, static_cast<size_t>(n));
  return v;
}

// The file offset of virtual address \a v (PT_LOAD, within its file bytes), if any.
std::optional<uint64_t> offset_of(const std::vector<uint8_t>& b, uint64_t v) {
  const uint64_t phoff = get(b, 0x20, 8), entsize = get(b, 0x36, 2), phnum = get(b, 0x38, 2);
  for (uint64_t i = 0; i < phnum && entsize >= 56; ++i) {
    const uint64_t at = phoff + i * entsize;
    if (get(b, at, 4) != 1) continue;
    const uint64_t off = get(b, at + 8, 8), vaddr = get(b, at + 16, 8), filesz = get(b, at + 32, 8);
    if (v >= vaddr && v - vaddr < filesz && off + (v - vaddr) < b.size()) return off + (v - vaddr);
  }
  return std::nullopt;
}

struct Pointer {
  uint64_t where = 0, value = 0;
};

// S + A of every RELA entry of an allocated section, in file order.
std::vector<Pointer> pointers(const std::vector<uint8_t>& b) {
  auto elf = try_open_elf(ByteSlice(b.data(), b.size()));
  check(elf.has_value());
  std::vector<Pointer> out;
  for (const auto& s : elf->sections) {
    if (s.type != 4 || !(s.flags & 2) || !s.in_file()) continue;
    const ElfSection* symtab = s.link < elf->sections.size() ? &elf->sections[s.link] : nullptr;
    for (uint64_t k = 0; k + 24 <= s.size && s.offset + k + 24 <= b.size(); k += 24) {
      const uint64_t at = s.offset + k, sym = get(b, at + 8, 8) >> 32;
      uint64_t value = get(b, at + 16, 8);
      if (sym && symtab && symtab->in_file()) value += get(b, symtab->offset + sym * 24 + 8, 8);
      out.push_back({get(b, at, 8), value});
    }
  }
  return out;
}

// Whether the 16 bytes at virtual address \a v of \a kept are those at \a w of
// \a compacted, but for the bytes \a patched marks. An address no segment of
// \a kept maps has no bytes to keep: a merged segment may now map what lay
// between two segments (a relocation into that gap is ill-formed input).
bool same_bytes(const std::vector<uint8_t>& kept, uint64_t v, const std::vector<uint8_t>& compacted, uint64_t w,
                const std::vector<char>& patched) {
  auto k = offset_of(kept, v), c = offset_of(compacted, w);
  if (!k) return true;
  if (!c) return false;
  const uint64_t n = std::min<uint64_t>(16, kept.size() - *k);
  if (n != std::min<uint64_t>(16, compacted.size() - *c)) return false;
  for (uint64_t j = 0; j < n; ++j)
    if (!patched[*c + j] && kept[*k + j] != compacted[*c + j]) return false;
  return true;
}

struct VectorSink : CompactSink {
  const std::vector<uint8_t>& source;
  std::vector<uint8_t> out;
  explicit VectorSink(const std::vector<uint8_t>& s) : source(s), out(s.size(), 0) {}
  void write(uint64_t offset, ByteSlice bytes) override {
    check(offset + bytes.size() <= out.size());
    std::memcpy(out.data() + offset, bytes.data(), bytes.size());
  }
  void copy(uint64_t to, uint64_t from, uint64_t length) override {
    check(from + length <= source.size() && to + length <= out.size());
    std::memmove(out.data() + to, source.data() + from, length);
  }
  void truncate(uint64_t size) override {
    check(size <= out.size());
    out.resize(size);
  }
};

// Reads every table binfmt/elf_file offers; each is bounds-checked or throws.
void read_tables(const ElfFile& elf) {
  auto each = [](auto read) {
    try {
      read();
    } catch (const DiagnosticError&) {}
  };
  each([&] { (void)elf.segments(); });
  each([&] { (void)elf.dynamic_entries(); });
  for (const auto& s : elf.sections) {
    if (s.type == SHT_RELA || s.type == SHT_REL) each([&] { (void)elf.relocations(s); });
    if (s.type == SHT_SYMTAB || s.type == SHT_DYNSYM) each([&] { (void)elf.symbols(s); });
  }
}

const uint32_t kSms[] = {61, 75, 80, 86, 89, 90, 100, 120};

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  if (size < 2) return 0;
  const uint32_t sm = kSms[data[0] % (sizeof kSms / sizeof kSms[0])];
  std::vector<PruneTarget> targets{PruneTarget{std::to_string(sm), sm, {}}};
  const std::vector<uint8_t> original(data + 1, data + size);
  std::optional<ElfFile> elf;
  RewritePlan plan;
  CompactionPlan compaction;
  try {
    elf = try_open_elf(ByteSlice(original.data(), original.size()));
    if (!elf) return 0;
    read_tables(*elf);
    plan = plan_rewrite(*elf, targets, data[0] & 0x80);
    if (!plan.changes()) return 0;
    compaction = plan_compaction(*elf, plan, {.reuse_note_header = (data[0] & 0x40) != 0});
  } catch (const DiagnosticError&) {
    return 0;
  }
  if (!compaction.compacts()) return 0;
  // --no-compact: the same rewrite, in place.
  std::vector<uint8_t> kept = original;
  SliceReader source(ByteSlice(original.data(), original.size()));
  try {
    BufferSink sink(kept);
    apply_rewrite(plan, source, sink);
  } catch (const DiagnosticError&) {
    return 0;  // a container the reader could not read: prune refuses the file
  }
  VectorSink compacted(original);
  apply_compaction(compaction, plan, source, compacted);
  check(compacted.out.size() == compaction.new_size && compacted.out.size() < original.size());
  std::vector<char> patched(compacted.out.size(), 0);
  for (const auto& p : compaction.patches)
    for (uint64_t j = p.to; j < p.to + p.bytes.size() && j < patched.size(); ++j) patched[j] = 1;
  const auto before = pointers(kept), after = pointers(compacted.out);
  check(before.size() == after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    check(before[i].where == after[i].where);
    check(same_bytes(kept, before[i].value, compacted.out, after[i].value, patched));
  }
  return 0;
}
