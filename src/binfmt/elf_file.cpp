#include "binfmt/elf_file.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tailor {

namespace {

constexpr uint16_t kShnXindex = 0xffff;

struct Header {
  uint64_t shoff = 0;
  uint16_t shentsize = 0;
  uint64_t shnum = 0;
  uint64_t shstrndx = 0;
};

// Reads section header \a i of \a table, widening ELF32 fields (bloaty's "munger").
ElfSection read_section_header(const ElfFile& f, ByteSlice table, uint16_t entsize, uint64_t i) {
  const bool be = f.big_endian;
  ByteSlice h = table.sub(checked_mul(i, entsize, "section header table"), entsize, "section header");
  ElfSection s;
  s.type = h.read<uint32_t>(4, be, "sh_type");
  if (f.bits == 64) {
    s.flags = h.read<uint64_t>(8, be, "sh_flags");
    s.addr = h.read<uint64_t>(16, be, "sh_addr");
    s.offset = h.read<uint64_t>(24, be, "sh_offset");
    s.size = h.read<uint64_t>(32, be, "sh_size");
    s.link = h.read<uint32_t>(40, be, "sh_link");
  } else {
    s.flags = h.read<uint32_t>(8, be, "sh_flags");
    s.addr = h.read<uint32_t>(12, be, "sh_addr");
    s.offset = h.read<uint32_t>(16, be, "sh_offset");
    s.size = h.read<uint32_t>(20, be, "sh_size");
    s.link = h.read<uint32_t>(24, be, "sh_link");
  }
  return s;
}

}  // namespace

const ElfSection* ElfFile::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

WindowReader ElfFile::section_reader(const ElfSection& s) const {
  if (!s.in_file()) return WindowReader(*reader, 0, 0, "section");
  return WindowReader(*reader, s.offset, s.size, fmt::format("section {}", s.name.empty() ? "(unnamed)" : s.name));
}

std::vector<uint8_t> ElfFile::read_section(const ElfSection& s) const {
  WindowReader w = section_reader(s);
  std::vector<uint8_t> buf;
  w.read(0, w.size(), "section", buf);
  return buf;
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
  ByteSlice eh = reader->read(0, f.bits == 64 ? 64 : 52, "ELF header", head_buf);
  f.type = eh.read<uint16_t>(16, be, "e_type");
  f.machine = eh.read<uint16_t>(18, be, "e_machine");
  Header h;
  if (f.bits == 64) {
    h.shoff = eh.read<uint64_t>(40, be, "e_shoff");
    h.shentsize = eh.read<uint16_t>(58, be, "e_shentsize");
    h.shnum = eh.read<uint16_t>(60, be, "e_shnum");
    h.shstrndx = eh.read<uint16_t>(62, be, "e_shstrndx");
  } else {
    h.shoff = eh.read<uint32_t>(32, be, "e_shoff");
    h.shentsize = eh.read<uint16_t>(46, be, "e_shentsize");
    h.shnum = eh.read<uint16_t>(48, be, "e_shnum");
    h.shstrndx = eh.read<uint16_t>(50, be, "e_shstrndx");
  }
  if (h.shoff == 0) return f;  // no section headers (fully stripped): nothing to find
  const uint16_t min_entsize = f.bits == 64 ? 64 : 40;
  if (h.shentsize < min_entsize)
    throw_format_error(
        fmt::format("corrupt ELF header: section header size {} is smaller than {}", h.shentsize, min_entsize));
  // Extended numbering: with 0xff00+ sections the real counts live in section 0.
  if (h.shnum == 0 || h.shstrndx == kShnXindex) {
    ByteSlice zero_raw = reader->read(h.shoff, h.shentsize, "section header 0", table_buf);
    ElfSection zero = read_section_header(f, zero_raw, h.shentsize, 0);
    if (h.shnum == 0) h.shnum = zero.size;
    if (h.shstrndx == kShnXindex)
      h.shstrndx = zero_raw.read<uint32_t>(f.bits == 64 ? 40 : 24, be, "sh_link of section 0");
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
    uint32_t name_off = table.read<uint32_t>(i * h.shentsize, be, "sh_name");
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
    case 3: return "i386";
    case 8: return big_endian ? "mips" : "mipsel";
    case 20: return "ppc";
    case 21: return big_endian ? "ppc64" : "ppc64le";
    case 22: return "s390";
    case 40: return "arm";
    case 62: return "x86_64";
    case 183: return big_endian ? "aarch64_be" : "aarch64";
    case 190: return "cuda";
    case 243: return "riscv";
    default: return fmt::format("machine {}", machine);
  }
}

}  // namespace tailor
