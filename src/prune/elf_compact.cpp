#include "prune/elf_compact.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {

constexpr uint32_t kPtLoad = 1, kPtInterp = 3, kPtGnuRelro = 0x6474e552;
constexpr uint32_t kPfW = 2, kPfR = 4;
constexpr uint32_t kShtSymtab = 2, kShtRela = 4, kShtRel = 9, kShtDynsym = 11, kShtRelr = 19;
constexpr uint64_t kShfAlloc = 2, kShfExecInstr = 4;
constexpr uint32_t kWrapperMagic = 0x466243B1;  // __fatBinC_Wrapper_t (fatbinary_section.h)
constexpr uint64_t kWrapperSize = 24;           // magic, version, data pointer, filename_or_fatbins
constexpr uint64_t kPhdrSize = 56, kShdrSize = 64, kRelaSize = 24, kSymSize = 24;

struct Phdr {
  uint32_t type = 0, flags = 0;
  uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
  uint64_t end() const { return offset + filesz; }
};

uint64_t get64(const std::vector<uint8_t>& b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | b[at + i];
  return v;
}
uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint32_t>(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint32_t>(b[at + 3]) << 24);
}
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

std::vector<uint8_t> read_bytes(const ByteReader& r, uint64_t offset, uint64_t n, std::string_view what) {
  std::vector<uint8_t> buf;
  ByteSlice s = r.read(offset, n, what, buf);
  return {s.data(), s.data() + s.size()};
}

Phdr parse_phdr(const std::vector<uint8_t>& t, size_t at) {
  Phdr p;
  p.type = get32(t, at);
  p.flags = get32(t, at + 4);
  p.offset = get64(t, at + 8);
  p.vaddr = get64(t, at + 16);
  p.paddr = get64(t, at + 24);
  p.filesz = get64(t, at + 32);
  p.memsz = get64(t, at + 40);
  p.align = get64(t, at + 48);
  return p;
}

void store_phdr(std::vector<uint8_t>& t, size_t at, const Phdr& p) {
  put32(t, at, p.type);
  put32(t, at + 4, p.flags);
  put64(t, at + 8, p.offset);
  put64(t, at + 16, p.vaddr);
  put64(t, at + 24, p.paddr);
  put64(t, at + 32, p.filesz);
  put64(t, at + 40, p.memsz);
  put64(t, at + 48, p.align);
}

uint64_t relative_type(uint16_t machine) { return machine == 62 ? 8 : 1027; }  // R_X86_64_RELATIVE, R_AARCH64_RELATIVE

// Thrown inside planning: the reason the file keeps its layout.
struct Refusal {
  std::string why;
};
[[noreturn]] void refuse(std::string why) { throw Refusal{std::move(why)}; }

CompactionPlan plan_or_throw(const ElfFile& elf, const RewritePlan& rw) {
  CompactionPlan p;
  p.old_size = p.new_size = elf.size();
  const ByteReader& r = *elf.reader;
  if (!rw.changes()) refuse("nothing removed");
  if (elf.bits != 64 || elf.big_endian || (elf.machine != 62 && elf.machine != 183))
    refuse(fmt::format("a {}-bit {} file (compaction knows little-endian 64-bit x86_64 and aarch64)", elf.bits,
                       elf_machine_name(elf.machine, elf.big_endian)));
  if (elf.type != 3) refuse(fmt::format("not a shared library (e_type {})", elf.type));
  for (const auto& c : rw.containers)
    if (c.relocatable && c.changes()) refuse("__nv_relfatbin (relocatable device code) is pruned in place");
  size_t fi = elf.sections.size();
  for (size_t i = 0; i < elf.sections.size(); ++i)
    if (elf.sections[i].name == ".nv_fatbin" && elf.sections[i].in_file()) {
      if (fi != elf.sections.size()) refuse("more than one .nv_fatbin section");
      fi = i;
    }
  if (fi == elf.sections.size()) refuse("no .nv_fatbin section");
  const ElfSection& F = elf.sections[fi];
  const uint64_t fo = F.offset, B = F.offset + F.size, fv = F.addr;

  const std::vector<uint8_t> eh = read_bytes(r, 0, 64, "ELF header");
  const uint64_t phoff = get64(eh, 32);
  const uint16_t phentsize = static_cast<uint16_t>(eh[54] | eh[55] << 8),
                 phnum = static_cast<uint16_t>(eh[56] | eh[57] << 8);
  if (phentsize != kPhdrSize || phnum == 0 || phnum == 0xffff) refuse("unusual program header table");
  if (phoff + phnum * kPhdrSize > fo) refuse("the program headers lie after .nv_fatbin");
  std::vector<uint8_t> pt = read_bytes(r, phoff, phnum * kPhdrSize, "program headers");
  std::vector<Phdr> ph;
  for (size_t i = 0; i < phnum; ++i) ph.push_back(parse_phdr(pt, i * kPhdrSize));
  if (elf.section_table_offset == 0) refuse("no section headers");
  if (elf.section_table_offset < B && elf.section_table_offset + elf.section_table_size > fo)
    refuse("the section headers overlap .nv_fatbin");

  // L: the PT_LOAD holding .nv_fatbin; N: the PT_LOAD after it.
  size_t L = ph.size(), N = ph.size();
  uint64_t align = 1;
  for (size_t i = 0; i < ph.size(); ++i) {
    if (ph[i].type == kPtInterp) refuse("an executable (PT_INTERP): the kernel finds its program headers by offset");
    if (ph[i].type != kPtLoad) continue;
    align = std::max<uint64_t>(align, ph[i].align);
    if (ph[i].offset <= fo && B <= ph[i].end()) L = i;
  }
  if (L == ph.size()) refuse(".nv_fatbin is in no PT_LOAD segment");
  const Phdr l = ph[L];
  if (l.memsz != l.filesz) refuse(".nv_fatbin's segment has bytes past its file size");
  for (size_t i = 0; i < ph.size(); ++i)
    if (ph[i].type == kPtLoad && ph[i].offset > l.offset && (N == ph.size() || ph[i].offset < ph[N].offset)) N = i;
  if ((align & (align - 1)) != 0) refuse(fmt::format("segment alignment {:#x} is not a power of two", align));
  if (N != ph.size() && (ph[N].offset < l.end() || ph[N].vaddr < l.vaddr + l.memsz))
    refuse("the segment after .nv_fatbin's overlaps it");

  // The containers of .nv_fatbin, moved together (8-byte aligned, as nvcc lays them).
  uint64_t cursor = fo;
  std::map<uint64_t, uint64_t> new_vaddr;  // old container address -> new
  std::map<uint64_t, size_t> move_of;      // old container address -> move
  for (size_t i = 0; i < rw.containers.size(); ++i) {
    const ContainerPlan& c = rw.containers[i];
    if (c.offset < fo || c.offset >= B) continue;
    CompactionPlan::Move m;
    m.from = c.offset;
    m.to = (cursor + 7) / 8 * 8;
    m.new_bytes = c.header_size + c.new_payload;
    m.container = i;
    cursor = m.to + m.new_bytes;
    new_vaddr[fv + (m.from - fo)] = fv + (m.to - fo);
    move_of[fv + (m.from - fo)] = p.moves.size();
    p.moves.push_back(m);
  }
  const uint64_t kept_end = cursor;

  // How far the bytes after .nv_fatbin move. With sections after it in its
  // segment (the tail), the tail joins segment N and moves by D = D2 + gap.
  const bool tail = B < l.end();
  uint64_t D2 = 0, gap = 0, rest = B;
  size_t relro = ph.size();
  if (tail) {
    if (N == ph.size()) refuse("sections follow .nv_fatbin in the last loadable segment");
    const Phdr& n = ph[N];
    if (!(n.flags & kPfW)) refuse("the segment after .nv_fatbin's is not writable: its tail has nowhere to go");
    const uint64_t d1 = l.vaddr - l.offset, d2 = n.vaddr - n.offset;
    if (n.vaddr - n.offset < l.vaddr - l.offset || d1 % align != 0 || d2 % align != 0)
      refuse("segment offsets and addresses are not aligned alike");
    gap = d2 - d1;
    for (size_t i = 0; i < ph.size(); ++i)
      if (ph[i].type == kPtGnuRelro && ph[i].vaddr == n.vaddr) relro = i;
    if (relro == ph.size())
      refuse("no PT_GNU_RELRO at the start of the writable segment: the read-only tail would stay writable");
    for (const auto& s : elf.sections)
      if (s.in_file() && s.offset >= B && s.offset < l.end() && (s.flags & kShfExecInstr))
        refuse(fmt::format("executable section {} follows .nv_fatbin in its segment", s.name));
    rest = n.offset;
  }
  const uint64_t avail = B - kept_end;
  if (avail < gap + align)
    refuse(fmt::format("{} bytes freed in .nv_fatbin, less than the segment alignment {:#x}{}", avail, align,
                       gap ? fmt::format(" plus {:#x}", gap) : ""));
  D2 = (avail - gap) / align * align;
  const uint64_t D = D2 + gap, A = B - D;

  auto map_off = [&](uint64_t o) -> uint64_t {
    if (o < fo) return o;
    if (o >= rest) return o - D2;
    if (o >= B) return o - D;
    refuse(fmt::format("offset {:#x} lies inside .nv_fatbin", o));
  };

  // Sections: each wholly in the head, the tail or the rest.
  for (size_t i = 0; i < elf.sections.size(); ++i) {
    const ElfSection& s = elf.sections[i];
    if (i == fi || !s.in_file() || s.size == 0) continue;
    const uint64_t e = s.offset + s.size;
    bool ok = e <= fo || s.offset >= rest || (s.offset >= B && e <= rest);
    if (!ok) refuse(fmt::format("section {} straddles the bytes that move", s.name));
  }

  // Program headers.
  for (size_t i = 0; i < ph.size(); ++i) {
    Phdr& q = ph[i];
    if (i == L) {
      q.filesz = q.memsz = kept_end - l.offset;
    } else if (tail && i == N) {
      const uint64_t v = l.vaddr + (B - l.offset), end_v = q.vaddr + q.memsz, end_o = q.end() - D2;
      q.offset = A;
      q.vaddr = q.paddr = v;
      q.filesz = end_o - A;
      q.memsz = end_v - v;
      q.flags |= kPfR;  // the tail stays readable, and read-only again under RELRO
    } else if (tail && i == relro) {
      const uint64_t v = l.vaddr + (B - l.offset), end_v = q.vaddr + q.memsz;
      q.offset = A;
      q.vaddr = q.paddr = v;
      q.filesz = q.memsz = end_v - v;
    } else if (q.filesz == 0 && q.offset == 0) {
      continue;  // PT_GNU_STACK and the like
    } else if (q.end() <= fo) {
      continue;
    } else if (q.offset >= rest || (q.offset >= B && q.end() <= rest)) {
      q.offset = map_off(q.offset);
    } else {
      refuse(fmt::format("program header {} (type {:#x}) overlaps the bytes that move", i, q.type));
    }
    store_phdr(pt, i * kPhdrSize, q);
  }
  p.patches.push_back({phoff, std::move(pt)});

  // Wrappers: each data pointer is a container's address, set by a RELATIVE relocation.
  const ElfSection* seg = elf.find(".nvFatBinSegment");
  if (!seg || !seg->in_file() || seg->size % kWrapperSize != 0) refuse("no .nvFatBinSegment of whole wrappers");
  std::vector<uint8_t> wraps = read_bytes(r, seg->offset, seg->size, ".nvFatBinSegment");
  std::map<uint64_t, size_t> slot_of;  // address of a wrapper's data pointer -> wrapper
  for (size_t i = 0; i * kWrapperSize < wraps.size(); ++i) {
    if (get32(wraps, i * kWrapperSize) != kWrapperMagic)
      refuse(fmt::format("wrapper {} of .nvFatBinSegment has magic {:#x}", i, get32(wraps, i * kWrapperSize)));
    slot_of[seg->addr + i * kWrapperSize + 8] = i;
  }
  std::vector<uint64_t> covered(slot_of.size(), 0);  // the fatbin address a wrapper's relocation sets
  std::vector<char> has_reloc(slot_of.size(), 0);
  std::set<uint64_t> referenced;
  const uint64_t fend_v = fv + F.size;
  for (const auto& s : elf.sections) {
    if (!(s.flags & kShfAlloc)) continue;
    if (s.type == kShtRel || s.type == kShtRelr)
      refuse(fmt::format("{} relocations in {} (compaction reads RELA)", s.type == kShtRel ? "REL" : "RELR", s.name));
    if (s.type != kShtRela) continue;
    if (s.size % kRelaSize != 0) refuse(fmt::format("{} is not whole relocations", s.name));
    std::vector<uint8_t> rel = read_bytes(r, s.offset, s.size, s.name);
    // A relocation relative to a symbol of .nv_fatbin ("sym+0x520") points in whatever its
    // addend: the symbols move with their containers, the byte it means may not. A symbol
    // whose value lies in .nv_fatbin counts whatever its section index: glibc's loader takes
    // a local symbol's value as it stands, SHN_UNDEF or not (RESOLVE_MAP, SYMBOL_ADDRESS).
    std::set<uint64_t> in_fatbin;
    uint64_t symbols = 0;
    const ElfSection* symtab = s.link < elf.sections.size() ? &elf.sections[s.link] : nullptr;
    if (symtab && (symtab->type == kShtSymtab || symtab->type == kShtDynsym) && symtab->in_file()) {
      std::vector<uint8_t> syms = read_bytes(r, symtab->offset, symtab->size - symtab->size % kSymSize, symtab->name);
      symbols = syms.size() / kSymSize;
      for (size_t k = 0; k * kSymSize < syms.size(); ++k) {
        const size_t shndx = static_cast<size_t>(syms[k * kSymSize + 6] | syms[k * kSymSize + 7] << 8);
        const uint64_t v = get64(syms, k * kSymSize + 8);
        if (shndx == fi || (v >= fv && v < fend_v)) in_fatbin.insert(k);
      }
    } else {
      symtab = nullptr;
    }
    for (size_t k = 0; k * kRelaSize < rel.size(); ++k) {
      const uint64_t off = get64(rel, k * kRelaSize), info = get64(rel, k * kRelaSize + 8),
                     addend = get64(rel, k * kRelaSize + 16);
      if (off >= fv && off < fend_v) refuse(fmt::format("a relocation applies inside .nv_fatbin at {:#x}", off));
      const uint64_t sym = info >> 32;
      if (sym != 0 && (!symtab || sym >= symbols || in_fatbin.count(sym)))
        refuse(fmt::format("relocation at {:#x} is relative to symbol {} {}", off, sym,
                           !symtab          ? "of no symbol table"
                           : sym >= symbols ? "past its symbol table"
                                            : "of .nv_fatbin: it points in, whatever its addend"));
      auto slot = slot_of.find(off);
      if (slot != slot_of.end()) has_reloc[slot->second] = 1;  // a wrapper of __nv_relfatbin points elsewhere
      if (addend < fv || addend >= fend_v) continue;
      auto to = new_vaddr.find(addend);
      if ((info & 0xffffffff) != relative_type(elf.machine) || slot == slot_of.end() || to == new_vaddr.end())
        refuse(
            fmt::format("relocation at {:#x} points into .nv_fatbin ({:#x}) but is no wrapper's pointer to a "
                        "container",
                        off, addend));
      covered[slot->second] = addend;
      referenced.insert(addend);
      std::vector<uint8_t> a(8);
      put64(a, 0, to->second);
      p.patches.push_back({map_off(s.offset + k * kRelaSize + 16), std::move(a)});
    }
  }
  for (const auto& [addr, i] : slot_of) {
    if (!has_reloc[i]) refuse(fmt::format("wrapper {} of .nvFatBinSegment has no RELA relocation", i));
    if (!covered[i]) continue;
    const uint64_t stored = get64(wraps, i * kWrapperSize + 8);
    if (stored == 0) continue;  // the loader writes it
    if (stored != covered[i])
      refuse(fmt::format("wrapper {} stores {:#x}, not its relocation's {:#x}", i, stored, covered[i]));
    std::vector<uint8_t> a(8);
    put64(a, 0, new_vaddr[covered[i]]);
    p.patches.push_back({map_off(seg->offset + i * kWrapperSize + 8), std::move(a)});
  }
  for (const auto& [old, now] : new_vaddr)
    if (!referenced.count(old) && old != now)
      refuse(fmt::format("the container at {:#x} is no wrapper's: something else may point at it", old));

  // Symbols defined in .nv_fatbin (fatbinData of each unit) follow their container.
  const uint64_t new_end_v = fv + (kept_end - fo);
  for (const auto& s : elf.sections) {
    if ((s.type != kShtSymtab && s.type != kShtDynsym) || !s.in_file()) continue;
    std::vector<uint8_t> syms = read_bytes(r, s.offset, s.size - s.size % kSymSize, s.name);
    for (size_t k = 0; k * kSymSize < syms.size(); ++k) {
      const size_t at = k * kSymSize;
      if (static_cast<size_t>(syms[at + 6] | syms[at + 7] << 8) != fi) continue;
      const uint64_t v = get64(syms, at + 8), size = get64(syms, at + 16);
      uint64_t nv = new_end_v, nsize = 0;
      auto c = new_vaddr.upper_bound(v);
      if (c != new_vaddr.begin()) {
        --c;
        const auto& m = p.moves[move_of[c->first]];
        const uint64_t inside = std::min(v - c->first, m.new_bytes);
        nv = c->second + inside;
        nsize = std::min(size, m.new_bytes - inside);
      }
      if (v < fv) nv = v, nsize = size;
      if (nv == v && nsize == size) continue;
      std::vector<uint8_t> e(syms.begin() + static_cast<long>(at), syms.begin() + static_cast<long>(at + kSymSize));
      put64(e, 8, nv);
      put64(e, 16, nsize);
      p.patches.push_back({map_off(s.offset + at), std::move(e)});
    }
  }

  // Section headers, then the ELF header's pointer to them.
  std::vector<uint8_t> sh = read_bytes(r, elf.section_table_offset, elf.section_table_size, "section headers");
  const size_t shentsize = elf.sections.empty() ? kShdrSize : elf.section_table_size / elf.sections.size();
  if (shentsize != kShdrSize) refuse("unusual section header size");
  for (size_t i = 1; i < elf.sections.size(); ++i) {
    const ElfSection& s = elf.sections[i];
    if (s.type == 0) continue;
    if (i == fi) {
      put64(sh, i * kShdrSize + 32, kept_end - fo);
      continue;
    }
    if (s.offset < fo) continue;
    if (s.offset >= B) put64(sh, i * kShdrSize + 24, map_off(s.offset));
  }
  const uint64_t new_shoff = map_off(elf.section_table_offset);
  p.patches.push_back({new_shoff, std::move(sh)});
  std::vector<uint8_t> shoff(8);
  put64(shoff, 0, new_shoff);
  p.patches.push_back({40, std::move(shoff)});

  p.head_end = fo;
  p.zeros.push_back({kept_end, A});
  if (tail) {
    p.copies.push_back({A, B, rest - B});
    p.zeros.push_back({rest - D, rest - D2});
  }
  p.copies.push_back({rest - D2, rest, p.old_size - rest});
  p.new_size = p.old_size - D2;
  return p;
}

// Copies [from, from + n) to \a to in the sink, as moves: the source may be the sink's own file.
void move_bytes(CompactSink& sink, uint64_t to, uint64_t from, uint64_t n) {
  if (n) sink.copy(to, from, n);
}

}  // namespace

CompactionPlan plan_compaction(const ElfFile& elf, const RewritePlan& rewrite) {
  try {
    return plan_or_throw(elf, rewrite);
  } catch (const Refusal& r) {
    CompactionPlan p;
    p.old_size = p.new_size = elf.size();
    p.refused = r.why;
    return p;
  } catch (const DiagnosticError& e) {  // a table the reader could not read: keep the layout
    CompactionPlan p;
    p.old_size = p.new_size = elf.size();
    p.refused = e.diagnostic().message;
    return p;
  }
}

void apply_compaction(const CompactionPlan& plan, const RewritePlan& rw, const ByteReader& source, CompactSink& sink) {
  move_bytes(sink, 0, 0, plan.head_end);
  std::vector<uint8_t> buf;
  for (const auto& m : plan.moves) {
    const ContainerPlan& c = rw.containers[m.container];
    if (!c.changes()) {
      move_bytes(sink, m.to, m.from, m.new_bytes);
      continue;
    }
    ByteSlice h = source.read(c.offset, c.header_size, "fatbin container header", buf);
    std::vector<uint8_t> header(h.data(), h.data() + h.size());
    put64(header, 8, c.new_payload);
    sink.write(m.to, ByteSlice(header.data(), header.size()));
    uint64_t at = m.to + c.header_size;
    for (size_t i = 0; i < c.entries.size(); ++i) {
      if (!c.choice.keep[i]) continue;
      move_bytes(sink, at, c.entries[i].offset, c.entries[i].stored_bytes());
      at += c.entries[i].stored_bytes();
    }
  }
  for (const auto& k : plan.copies) move_bytes(sink, k.to, k.from, k.length);
  static const std::vector<uint8_t> zeros(1 << 16, 0);
  for (const auto& [from, to] : plan.zeros)
    for (uint64_t at = from; at < to; at += zeros.size())
      sink.write(at, ByteSlice(zeros.data(), std::min<uint64_t>(zeros.size(), to - at)));
  for (const auto& pa : plan.patches) sink.write(pa.to, ByteSlice(pa.bytes.data(), pa.bytes.size()));
  sink.truncate(plan.new_size);
}

}  // namespace tailor
