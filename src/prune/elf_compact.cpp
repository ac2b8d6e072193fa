#include "prune/elf_compact.hpp"

#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {

constexpr uint32_t kWrapperMagic = 0x466243B1;  // __fatBinC_Wrapper_t (fatbinary_section.h)
constexpr uint64_t kWrapperSize = 24;           // magic, version, data pointer, filename_or_fatbins
constexpr uint64_t kWrapperData = 8;            // the data pointer's offset in a wrapper

// Compaction writes little-endian ELF64 only (plan_or_throw refuses the rest).
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
// leaves its findings in the members the next steps read.
class Planner {
 public:
  Planner(const ElfFile& elf, const RewritePlan& rw) : elf_(elf), rw_(rw) { p_.old_size = p_.new_size = elf.size(); }

  CompactionPlan run() {
    check_file();
    choose_hole();
    find_fatbin();
    read_segments();
    find_loads();
    move_containers();
    place_tail();
    check_sections();
    prune_outside();
    patch_segments();
    read_wrappers();
    for (const auto& s : elf_.sections) follow_relocations(s);
    patch_wrappers();
    for (const auto& s : elf_.sections) move_symbols(s);
    patch_section_headers();
    finish();
    return std::move(p_);
  }

 private:
  // What compaction knows: a little-endian 64-bit shared library whose fatbins lose bytes.
  void check_file() const {
    if (!rw_.changes()) refuse("nothing removed");
    if (elf_.bits != 64 || elf_.big_endian || (elf_.machine != EM_X86_64 && elf_.machine != EM_AARCH64))
      refuse(fmt::format("a {}-bit {} file (compaction knows little-endian 64-bit x86_64 and aarch64)", elf_.bits,
                         elf_machine_name(elf_.machine, elf_.big_endian)));
    if (elf_.type != ET_DYN) refuse(fmt::format("not a shared library (e_type {})", elf_.type));
  }

  // The section whose freed bytes leave the file: .nv_fatbin, or __nv_relfatbin (relocatable
  // device code) where it frees more. Only one can: the bytes after it in its segment join
  // the next segment, and a second hole there would need a program header of its own. The
  // other section's containers are pruned where they land (their freed bytes stay zeros).
  void choose_hole() {
    uint64_t linked = 0, relocatable = 0;
    for (const auto& c : rw_.containers) (c.relocatable ? relocatable : linked) += c.old_payload - c.new_payload;
    hole_ = relocatable > linked ? "__nv_relfatbin" : ".nv_fatbin";
  }

  void find_fatbin() {
    fatbin_index_ = elf_.sections.size();
    for (size_t i = 0; i < elf_.sections.size(); ++i)
      if (elf_.sections[i].name == hole_ && elf_.sections[i].in_file()) {
        if (fatbin_index_ != elf_.sections.size()) refuse(fmt::format("more than one {} section", hole_));
        fatbin_index_ = i;
      }
    if (fatbin_index_ == elf_.sections.size()) refuse(fmt::format("no {} section", hole_));
    const ElfSection& f = elf_.sections[fatbin_index_];
    elf_.section_reader(f);  // throws when its bytes lie outside the file
    fatbin_offset_ = f.offset;
    fatbin_end_ = f.offset + f.size;
    fatbin_addr_ = f.addr;
    fatbin_end_addr_ = f.addr + f.size;
  }

  // The program headers stay where they are, so they must lie before the section that shrinks.
  void read_segments() {
    const uint64_t phoff = elf_.program_table_offset, phnum = elf_.program_count;
    if (elf_.program_entry_size != sizeof(Elf64_Phdr) || phnum == 0 || phnum == PN_XNUM)
      refuse("unusual program header table");
    if (phoff > fatbin_offset_ || phnum * sizeof(Elf64_Phdr) > fatbin_offset_ - phoff)
      refuse(fmt::format("the program headers lie after {}", hole_));
    segs_ = elf_.segments();
    const uint64_t shoff = elf_.section_table_offset;
    if (shoff < fatbin_end_ && shoff + elf_.section_table_size > fatbin_offset_)
      refuse(fmt::format("the section headers overlap {}", hole_));
  }

  // load_: the PT_LOAD holding .nv_fatbin; next_: the PT_LOAD after it (segs_.size(): none).
  void find_loads() {
    load_ = next_ = segs_.size();
    for (size_t i = 0; i < segs_.size(); ++i) {
      if (segs_[i].type == PT_INTERP)
        refuse("an executable (PT_INTERP): the kernel finds its program headers by offset");
      if (segs_[i].type != PT_LOAD) continue;
      align_ = std::max<uint64_t>(align_, segs_[i].align);
      if (segs_[i].offset <= fatbin_offset_ && fatbin_end_ <= segs_[i].end()) load_ = i;
    }
    if (load_ == segs_.size()) refuse(fmt::format("{} is in no PT_LOAD segment", hole_));
    const ElfSegment& l = segs_[load_];
    if (l.memsz != l.filesz) refuse(fmt::format("{}'s segment has bytes past its file size", hole_));
    for (size_t i = 0; i < segs_.size(); ++i)
      if (segs_[i].type == PT_LOAD && segs_[i].offset > l.offset &&
          (next_ == segs_.size() || segs_[i].offset < segs_[next_].offset))
        next_ = i;
    if ((align_ & (align_ - 1)) != 0) refuse(fmt::format("segment alignment {:#x} is not a power of two", align_));
    if (next_ != segs_.size() && (segs_[next_].offset < l.end() || segs_[next_].vaddr < l.vaddr + l.memsz))
      refuse(fmt::format("the segment after {}'s overlaps it", hole_));
  }

  // The containers of .nv_fatbin, moved together (8-byte aligned, as nvcc lays them).
  void move_containers() {
    uint64_t cursor = fatbin_offset_;
    for (size_t i = 0; i < rw_.containers.size(); ++i) {
      const ContainerPlan& c = rw_.containers[i];
      if (c.offset < fatbin_offset_ || c.offset >= fatbin_end_) continue;
      CompactionPlan::Move m;
      m.from = c.offset;
      m.to = (cursor + 7) / 8 * 8;
      m.new_bytes = c.header_size + c.new_payload;
      m.container = i;
      cursor = m.to + m.new_bytes;
      new_vaddr_[fatbin_addr_ + (m.from - fatbin_offset_)] = fatbin_addr_ + (m.to - fatbin_offset_);
      move_of_[fatbin_addr_ + (m.from - fatbin_offset_)] = p_.moves.size();
      p_.moves.push_back(m);
    }
    kept_end_ = cursor;
  }

  // How far the bytes after .nv_fatbin move. With sections after it in its segment (the
  // tail), the tail joins the next segment and moves by tail_shift_ = rest_shift_ + gap.
  void place_tail() {
    const ElfSegment& l = segs_[load_];
    tail_ = fatbin_end_ < l.end();
    rest_ = fatbin_end_;
    relro_ = segs_.size();
    uint64_t gap = 0;
    if (tail_) {
      if (next_ == segs_.size()) refuse(fmt::format("sections follow {} in the last loadable segment", hole_));
      const ElfSegment& n = segs_[next_];
      if (!(n.flags & PF_W))
        refuse(fmt::format("the segment after {}'s is not writable: its tail has nowhere to go", hole_));
      const uint64_t d1 = l.vaddr - l.offset, d2 = n.vaddr - n.offset;
      if (d2 < d1 || d1 % align_ != 0 || d2 % align_ != 0)
        refuse("segment offsets and addresses are not aligned alike");
      gap = d2 - d1;
      for (size_t i = 0; i < segs_.size(); ++i)
        if (segs_[i].type == PT_GNU_RELRO && segs_[i].vaddr == n.vaddr) relro_ = i;
      if (relro_ == segs_.size())
        refuse("no PT_GNU_RELRO at the start of the writable segment: the read-only tail would stay writable");
      for (const auto& s : elf_.sections)
        if (s.in_file() && s.offset >= fatbin_end_ && s.offset < l.end() && (s.flags & SHF_EXECINSTR))
          refuse(fmt::format("executable section {} follows {} in its segment", s.name, hole_));
      rest_ = n.offset;
    }
    const uint64_t avail = fatbin_end_ - kept_end_;
    if (avail < gap + align_)
      refuse(fmt::format("{} bytes freed in {}, less than the segment alignment {:#x}{}", avail, hole_, align_,
                         gap ? fmt::format(" plus {:#x}", gap) : ""));
    rest_shift_ = (avail - gap) / align_ * align_;
    tail_shift_ = rest_shift_ + gap;
    tail_to_ = fatbin_end_ - tail_shift_;
  }

  // The new file offset of old offset \a o (the head stays, the tail and the rest move down).
  uint64_t map_off(uint64_t o) const {
    if (o < fatbin_offset_) return o;
    if (o >= rest_) return o - rest_shift_;
    if (o >= fatbin_end_) return o - tail_shift_;
    refuse(fmt::format("offset {:#x} lies inside {}", o, hole_));
  }

  // Sections: each wholly in the head, the tail or the rest.
  void check_sections() const {
    for (size_t i = 0; i < elf_.sections.size(); ++i) {
      const ElfSection& s = elf_.sections[i];
      if (i == fatbin_index_ || !s.in_file() || s.size == 0) continue;
      const uint64_t e = s.offset + s.size;
      bool ok = e <= fatbin_offset_ || s.offset >= rest_ || (s.offset >= fatbin_end_ && e <= rest_);
      if (!ok) refuse(fmt::format("section {} straddles the bytes that move", s.name));
    }
  }

  // Containers outside the hole that lose entries are pruned where they land.
  void prune_outside() {
    for (size_t i = 0; i < rw_.containers.size(); ++i) {
      const ContainerPlan& c = rw_.containers[i];
      if (!c.changes() || (c.offset >= fatbin_offset_ && c.offset < fatbin_end_)) continue;
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

  // The fatbin's segment ends at the kept containers; its read-only tail joins the next
  // segment, and the PT_GNU_RELRO over that segment's start now starts at the tail.
  void patch_segments() {
    const ElfSegment l = segs_[load_];
    std::vector<uint8_t> table(segs_.size() * sizeof(Elf64_Phdr));
    for (size_t i = 0; i < segs_.size(); ++i) {
      ElfSegment& q = segs_[i];
      const uint64_t tail_addr = l.vaddr + (fatbin_end_ - l.offset), end_addr = q.vaddr + q.memsz;
      if (i == load_) {
        q.filesz = q.memsz = kept_end_ - l.offset;
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
      } else if ((q.filesz == 0 && q.offset == 0) || q.end() <= fatbin_offset_) {
        // PT_GNU_STACK and the like, or all in the head: unchanged
      } else if (q.offset >= rest_ || (q.offset >= fatbin_end_ && q.end() <= rest_)) {
        q.offset = map_off(q.offset);
      } else {
        refuse(fmt::format("program header {} (type {:#x}) overlaps the bytes that move", i, q.type));
      }
      put_segment(table, i * sizeof(Elf64_Phdr), q);
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

  // A relocation relative to a symbol of .nv_fatbin ("sym+0x520") points in whatever its
  // addend: the symbols move with their containers, the byte it means may not. A symbol
  // whose value lies in .nv_fatbin counts whatever its section index: glibc's loader takes
  // a local symbol's value as it stands, SHN_UNDEF or not (RESOLVE_MAP, SYMBOL_ADDRESS).
  struct SymbolTable {
    bool present = false;
    std::set<uint64_t> in_fatbin;
    uint64_t count = 0;
  };
  SymbolTable symbols_of(const ElfSection& rela) const {
    SymbolTable t;
    const ElfSection* symtab = rela.link < elf_.sections.size() ? &elf_.sections[rela.link] : nullptr;
    if (!symtab || (symtab->type != SHT_SYMTAB && symtab->type != SHT_DYNSYM) || !symtab->in_file()) return t;
    t.present = true;
    const std::vector<ElfSymbol> syms = elf_.symbols(*symtab);
    t.count = syms.size();
    for (size_t k = 0; k < syms.size(); ++k)
      if (syms[k].shndx == fatbin_index_ || (syms[k].value >= fatbin_addr_ && syms[k].value < fatbin_end_addr_))
        t.in_fatbin.insert(k);
    return t;
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
      if (off >= fatbin_addr_ && off < fatbin_end_addr_)
        refuse(fmt::format("a relocation applies inside {} at {:#x}", hole_, off));
      if (r.symbol != 0 && (!symtab.present || r.symbol >= symtab.count || symtab.in_fatbin.count(r.symbol)))
        refuse(fmt::format("relocation at {:#x} is relative to symbol {} {}", off, r.symbol,
                           !symtab.present ? "of no symbol table"
                           : r.symbol >= symtab.count
                               ? "past its symbol table"
                               : fmt::format("of {}: it points in, whatever its addend", hole_)));
      auto slot = slot_of_.find(off);
      if (slot != slot_of_.end()) has_reloc_[slot->second] = 1;  // a wrapper of __nv_relfatbin points elsewhere
      if (addend < fatbin_addr_ || addend >= fatbin_end_addr_) continue;
      auto to = new_vaddr_.find(addend);
      if (r.type != relative_type(elf_.machine) || slot == slot_of_.end() || to == new_vaddr_.end())
        refuse(fmt::format("relocation at {:#x} points into {} ({:#x}) but is no wrapper's pointer to a container", off,
                           hole_, addend));
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

  // Symbols defined in .nv_fatbin (fatbinData of each unit) follow their container.
  void move_symbols(const ElfSection& s) {
    if ((s.type != SHT_SYMTAB && s.type != SHT_DYNSYM) || !s.in_file()) return;
    const uint64_t new_end_addr = fatbin_addr_ + (kept_end_ - fatbin_offset_);
    for (ElfSymbol sym : elf_.symbols(s)) {
      if (sym.shndx != fatbin_index_) continue;
      const uint64_t v = sym.value, size = sym.size;
      uint64_t nv = new_end_addr, nsize = 0;
      auto c = new_vaddr_.upper_bound(v);
      if (c != new_vaddr_.begin()) {
        --c;
        const auto& m = p_.moves[move_of_[c->first]];
        const uint64_t inside = std::min(v - c->first, m.new_bytes);
        nv = c->second + inside;
        nsize = std::min(size, m.new_bytes - inside);
      }
      if (v < fatbin_addr_) nv = v, nsize = size;
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
      if (i == fatbin_index_) {
        put_le<uint64_t>(sh, at + offsetof(Elf64_Shdr, sh_size), kept_end_ - fatbin_offset_);
        continue;
      }
      if (s.offset >= fatbin_end_) put_le<uint64_t>(sh, at + offsetof(Elf64_Shdr, sh_offset), map_off(s.offset));
    }
    const uint64_t new_shoff = map_off(elf_.section_table_offset);
    p_.patches.push_back({new_shoff, std::move(sh)});
    p_.patches.push_back({offsetof(Elf64_Ehdr, e_shoff), le64(new_shoff)});
  }

  void finish() {
    p_.head_end = fatbin_offset_;
    p_.zeros.push_back({kept_end_, tail_to_});
    if (tail_) {
      p_.copies.push_back({tail_to_, fatbin_end_, rest_ - fatbin_end_});
      p_.zeros.push_back({rest_ - tail_shift_, rest_ - rest_shift_});
    }
    p_.copies.push_back({rest_ - rest_shift_, rest_, p_.old_size - rest_});
    p_.new_size = p_.old_size - rest_shift_;
  }

  const ElfFile& elf_;
  const RewritePlan& rw_;
  CompactionPlan p_;
  std::string hole_;  // the section that shrinks (.nv_fatbin or __nv_relfatbin)
  // .nv_fatbin: its section index, [offset, end) in the file, [addr, end_addr) in memory.
  size_t fatbin_index_ = 0;
  uint64_t fatbin_offset_ = 0, fatbin_end_ = 0, fatbin_addr_ = 0, fatbin_end_addr_ = 0;
  std::vector<ElfSegment> segs_;
  size_t load_ = 0, next_ = 0, relro_ = 0;  // indexes into segs_ (segs_.size(): none)
  uint64_t align_ = 1;                      // the largest PT_LOAD alignment
  std::map<uint64_t, uint64_t> new_vaddr_;  // old container address -> new
  std::map<uint64_t, size_t> move_of_;      // old container address -> move
  uint64_t kept_end_ = 0;                   // file offset past the moved containers
  // The tail [fatbin_end_, rest_) moves to tail_to_ (by tail_shift_), the rest by rest_shift_.
  bool tail_ = false;
  uint64_t rest_ = 0, rest_shift_ = 0, tail_shift_ = 0, tail_to_ = 0;
  const ElfSection* wrappers_ = nullptr;  // .nvFatBinSegment
  std::vector<uint64_t> stored_;          // each wrapper's stored data pointer
  std::map<uint64_t, size_t> slot_of_;    // address of a wrapper's data pointer -> wrapper
  std::vector<uint64_t> covered_;         // the fatbin address a wrapper's relocation sets
  std::vector<char> has_reloc_;
  std::set<uint64_t> referenced_;  // container addresses some wrapper's relocation sets
};

CompactionPlan plan_or_throw(const ElfFile& elf, const RewritePlan& rw) { return Planner(elf, rw).run(); }

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
  Copier copier(plan, rw, source, sink);
  copier.copy({0, 0, plan.head_end});
  for (const auto& m : plan.moves) write_container(m, rw, source, sink);
  for (const auto& k : plan.copies) copier.copy(k);
  static const std::vector<uint8_t> zeros(1 << 16, 0);
  for (const auto& [from, to] : plan.zeros)
    for (uint64_t at = from; at < to; at += zeros.size())
      sink.write(at, ByteSlice(zeros.data(), std::min<uint64_t>(zeros.size(), to - at)));
  for (const auto& pa : plan.patches) sink.write(pa.to, ByteSlice(pa.bytes.data(), pa.bytes.size()));
  sink.truncate(plan.new_size);
}

}  // namespace tailor
