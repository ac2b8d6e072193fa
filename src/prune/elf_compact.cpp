#include "prune/elf_compact.hpp"

#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {

constexpr uint32_t kWrapperMagic = 0x466243B1;  // __fatBinC_Wrapper_t (fatbinary_section.h)
constexpr uint64_t kWrapperSize = 24;           // magic, version, data pointer, filename_or_fatbins
constexpr uint64_t kWrapperData = 8;            // the data pointer's offset in a wrapper

// Compaction writes little-endian ELF64 only (Planner::check_file refuses the rest).
template <class T>
void put_le(std::vector<uint8_t>& b, size_t at, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) b[at + i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
}
std::vector<uint8_t> le64(uint64_t v) {
  std::vector<uint8_t> b(8);
  put_le(b, 0, v);
  return b;
}

// An Elf64_Phdr's bytes (its eight fields fill it: no padding to keep).
void put_segment(std::vector<uint8_t>& b, size_t at, const ElfSegment& p) {
  put_le<uint32_t>(b, at + offsetof(Elf64_Phdr, p_type), p.type);
  put_le<uint32_t>(b, at + offsetof(Elf64_Phdr, p_flags), p.flags);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_offset), p.offset);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_vaddr), p.vaddr);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_paddr), p.paddr);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_filesz), p.filesz);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_memsz), p.memsz);
  put_le<uint64_t>(b, at + offsetof(Elf64_Phdr, p_align), p.align);
}

// An Elf64_Sym's bytes (its six fields fill it).
std::vector<uint8_t> symbol_bytes(const ElfSymbol& s) {
  std::vector<uint8_t> b(sizeof(Elf64_Sym));
  put_le<uint32_t>(b, offsetof(Elf64_Sym, st_name), s.name);
  put_le<uint8_t>(b, offsetof(Elf64_Sym, st_info), s.info);
  put_le<uint8_t>(b, offsetof(Elf64_Sym, st_other), s.other);
  put_le<uint16_t>(b, offsetof(Elf64_Sym, st_shndx), s.shndx);
  put_le<uint64_t>(b, offsetof(Elf64_Sym, st_value), s.value);
  put_le<uint64_t>(b, offsetof(Elf64_Sym, st_size), s.size);
  return b;
}

uint32_t relative_type(uint16_t machine) { return machine == EM_X86_64 ? R_X86_64_RELATIVE : R_AARCH64_RELATIVE; }

// Thrown inside planning: the reason the file keeps its layout.
struct Refusal {
  std::string why;
};
[[noreturn]] void refuse(std::string why) { throw Refusal{std::move(why)}; }

// One compaction plan, step by step: each step refuses (throws Refusal) or
// leaves its findings in the members the next steps read. One hole (the section
// that shrinks), or two (two_: both fatbin sections, the PT_NOTE header reused).
class Planner {
 public:
  Planner(const ElfFile& elf, const RewritePlan& rw, bool two) : elf_(elf), rw_(rw), two_(two) {
    p_.old_size = p_.new_size = elf.size();
  }

  CompactionPlan run() {
    check_file();
    choose_holes();
    for (Hole& h : holes_) find_fatbin(h);
    read_segments();
    find_loads();
    for (Hole& h : holes_) move_containers(h);
    place_middle();
    place_tail();
    check_sections();
    prune_outside();
    patch_segments();
    read_wrappers();
    check_tables_apart();
    for (const auto& s : elf_.sections) follow_relocations(s);
    patch_wrappers();
    for (const auto& s : elf_.sections) move_symbols(s);
    patch_section_headers();
    finish();
    return std::move(p_);
  }

 private:
  // A section whose freed bytes leave the file: its section index, [offset, end) in the
  // file, [addr, end_addr) in memory, and the file offset past its moved containers.
  struct Hole {
    std::string name;
    size_t index = 0;
    uint64_t offset = 0, end = 0, addr = 0, end_addr = 0, kept_end = 0;
    bool holds(uint64_t off) const { return off >= offset && off < end; }
    bool holds_addr(uint64_t a) const { return a >= addr && a < end_addr; }
  };

  // What compaction knows: a little-endian 64-bit shared library whose fatbins lose bytes.
  void check_file() const {
    if (!rw_.changes()) refuse("nothing removed");
    if (elf_.bits != 64 || elf_.big_endian || (elf_.machine != EM_X86_64 && elf_.machine != EM_AARCH64))
      refuse(fmt::format("a {}-bit {} file (compaction knows little-endian 64-bit x86_64 and aarch64)", elf_.bits,
                         elf_machine_name(elf_.machine, elf_.big_endian)));
    if (elf_.type != ET_DYN) refuse(fmt::format("not a shared library (e_type {})", elf_.type));
  }

  // One hole: .nv_fatbin, or __nv_relfatbin (relocatable device code) where it frees more.
  // The bytes after it in its segment join the next segment, and a second hole there would
  // need a program header of its own; the other section's containers are pruned where they
  // land (their freed bytes stay zeros). Two: both (read_segments puts them in file order).
  void choose_holes() {
    uint64_t linked = 0, relocatable = 0;
    for (const auto& c : rw_.containers) (c.relocatable ? relocatable : linked) += c.old_payload - c.new_payload;
    if (!two_) {
      holes_.push_back({relocatable > linked ? "__nv_relfatbin" : ".nv_fatbin"});
      return;
    }
    if (!linked || !relocatable) refuse("only one fatbin section frees bytes");
    holes_.push_back({"__nv_relfatbin"});
    holes_.push_back({".nv_fatbin"});
  }

  void find_fatbin(Hole& h) {
    h.index = elf_.sections.size();
    for (size_t i = 0; i < elf_.sections.size(); ++i)
      if (elf_.sections[i].name == h.name && elf_.sections[i].in_file()) {
        if (h.index != elf_.sections.size()) refuse(fmt::format("more than one {} section", h.name));
        h.index = i;
      }
    if (h.index == elf_.sections.size()) refuse(fmt::format("no {} section", h.name));
    const ElfSection& f = elf_.sections[h.index];
    elf_.section_reader(f);  // throws when its bytes lie outside the file
    h.offset = f.offset;
    h.end = f.offset + f.size;
    h.addr = f.addr;
    h.end_addr = f.addr + f.size;
  }

  const Hole& first() const { return holes_.front(); }
  const Hole& last() const { return holes_.back(); }
  const Hole* hole_of_section(size_t index) const {
    for (const Hole& h : holes_)
      if (h.index == index) return &h;
    return nullptr;
  }
  const Hole* hole_at(uint64_t addr) const {
    for (const Hole& h : holes_)
      if (h.holds_addr(addr)) return &h;
    return nullptr;
  }
  bool in_hole(uint64_t off) const {
    for (const Hole& h : holes_)
      if (h.holds(off)) return true;
    return false;
  }

  // The program headers stay where they are, so they must lie before the sections that shrink.
  void read_segments() {
    if (two_) {
      if (holes_[1].offset < holes_[0].offset) std::swap(holes_[0], holes_[1]);
      if (holes_[1].offset < holes_[0].end) refuse("the two fatbin sections overlap");
    }
    const uint64_t phoff = elf_.program_table_offset, phnum = elf_.program_count;
    if (elf_.program_entry_size != sizeof(Elf64_Phdr) || phnum == 0 || phnum == PN_XNUM)
      refuse("unusual program header table");
    if (phoff > first().offset || phnum * sizeof(Elf64_Phdr) > first().offset - phoff)
      refuse(fmt::format("the program headers lie after {}", first().name));
    segs_ = elf_.segments();
    const uint64_t shoff = elf_.section_table_offset;
    for (const Hole& h : holes_)
      if (shoff < h.end && shoff + elf_.section_table_size > h.offset)
        refuse(fmt::format("the section headers overlap {}", h.name));
  }

  // load_: the PT_LOAD holding the holes; next_: the PT_LOAD after it (segs_.size(): none).
  void find_loads() {
    load_ = next_ = note_ = segs_.size();
    const uint64_t from = first().offset, to = last().end;
    const std::string& hole = first().name;
    for (size_t i = 0; i < segs_.size(); ++i) {
      if (segs_[i].type == PT_INTERP)
        refuse("an executable (PT_INTERP): the kernel finds its program headers by offset");
      if (segs_[i].type == PT_NOTE && note_ == segs_.size()) note_ = i;
      if (segs_[i].type != PT_LOAD) continue;
      align_ = std::max<uint64_t>(align_, segs_[i].align);
      if (segs_[i].offset <= from && to <= segs_[i].end()) load_ = i;
    }
    if (load_ == segs_.size())
      refuse(two_ ? std::string("the two fatbin sections are not in one PT_LOAD segment")
                  : fmt::format("{} is in no PT_LOAD segment", hole));
    if (two_ && note_ == segs_.size()) refuse("no PT_NOTE program header to reuse");
    const ElfSegment& l = segs_[load_];
    if (l.memsz != l.filesz) refuse(fmt::format("{}'s segment has bytes past its file size", hole));
    // Pointers into a hole are found by its address: it must be where the segment maps its bytes.
    for (const Hole& h : holes_)
      if (h.addr != l.vaddr + (h.offset - l.offset))
        refuse(
            fmt::format("{}'s address {:#x} is not where its segment maps its offset {:#x}", h.name, h.addr, h.offset));
    for (size_t i = 0; i < segs_.size(); ++i)
      if (segs_[i].type == PT_LOAD && segs_[i].offset > l.offset &&
          (next_ == segs_.size() || segs_[i].offset < segs_[next_].offset))
        next_ = i;
    if ((align_ & (align_ - 1)) != 0) refuse(fmt::format("segment alignment {:#x} is not a power of two", align_));
    if (next_ != segs_.size() && (segs_[next_].offset < l.end() || segs_[next_].vaddr < l.vaddr + l.memsz))
      refuse(fmt::format("the segment after {}'s overlaps it", hole));
  }

  // The containers of a hole, moved together (8-byte aligned, as nvcc lays them), at
  // their old offsets (place_middle moves the second hole's down with M).
  void move_containers(Hole& h) {
    uint64_t cursor = h.offset;
    for (size_t i = 0; i < rw_.containers.size(); ++i) {
      const ContainerPlan& c = rw_.containers[i];
      if (!h.holds(c.offset)) continue;
      CompactionPlan::Move m;
      m.from = c.offset;
      m.to = (cursor + 7) / 8 * 8;
      m.new_bytes = c.header_size + c.new_payload;
      m.container = i;
      cursor = m.to + m.new_bytes;
      new_vaddr_[h.addr + (m.from - h.offset)] = h.addr + (m.to - h.offset);
      move_of_[h.addr + (m.from - h.offset)] = p_.moves.size();
      p_.moves.push_back(m);
    }
    h.kept_end = cursor;
  }

  // Two holes: M (the bytes between them) and the second hole's kept containers move down
  // by middle_shift_, whole alignments of the first hole's freed bytes, in a PT_LOAD of
  // their own (the reused PT_NOTE header): their addresses stay, read-only as they were.
  void place_middle() {
    if (!two_) return;
    const ElfSegment& l = segs_[load_];
    if ((l.vaddr - l.offset) % align_ != 0) refuse("segment offsets and addresses are not aligned alike");
    const uint64_t avail = first().end - first().kept_end;
    middle_shift_ = avail / align_ * align_;
    if (middle_shift_ == 0)
      refuse(fmt::format("{} bytes freed in {}, less than the segment alignment {:#x}", avail, first().name, align_));
    for (const auto& s : elf_.sections)
      if (s.in_file() && s.offset >= first().end && s.offset < last().end && (s.flags & SHF_EXECINSTR))
        refuse(fmt::format("executable section {} lies between {} and {}", s.name, first().name, last().name));
    for (auto& m : p_.moves)
      if (last().holds(m.from)) m.to -= middle_shift_;
  }

  // How far the bytes after the last hole move. With sections after it in its segment (the
  // tail), the tail joins the next segment and moves by tail_shift_ = rest_shift_ + gap.
  void place_tail() {
    const ElfSegment& l = segs_[load_];
    const uint64_t end = last().end;
    const std::string& hole = last().name;
    tail_ = end < l.end();
    rest_ = end;
    relro_ = segs_.size();
    uint64_t gap = 0;
    if (tail_) {
      if (next_ == segs_.size()) refuse(fmt::format("sections follow {} in the last loadable segment", hole));
      const ElfSegment& n = segs_[next_];
      if (!(n.flags & PF_W))
        refuse(fmt::format("the segment after {}'s is not writable: its tail has nowhere to go", hole));
      const uint64_t d1 = l.vaddr - l.offset, d2 = n.vaddr - n.offset;
      if (d2 < d1 || d1 % align_ != 0 || d2 % align_ != 0)
        refuse("segment offsets and addresses are not aligned alike");
      gap = d2 - d1;
      for (size_t i = 0; i < segs_.size(); ++i)
        if (segs_[i].type == PT_GNU_RELRO && segs_[i].vaddr == n.vaddr) relro_ = i;
      if (relro_ == segs_.size())
        refuse("no PT_GNU_RELRO at the start of the writable segment: the read-only tail would stay writable");
      for (const auto& s : elf_.sections)
        if (s.in_file() && s.offset >= end && s.offset < l.end() && (s.flags & SHF_EXECINSTR))
          refuse(fmt::format("executable section {} follows {} in its segment", s.name, hole));
      rest_ = n.offset;
    }
    const uint64_t avail = end - last().kept_end + middle_shift_;
    if (avail < gap + align_)
      refuse(fmt::format("{} bytes freed in {}, less than the segment alignment {:#x}{}", avail, hole, align_,
                         gap ? fmt::format(" plus {:#x}", gap) : ""));
    rest_shift_ = (avail - gap) / align_ * align_;
    tail_shift_ = rest_shift_ + gap;
    tail_to_ = end - tail_shift_;
  }

  // The new file offset of old offset \a o (the head stays, M moves down with the second
  // hole, the tail and the rest move down).
  uint64_t map_off(uint64_t o) const {
    if (o < first().offset) return o;
    if (o >= rest_) return o - rest_shift_;
    if (o >= last().end) return o - tail_shift_;
    if (two_ && o >= first().end && o < last().offset) return o - middle_shift_;
    refuse(fmt::format("offset {:#x} lies inside {}", o, last().holds(o) ? last().name : first().name));
  }

  // Sections: each wholly in the head, M, the tail or the rest.
  void check_sections() const {
    for (size_t i = 0; i < elf_.sections.size(); ++i) {
      const ElfSection& s = elf_.sections[i];
      if (hole_of_section(i) || !s.in_file() || s.size == 0) continue;
      const uint64_t e = s.offset + s.size;
      bool ok = e <= first().offset || s.offset >= rest_ || (s.offset >= last().end && e <= rest_) ||
                (two_ && s.offset >= first().end && e <= last().offset);
      if (!ok) refuse(fmt::format("section {} straddles the bytes that move", s.name));
    }
  }

  // Containers outside the holes that lose entries are pruned where they land.
  void prune_outside() {
    for (size_t i = 0; i < rw_.containers.size(); ++i) {
      const ContainerPlan& c = rw_.containers[i];
      if (!c.changes() || in_hole(c.offset)) continue;
      CompactionPlan::Move m;
      m.from = c.offset;
      m.to = map_off(c.offset);
      m.new_bytes = c.header_size + c.new_payload;
      m.container = i;
      p_.rewrites.push_back(m);
      p_.zeros.push_back({m.to + m.new_bytes, m.to + c.header_size + c.old_payload});
    }
    std::sort(p_.rewrites.begin(), p_.rewrites.end(), [](const auto& a, const auto& b) { return a.from < b.from; });
  }

  // The holes' segment ends at the first hole's kept containers; with two, M and the second
  // hole's kept containers take the PT_NOTE header's place as a PT_LOAD right after it
  // (PT_LOADs stay in address order). The read-only tail joins the next segment, and the
  // PT_GNU_RELRO over that segment's start now starts at the tail.
  void patch_segments() {
    const ElfSegment l = segs_[load_];
    std::vector<uint8_t> table(segs_.size() * sizeof(Elf64_Phdr));
    size_t slot = 0;
    const uint64_t end = last().end;
    for (size_t i = 0; i < segs_.size(); ++i) {
      if (two_ && i == note_) continue;
      ElfSegment& q = segs_[i];
      const uint64_t tail_addr = l.vaddr + (end - l.offset), end_addr = q.vaddr + q.memsz;
      if (i == load_) {
        q.filesz = q.memsz = first().kept_end - l.offset;
      } else if (tail_ && i == next_) {
        const uint64_t end_off = q.end() - rest_shift_;
        q.offset = tail_to_;
        q.vaddr = q.paddr = tail_addr;
        q.filesz = end_off - tail_to_;
        q.memsz = end_addr - tail_addr;
        q.flags |= PF_R;  // the tail stays readable, and read-only again under RELRO
      } else if (tail_ && i == relro_) {
        q.offset = tail_to_;
        q.vaddr = q.paddr = tail_addr;
        q.filesz = q.memsz = end_addr - tail_addr;
      } else if ((q.filesz == 0 && q.offset == 0) || q.end() <= first().offset) {
        // PT_GNU_STACK and the like, or all in the head: unchanged
      } else if (q.offset >= rest_ || (q.offset >= end && q.end() <= rest_) ||
                 (two_ && q.offset >= first().end && q.end() <= last().offset)) {
        q.offset = map_off(q.offset);
      } else {
        refuse(fmt::format("program header {} (type {:#x}) overlaps the bytes that move", i, q.type));
      }
      put_segment(table, slot++ * sizeof(Elf64_Phdr), q);
      if (two_ && i == load_) {
        ElfSegment m;
        m.type = PT_LOAD;
        m.flags = PF_R;
        m.offset = first().end - middle_shift_;
        m.vaddr = m.paddr = l.vaddr + (first().end - l.offset);
        m.filesz = m.memsz = last().kept_end - first().end;
        m.align = l.align;
        put_segment(table, slot++ * sizeof(Elf64_Phdr), m);
      }
    }
    p_.patches.push_back({elf_.program_table_offset, std::move(table)});
  }

  // Wrappers: each data pointer is a container's address, set by a RELATIVE relocation.
  void read_wrappers() {
    wrappers_ = elf_.find(".nvFatBinSegment");
    if (!wrappers_ || !wrappers_->in_file() || wrappers_->size % kWrapperSize != 0)
      refuse("no .nvFatBinSegment of whole wrappers");
    const std::vector<uint8_t> bytes = elf_.read_section(*wrappers_);
    const ByteSlice w(bytes.data(), bytes.size(), wrappers_->offset);
    for (size_t i = 0; i * kWrapperSize < w.size(); ++i) {
      const uint32_t magic = w.read_le<uint32_t>(i * kWrapperSize, "wrapper magic");
      if (magic != kWrapperMagic) refuse(fmt::format("wrapper {} of .nvFatBinSegment has magic {:#x}", i, magic));
      stored_.push_back(w.read_le<uint64_t>(i * kWrapperSize + kWrapperData, "wrapper data pointer"));
      slot_of_[wrappers_->addr + i * kWrapperSize + kWrapperData] = i;
    }
    covered_.assign(slot_of_.size(), 0);
    has_reloc_.assign(slot_of_.size(), 0);
  }

  // A relocation relative to a symbol of a hole ("sym+0x520") points in whatever its
  // addend: the symbols move with their containers, the byte it means may not. A symbol
  // whose value lies in a hole counts whatever its section index: glibc's loader takes
  // a local symbol's value as it stands, SHN_UNDEF or not (RESOLVE_MAP, SYMBOL_ADDRESS).
  struct SymbolTable {
    bool present = false;
    std::map<uint64_t, const Hole*> in_hole;
    uint64_t count = 0;
  };
  SymbolTable symbols_of(const ElfSection& rela) const {
    SymbolTable t;
    const ElfSection* symtab = rela.link < elf_.sections.size() ? &elf_.sections[rela.link] : nullptr;
    if (!symtab || (symtab->type != SHT_SYMTAB && symtab->type != SHT_DYNSYM) || !symtab->in_file()) return t;
    t.present = true;
    const std::vector<ElfSymbol> syms = elf_.symbols(*symtab);
    t.count = syms.size();
    for (size_t k = 0; k < syms.size(); ++k) {
      const Hole* h = hole_of_section(syms[k].shndx);
      if (!h) h = hole_at(syms[k].value);
      if (h) t.in_hole[k] = h;
    }
    return t;
  }

  // The tables the plan patches, each in bytes of its own: a patch to one table
  // must not change what another reads (an addend written over a neighbour's r_offset).
  void check_tables_apart() const {
    struct Table {
      std::string name;
      uint64_t from = 0, to = 0;
    };
    std::vector<Table> t{
        {"the ELF header", 0, sizeof(Elf64_Ehdr)},
        {"the program headers", elf_.program_table_offset,
         elf_.program_table_offset + segs_.size() * elf_.program_entry_size},
        {"the section headers", elf_.section_table_offset, elf_.section_table_offset + elf_.section_table_size}};
    for (const auto& s : elf_.sections) {
      const bool patched = ((s.flags & SHF_ALLOC) && s.type == SHT_RELA) || s.type == SHT_SYMTAB ||
                           s.type == SHT_DYNSYM || &s == wrappers_;
      if (patched && s.in_file() && s.size) t.push_back({s.name, s.offset, s.offset + s.size});
    }
    std::sort(t.begin(), t.end(), [](const Table& a, const Table& b) { return a.from < b.from; });
    for (size_t i = 1; i < t.size(); ++i)
      if (t[i].from < t[i - 1].to)
        refuse(fmt::format("{} and {} overlap: a patch to one would change the other", t[i - 1].name, t[i].name));
  }

  void follow_relocations(const ElfSection& s) {
    if (!(s.flags & SHF_ALLOC)) return;
    if (s.type == SHT_REL || s.type == SHT_RELR)
      refuse(fmt::format("{} relocations in {} (compaction reads RELA)", s.type == SHT_REL ? "REL" : "RELR", s.name));
    if (s.type != SHT_RELA) return;
    if (s.size % sizeof(Elf64_Rela) != 0) refuse(fmt::format("{} is not whole relocations", s.name));
    const std::vector<ElfRelocation> relocs = elf_.relocations(s);
    const SymbolTable symtab = symbols_of(s);
    for (const ElfRelocation& r : relocs) {
      const uint64_t off = r.offset, addend = r.addend;
      if (const Hole* h = hole_at(off)) refuse(fmt::format("a relocation applies inside {} at {:#x}", h->name, off));
      auto sym = symtab.in_hole.find(r.symbol);
      if (r.symbol != 0 && (!symtab.present || r.symbol >= symtab.count || sym != symtab.in_hole.end()))
        refuse(fmt::format("relocation at {:#x} is relative to symbol {} {}", off, r.symbol,
                           !symtab.present ? "of no symbol table"
                           : r.symbol >= symtab.count
                               ? "past its symbol table"
                               : fmt::format("of {}: it points in, whatever its addend", sym->second->name)));
      auto slot = slot_of_.find(off);
      if (slot != slot_of_.end()) has_reloc_[slot->second] = 1;  // a wrapper of the other section points elsewhere
      const Hole* into = hole_at(addend);
      if (!into) continue;
      auto to = new_vaddr_.find(addend);
      if (r.type != relative_type(elf_.machine) || slot == slot_of_.end() || to == new_vaddr_.end())
        refuse(fmt::format("relocation at {:#x} points into {} ({:#x}) but is no wrapper's pointer to a container", off,
                           into->name, addend));
      covered_[slot->second] = addend;
      referenced_.insert(addend);
      p_.patches.push_back({map_off(r.at + offsetof(Elf64_Rela, r_addend)), le64(to->second)});
    }
  }

  void patch_wrappers() {
    for (const auto& [addr, i] : slot_of_) {
      if (!has_reloc_[i]) refuse(fmt::format("wrapper {} of .nvFatBinSegment has no RELA relocation", i));
      if (!covered_[i]) continue;
      if (stored_[i] == 0) continue;  // the loader writes it
      if (stored_[i] != covered_[i])
        refuse(fmt::format("wrapper {} stores {:#x}, not its relocation's {:#x}", i, stored_[i], covered_[i]));
      p_.patches.push_back(
          {map_off(wrappers_->offset + i * kWrapperSize + kWrapperData), le64(new_vaddr_[covered_[i]])});
    }
    for (const auto& [old, now] : new_vaddr_)
      if (!referenced_.count(old) && old != now)
        refuse(fmt::format("the container at {:#x} is no wrapper's: something else may point at it", old));
  }

  // Symbols defined in a hole (fatbinData of each unit) follow their container.
  void move_symbols(const ElfSection& s) {
    if ((s.type != SHT_SYMTAB && s.type != SHT_DYNSYM) || !s.in_file()) return;
    for (ElfSymbol sym : elf_.symbols(s)) {
      const Hole* h = hole_of_section(sym.shndx);
      if (!h) continue;
      const uint64_t v = sym.value, size = sym.size;
      uint64_t nv = h->addr + (h->kept_end - h->offset), nsize = 0;
      auto c = new_vaddr_.upper_bound(v);
      if (c != new_vaddr_.begin() && std::prev(c)->first >= h->addr) {
        --c;
        const auto& m = p_.moves[move_of_[c->first]];
        const uint64_t inside = std::min(v - c->first, m.new_bytes);
        nv = c->second + inside;
        nsize = std::min(size, m.new_bytes - inside);
      }
      if (v < h->addr) nv = v, nsize = size;
      if (nv == v && nsize == size) continue;
      sym.value = nv;
      sym.size = nsize;
      p_.patches.push_back({map_off(sym.at), symbol_bytes(sym)});
    }
  }

  // Section headers, then the ELF header's pointer to them.
  void patch_section_headers() {
    std::vector<uint8_t> buf;
    ByteSlice t = elf_.reader->read(elf_.section_table_offset, elf_.section_table_size, "section headers", buf);
    std::vector<uint8_t> sh(t.data(), t.data() + t.size());
    if (elf_.section_entry_size != sizeof(Elf64_Shdr)) refuse("unusual section header size");
    for (size_t i = 1; i < elf_.sections.size(); ++i) {
      const ElfSection& s = elf_.sections[i];
      const size_t at = i * sizeof(Elf64_Shdr);
      if (s.type == SHT_NULL) continue;
      if (const Hole* h = hole_of_section(i)) {
        put_le<uint64_t>(sh, at + offsetof(Elf64_Shdr, sh_size), h->kept_end - h->offset);
        if (h != &first()) put_le<uint64_t>(sh, at + offsetof(Elf64_Shdr, sh_offset), h->offset - middle_shift_);
        continue;
      }
      if (s.offset >= first().end) put_le<uint64_t>(sh, at + offsetof(Elf64_Shdr, sh_offset), map_off(s.offset));
    }
    const uint64_t new_shoff = map_off(elf_.section_table_offset);
    p_.patches.push_back({new_shoff, std::move(sh)});
    p_.patches.push_back({offsetof(Elf64_Ehdr, e_shoff), le64(new_shoff)});
  }

  void finish() {
    p_.head_end = first().offset;
    if (two_) {
      p_.zeros.push_back({first().kept_end, first().end - middle_shift_});
      p_.copies.push_back({first().end - middle_shift_, first().end, last().offset - first().end});
      p_.zeros.push_back({last().kept_end - middle_shift_, tail_to_});
      p_.note_header_reused = true;
    } else {
      p_.zeros.push_back({first().kept_end, tail_to_});
    }
    const uint64_t end = last().end;
    if (tail_) {
      p_.copies.push_back({tail_to_, end, rest_ - end});
      p_.zeros.push_back({rest_ - tail_shift_, rest_ - rest_shift_});
    }
    p_.copies.push_back({rest_ - rest_shift_, rest_, p_.old_size - rest_});
    p_.new_size = p_.old_size - rest_shift_;
  }

  const ElfFile& elf_;
  const RewritePlan& rw_;
  const bool two_;
  CompactionPlan p_;
  std::vector<Hole> holes_;  // in file order
  std::vector<ElfSegment> segs_;
  size_t load_ = 0, next_ = 0, relro_ = 0, note_ = 0;  // indexes into segs_ (segs_.size(): none)
  uint64_t align_ = 1;                                 // the largest PT_LOAD alignment
  std::map<uint64_t, uint64_t> new_vaddr_;             // old container address -> new
  std::map<uint64_t, size_t> move_of_;                 // old container address -> move
  // Two holes: M [first().end, last().offset) and the second hole's containers move down
  // by middle_shift_. The tail [last().end, rest_) moves to tail_to_ (by tail_shift_), the
  // rest by rest_shift_.
  uint64_t middle_shift_ = 0;
  bool tail_ = false;
  uint64_t rest_ = 0, rest_shift_ = 0, tail_shift_ = 0, tail_to_ = 0;
  const ElfSection* wrappers_ = nullptr;  // .nvFatBinSegment
  std::vector<uint64_t> stored_;          // each wrapper's stored data pointer
  std::map<uint64_t, size_t> slot_of_;    // address of a wrapper's data pointer -> wrapper
  std::vector<uint64_t> covered_;         // the fatbin address a wrapper's relocation sets
  std::vector<char> has_reloc_;
  std::set<uint64_t> referenced_;  // container addresses some wrapper's relocation sets
};

// A plan, or why not (a Refusal, or a table the reader could not read: keep the layout).
CompactionPlan plan_guarded(const ElfFile& elf, const RewritePlan& rw, bool two) {
  try {
    return Planner(elf, rw, two).run();
  } catch (const Refusal& r) {
    CompactionPlan p;
    p.old_size = p.new_size = elf.size();
    p.refused = r.why;
    return p;
  } catch (const DiagnosticError& e) {
    CompactionPlan p;
    p.old_size = p.new_size = elf.size();
    p.refused = e.diagnostic().message;
    return p;
  }
}

// Copies [from, from + n) to \a to in the sink, as moves: the source may be the sink's own file.
void move_bytes(CompactSink& sink, uint64_t to, uint64_t from, uint64_t n) {
  if (n) sink.copy(to, from, n);
}

// Writes container \a m at its new offset: its header with the new payload size, then its
// kept entries, each moved towards the front (read before anything is written over it).
void write_container(const CompactionPlan::Move& m, const RewritePlan& rw, const ByteReader& source,
                     CompactSink& sink) {
  const ContainerPlan& c = rw.containers[m.container];
  if (!c.changes()) return move_bytes(sink, m.to, m.from, m.new_bytes);
  std::vector<uint8_t> buf;
  ByteSlice h = source.read(c.offset, c.header_size, "fatbin container header", buf);
  std::vector<uint8_t> header(h.data(), h.data() + h.size());
  put_le<uint64_t>(header, 8, c.new_payload);  // the container's payload size
  sink.write(m.to, ByteSlice(header.data(), header.size()));
  uint64_t at = m.to + c.header_size;
  for (size_t i = 0; i < c.entries.size(); ++i) {
    if (!c.choice.keep[i]) continue;
    move_bytes(sink, at, c.entries[i].offset, c.entries[i].stored_bytes());
    at += c.entries[i].stored_bytes();
  }
}

// Copies \a k, writing each rewritten container it holds pruned (the rest of its old bytes
// become the zeros the plan lists).
class Copier {
 public:
  Copier(const CompactionPlan& plan, const RewritePlan& rw, const ByteReader& source, CompactSink& sink)
      : plan_(plan), rw_(rw), source_(source), sink_(sink) {}
  void copy(CompactionPlan::Copy k) {
    const uint64_t end = k.from + k.length;
    while (next_ < plan_.rewrites.size() && plan_.rewrites[next_].from < end) {
      const CompactionPlan::Move& m = plan_.rewrites[next_++];
      const ContainerPlan& c = rw_.containers[m.container];
      move_bytes(sink_, k.to, k.from, m.from - k.from);
      write_container(m, rw_, source_, sink_);
      const uint64_t past = m.from + c.header_size + c.old_payload;
      k.to += past - k.from;
      k.from = past;
    }
    move_bytes(sink_, k.to, k.from, end - k.from);
  }

 private:
  const CompactionPlan& plan_;
  const RewritePlan& rw_;
  const ByteReader& source_;
  CompactSink& sink_;
  size_t next_ = 0;  // the next of plan_.rewrites, in file order
};

}  // namespace

CompactionPlan plan_compaction(const ElfFile& elf, const RewritePlan& rewrite, const CompactionOptions& options) {
  CompactionPlan one = plan_guarded(elf, rewrite, false);
  if (!options.reuse_note_header) return one;
  CompactionPlan two = plan_guarded(elf, rewrite, true);
  return two.compacts() && two.saved() > one.saved() ? two : one;
}

void apply_compaction(const CompactionPlan& plan, const RewritePlan& rw, const ByteReader& source, CompactSink& sink) {
  Copier copier(plan, rw, source, sink);
  copier.copy({0, 0, plan.head_end});
  // In source order: every byte moves towards the front, so each is read before anything
  // is written over it (with two holes, M's copy comes between the two holes' containers).
  size_t k = 0;
  for (const auto& m : plan.moves) {
    for (; k < plan.copies.size() && plan.copies[k].from < m.from; ++k) copier.copy(plan.copies[k]);
    write_container(m, rw, source, sink);
  }
  for (; k < plan.copies.size(); ++k) copier.copy(plan.copies[k]);
  static const std::vector<uint8_t> zeros(1 << 16, 0);
  for (const auto& [from, to] : plan.zeros)
    for (uint64_t at = from; at < to; at += zeros.size())
      sink.write(at, ByteSlice(zeros.data(), std::min<uint64_t>(zeros.size(), to - at)));
  for (const auto& pa : plan.patches) sink.write(pa.to, ByteSlice(pa.bytes.data(), pa.bytes.size()));
  sink.truncate(plan.new_size);
}

}  // namespace tailor
