#include "binfmt/elf_file.hpp"

#include <elf.h>

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

namespace tailor {

namespace {

// The field F of <elf.h>'s struct T in slice H (one entry), at the struct's
// offset and width, widened to 64 bits: one reader for both classes.
#define ELF_FIELD(H, BE, T, F) read_field(H, offsetof(T, F), sizeof(T::F), BE, #F)

uint64_t read_field(ByteSlice h, size_t offset, size_t width, bool be, std::string_view what) {
  switch (width) {
    case 1: return h.read<uint8_t>(offset, be, what);
    case 2: return h.read<uint16_t>(offset, be, what);
    case 4: return h.read<uint32_t>(offset, be, what);
    default: return h.read<uint64_t>(offset, be, what);
  }
}

struct Header {
  uint64_t shoff = 0;
  uint16_t shentsize = 0;
  uint64_t shnum = 0;
  uint64_t shstrndx = 0;
};

// The fields of section header \a h of the layout \a Shdr past sh_type, widened.
template <class Shdr>
void read_section_fields(ByteSlice h, bool be, ElfSection& s) {
  s.flags = ELF_FIELD(h, be, Shdr, sh_flags);
  s.addr = ELF_FIELD(h, be, Shdr, sh_addr);
  s.offset = ELF_FIELD(h, be, Shdr, sh_offset);
  s.size = ELF_FIELD(h, be, Shdr, sh_size);
  s.link = static_cast<uint32_t>(ELF_FIELD(h, be, Shdr, sh_link));
  s.info = static_cast<uint32_t>(ELF_FIELD(h, be, Shdr, sh_info));
}

// Reads section header \a i of \a table, widening ELF32 fields (bloaty's "munger").
ElfSection read_section_header(const ElfFile& f, ByteSlice table, uint16_t entsize, uint64_t i) {
  const bool be = f.big_endian;
  ByteSlice h = table.sub(checked_mul(i, entsize, "section header table"), entsize, "section header");
  ElfSection s;
  s.type = h.read<uint32_t>(offsetof(Elf64_Shdr, sh_type), be, "sh_type");
  if (f.bits == 64)
    read_section_fields<Elf64_Shdr>(h, be, s);
  else
    read_section_fields<Elf32_Shdr>(h, be, s);
  return s;
}

// Program header \a h (one entry) of the layout \a Phdr (Elf32_Phdr orders its fields
// differently from Elf64_Phdr), widened.
template <class Phdr>
ElfSegment read_segment_as(ByteSlice h, bool be) {
  ElfSegment p;
  p.type = static_cast<uint32_t>(ELF_FIELD(h, be, Phdr, p_type));
  p.flags = static_cast<uint32_t>(ELF_FIELD(h, be, Phdr, p_flags));
  p.offset = ELF_FIELD(h, be, Phdr, p_offset);
  p.vaddr = ELF_FIELD(h, be, Phdr, p_vaddr);
  p.paddr = ELF_FIELD(h, be, Phdr, p_paddr);
  p.filesz = ELF_FIELD(h, be, Phdr, p_filesz);
  p.memsz = ELF_FIELD(h, be, Phdr, p_memsz);
  p.align = ELF_FIELD(h, be, Phdr, p_align);
  return p;
}

ElfSegment read_segment(ByteSlice h, int bits, bool be) {
  return bits == 64 ? read_segment_as<Elf64_Phdr>(h, be) : read_segment_as<Elf32_Phdr>(h, be);
}

ElfRelocation read_relocation(ByteSlice h, int bits, bool be, bool rela) {
  ElfRelocation r;
  r.at = h.base();
  if (bits == 64) {
    r.offset = ELF_FIELD(h, be, Elf64_Rela, r_offset);
    const uint64_t info = ELF_FIELD(h, be, Elf64_Rela, r_info);
    r.type = static_cast<uint32_t>(ELF64_R_TYPE(info));
    r.symbol = static_cast<uint32_t>(ELF64_R_SYM(info));
    if (rela) r.addend = ELF_FIELD(h, be, Elf64_Rela, r_addend);
  } else {
    r.offset = ELF_FIELD(h, be, Elf32_Rela, r_offset);
    const uint64_t info = ELF_FIELD(h, be, Elf32_Rela, r_info);
    r.type = static_cast<uint32_t>(ELF32_R_TYPE(info));
    r.symbol = static_cast<uint32_t>(ELF32_R_SYM(info));
    // Widened as the 32-bit loader adds it: modulo 2^32, sign-extended.
    if (rela)
      r.addend =
          static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(ELF_FIELD(h, be, Elf32_Rela, r_addend))));
  }
  return r;
}

// Symbol \a h (one entry) of the layout \a Sym, widened.
template <class Sym>
ElfSymbol read_symbol_as(ByteSlice h, bool be) {
  ElfSymbol s;
  s.at = h.base();
  s.name = static_cast<uint32_t>(ELF_FIELD(h, be, Sym, st_name));
  s.info = static_cast<uint8_t>(ELF_FIELD(h, be, Sym, st_info));
  s.other = static_cast<uint8_t>(ELF_FIELD(h, be, Sym, st_other));
  s.shndx = static_cast<uint16_t>(ELF_FIELD(h, be, Sym, st_shndx));
  s.value = ELF_FIELD(h, be, Sym, st_value);
  s.size = ELF_FIELD(h, be, Sym, st_size);
  return s;
}

ElfSymbol read_symbol(ByteSlice h, int bits, bool be) {
  return bits == 64 ? read_symbol_as<Elf64_Sym>(h, be) : read_symbol_as<Elf32_Sym>(h, be);
}

// The entries of \a n bytes at \a offset, read whole; \a each gets every \a entsize-byte entry.
template <class F>
void for_each_entry(const ElfFile& f, uint64_t offset, uint64_t n, uint64_t entsize, std::string_view what, F each) {
  std::vector<uint8_t> buf;
  ByteSlice all = f.reader->read(offset, n, what, buf);
  ByteSlice table(all.data(), all.size(), offset);
  for (uint64_t at = 0; entsize && table.size() - at >= entsize; at += entsize) each(table.sub(at, entsize, what));
}

std::string section_label(const ElfSection& s) { return s.name.empty() ? "(unnamed)" : s.name; }

}  // namespace

const ElfSection* ElfFile::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

WindowReader ElfFile::section_reader(const ElfSection& s) const {
  if (!s.in_file()) return WindowReader(*reader, 0, 0, "section");
  return WindowReader(*reader, s.offset, s.size, fmt::format("section {}", section_label(s)));
}

std::vector<uint8_t> ElfFile::read_section(const ElfSection& s) const {
  WindowReader w = section_reader(s);
  std::vector<uint8_t> buf;
  w.read(0, w.size(), "section", buf);
  return buf;
}

std::vector<ElfSegment> ElfFile::segments() const {
  uint64_t count = program_count;
  if (count == PN_XNUM) {  // the real count lives in section 0's sh_info
    if (sections.empty()) throw_format_error("corrupt ELF header: e_phnum is PN_XNUM but there is no section 0");
    count = sections[0].info;
  }
  if (count == 0) return {};
  const uint16_t min_entsize = bits == 64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
  if (program_entry_size < min_entsize)
    throw_format_error(
        fmt::format("corrupt ELF header: program header size {} is smaller than {}", program_entry_size, min_entsize));
  std::vector<ElfSegment> out;
  const uint64_t n = checked_mul(count, program_entry_size, "program header table");
  for_each_entry(*this, program_table_offset, n, program_entry_size, "program header table", [&](ByteSlice h) {
    out.push_back(read_segment(h, bits, big_endian));
    // Its file bytes must lie in the file: compaction moves and copies them.
    WindowReader(*reader, out.back().offset, out.back().filesz, fmt::format("segment {}", out.size() - 1));
  });
  return out;
}

std::vector<ElfRelocation> ElfFile::relocations(const ElfSection& s) const {
  if (s.type != SHT_RELA && s.type != SHT_REL)
    throw_format_error(fmt::format("section {} (type {}) holds no relocations", section_label(s), s.type));
  const bool rela = s.type == SHT_RELA;
  const uint64_t entsize =
      bits == 64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel)) : (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
  if (s.size % entsize != 0) throw_format_error(fmt::format("{} is not whole relocations", section_label(s)));
  std::vector<ElfRelocation> out;
  out.reserve(std::min<uint64_t>(s.size, reader->size()) / entsize);  // a claimed size past the file: refused below
  for_each_entry(*this, s.offset, s.size, entsize, fmt::format("section {}", section_label(s)),
                 [&](ByteSlice h) { out.push_back(read_relocation(h, bits, big_endian, rela)); });
  return out;
}

std::vector<ElfSymbol> ElfFile::symbols(const ElfSection& s) const {
  if (s.type != SHT_SYMTAB && s.type != SHT_DYNSYM)
    throw_format_error(fmt::format("section {} (type {}) holds no symbols", section_label(s), s.type));
  const uint64_t entsize = bits == 64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
  std::vector<ElfSymbol> out;
  out.reserve(std::min<uint64_t>(s.size, reader->size()) / entsize);  // a claimed size past the file: refused below
  for_each_entry(*this, s.offset, s.size - s.size % entsize, entsize, fmt::format("section {}", section_label(s)),
                 [&](ByteSlice h) { out.push_back(read_symbol(h, bits, big_endian)); });
  return out;
}

std::vector<ElfDynamic> ElfFile::dynamic_entries() const {
  uint64_t offset = 0, size = 0;
  bool found = false;
  for (const auto& s : sections)
    if (s.type == SHT_DYNAMIC && s.in_file() && !found) offset = s.offset, size = s.size, found = true;
  if (!found)
    for (const auto& p : segments())
      if (p.type == PT_DYNAMIC && !found) offset = p.offset, size = p.filesz, found = true;
  std::vector<ElfDynamic> out;
  if (!found) return out;
  const uint64_t entsize = bits == 64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
  bool ended = false;
  for_each_entry(*this, offset, size - size % entsize, entsize, "dynamic section", [&](ByteSlice h) {
    if (ended) return;
    ElfDynamic d;
    if (bits == 64) {
      d.tag = static_cast<int64_t>(ELF_FIELD(h, big_endian, Elf64_Dyn, d_tag));
      d.value = ELF_FIELD(h, big_endian, Elf64_Dyn, d_un);
    } else {
      d.tag = static_cast<int32_t>(ELF_FIELD(h, big_endian, Elf32_Dyn, d_tag));
      d.value = ELF_FIELD(h, big_endian, Elf32_Dyn, d_un);
    }
    if (d.tag == DT_NULL)
      ended = true;
    else
      out.push_back(d);
  });
  return out;
}

std::optional<ElfFile> try_open_elf(ByteSlice data) { return try_open_elf(std::make_shared<SliceReader>(data)); }

std::optional<ElfFile> try_open_elf(std::shared_ptr<const ByteReader> reader) {
  std::vector<uint8_t> head_buf, table_buf, names_buf;
  const uint64_t size = reader->size();
  if (size < 4) return std::nullopt;
  ByteSlice magic = reader->read(0, 4, "ELF magic", head_buf);
  if (!magic.starts_with("\x7f"
                         "ELF"))
    return std::nullopt;
  ElfFile f;
  f.reader = reader;
  ByteSlice ident = reader->read(0, std::min<uint64_t>(size, 16), "ELF identification", head_buf);
  uint8_t cls = ident.read_le<uint8_t>(4, "ELF class");
  uint8_t enc = ident.read_le<uint8_t>(5, "ELF byte order");
  if (cls != 1 && cls != 2)
    throw_format_error(fmt::format("not a valid ELF file: class {} is neither 32- nor 64-bit", cls));
  if (enc != 1 && enc != 2) throw_format_error(fmt::format("not a valid ELF file: byte order {} is unknown", enc));
  f.bits = cls == 2 ? 64 : 32;
  f.big_endian = enc == 2;
  const bool be = f.big_endian;
  ByteSlice eh = reader->read(0, f.bits == 64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), "ELF header", head_buf);
  f.type = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf64_Ehdr, e_type));
  f.machine = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf64_Ehdr, e_machine));
  Header h;
  if (f.bits == 64) {
    f.program_table_offset = ELF_FIELD(eh, be, Elf64_Ehdr, e_phoff);
    f.program_entry_size = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf64_Ehdr, e_phentsize));
    f.program_count = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf64_Ehdr, e_phnum));
    h.shoff = ELF_FIELD(eh, be, Elf64_Ehdr, e_shoff);
    h.shentsize = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf64_Ehdr, e_shentsize));
    h.shnum = ELF_FIELD(eh, be, Elf64_Ehdr, e_shnum);
    h.shstrndx = ELF_FIELD(eh, be, Elf64_Ehdr, e_shstrndx);
  } else {
    f.program_table_offset = ELF_FIELD(eh, be, Elf32_Ehdr, e_phoff);
    f.program_entry_size = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf32_Ehdr, e_phentsize));
    f.program_count = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf32_Ehdr, e_phnum));
    h.shoff = ELF_FIELD(eh, be, Elf32_Ehdr, e_shoff);
    h.shentsize = static_cast<uint16_t>(ELF_FIELD(eh, be, Elf32_Ehdr, e_shentsize));
    h.shnum = ELF_FIELD(eh, be, Elf32_Ehdr, e_shnum);
    h.shstrndx = ELF_FIELD(eh, be, Elf32_Ehdr, e_shstrndx);
  }
  f.section_entry_size = h.shentsize;
  if (h.shoff == 0) return f;  // no section headers (fully stripped): nothing to find
  const uint16_t min_entsize = f.bits == 64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (h.shentsize < min_entsize)
    throw_format_error(
        fmt::format("corrupt ELF header: section header size {} is smaller than {}", h.shentsize, min_entsize));
  // Extended numbering: with 0xff00+ sections the real counts live in section 0.
  if (h.shnum == 0 || h.shstrndx == SHN_XINDEX) {
    ByteSlice zero_raw = reader->read(h.shoff, h.shentsize, "section header 0", table_buf);
    ElfSection zero = read_section_header(f, zero_raw, h.shentsize, 0);
    if (h.shnum == 0) h.shnum = zero.size;
    if (h.shstrndx == SHN_XINDEX) h.shstrndx = zero.link;
  }
  // The whole table must fit before anything is allocated for it.
  ByteSlice table = reader->read(h.shoff, checked_mul(h.shnum, h.shentsize, "section header table"),
                                 "section header table", table_buf);
  f.section_table_offset = h.shoff;
  f.section_table_size = table.size();
  f.sections.reserve(h.shnum);
  for (uint64_t i = 0; i < h.shnum; ++i) f.sections.push_back(read_section_header(f, table, h.shentsize, i));
  if (h.shstrndx == 0) return f;  // SHN_UNDEF: the sections have no names
  if (h.shstrndx >= f.sections.size())
    throw_format_error(fmt::format("corrupt ELF header: section name table index {} is out of range ({} sections)",
                                   h.shstrndx, f.sections.size()));
  names_buf = f.read_section(f.sections[h.shstrndx]);
  ByteSlice names(names_buf.data(), names_buf.size(), f.sections[h.shstrndx].offset);
  for (uint64_t i = 0; i < h.shnum; ++i) {
    uint32_t name_off = table.read<uint32_t>(i * h.shentsize + offsetof(Elf64_Shdr, sh_name), be, "sh_name");
    if (name_off == 0 && names.empty()) continue;
    f.sections[i].name = std::string(names.cstring(name_off, fmt::format("name of section {}", i)));
  }
  return f;
}

bool is_elf_magic(const uint8_t* p, size_t n) {
  return n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F';
}

std::string elf_machine_name(uint16_t machine, bool big_endian) {
  switch (machine) {
    case EM_386: return "i386";
    case EM_MIPS: return big_endian ? "mips" : "mipsel";
    case EM_PPC: return "ppc";
    case EM_PPC64: return big_endian ? "ppc64" : "ppc64le";
    case EM_S390: return "s390";
    case EM_ARM: return "arm";
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return big_endian ? "aarch64_be" : "aarch64";
    case EM_CUDA: return "cuda";
    case EM_RISCV: return "riscv";
    default: return fmt::format("machine {}", machine);
  }
}

}  // namespace tailor
