#include "binfmt/elf_file.hpp"

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

// Reads section header \a i, widening ELF32 fields (the "munger" of bloaty).
ElfSection read_section_header(const ElfFile& f, uint64_t table, uint16_t entsize, uint64_t i) {
  const bool be = f.big_endian;
  uint64_t at = checked_add(table, checked_mul(i, entsize, "section header table"), "section header table");
  ByteSlice h = f.data.sub(at, entsize, "section header");
  ElfSection s;
  if (f.bits == 64) {
    s.type = h.read<uint32_t>(4, be, "sh_type");
    s.flags = h.read<uint64_t>(8, be, "sh_flags");
    s.addr = h.read<uint64_t>(16, be, "sh_addr");
    s.offset = h.read<uint64_t>(24, be, "sh_offset");
    s.size = h.read<uint64_t>(32, be, "sh_size");
  } else {
    s.type = h.read<uint32_t>(4, be, "sh_type");
    s.flags = h.read<uint32_t>(8, be, "sh_flags");
    s.addr = h.read<uint32_t>(12, be, "sh_addr");
    s.offset = h.read<uint32_t>(16, be, "sh_offset");
    s.size = h.read<uint32_t>(20, be, "sh_size");
  }
  return s;
}

}  // namespace

const ElfSection* ElfFile::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

ByteSlice ElfFile::contents(const ElfSection& s) const {
  if (!s.in_file()) return ByteSlice(data.data(), 0, data.base());
  return data.sub(s.offset, s.size, fmt::format("section {}", s.name.empty() ? "(unnamed)" : s.name));
}

std::optional<ElfFile> try_open_elf(ByteSlice data) {
  if (!data.starts_with("\x7f" "ELF")) return std::nullopt;
  ElfFile f;
  f.data = data;
  uint8_t cls = data.read_le<uint8_t>(4, "ELF class");
  uint8_t enc = data.read_le<uint8_t>(5, "ELF byte order");
  if (cls != 1 && cls != 2) throw_format_error(fmt::format("not a valid ELF file: class {} is neither 32- nor 64-bit", cls));
  if (enc != 1 && enc != 2) throw_format_error(fmt::format("not a valid ELF file: byte order {} is unknown", enc));
  f.bits = cls == 2 ? 64 : 32;
  f.big_endian = enc == 2;
  const bool be = f.big_endian;
  ByteSlice eh = data.sub(0, f.bits == 64 ? 64 : 52, "ELF header");
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
    throw_format_error(fmt::format("corrupt ELF header: section header size {} is smaller than {}", h.shentsize,
                                   min_entsize));
  // Extended numbering: with 0xff00+ sections the real counts live in section 0.
  if (h.shnum == 0 || h.shstrndx == kShnXindex) {
    ElfSection zero = read_section_header(f, h.shoff, h.shentsize, 0);
    if (h.shnum == 0) h.shnum = zero.size;
    if (h.shstrndx == kShnXindex) {
      ByteSlice z = data.sub(h.shoff, h.shentsize, "section header 0");
      h.shstrndx = z.read<uint32_t>(f.bits == 64 ? 40 : 24, be, "sh_link of section 0");
    }
  }
  // The whole table must fit before anything is allocated for it.
  data.sub(h.shoff, checked_mul(h.shnum, h.shentsize, "section header table"), "section header table");
  f.sections.reserve(h.shnum);
  for (uint64_t i = 0; i < h.shnum; ++i) f.sections.push_back(read_section_header(f, h.shoff, h.shentsize, i));
  if (h.shstrndx == 0) return f;  // SHN_UNDEF: the sections have no names
  if (h.shstrndx >= f.sections.size())
    throw_format_error(fmt::format("corrupt ELF header: section name table index {} is out of range ({} sections)",
                                   h.shstrndx, f.sections.size()));
  ByteSlice names = f.contents(f.sections[h.shstrndx]);
  // Index the names in a second pass, now that the table is known to be sound.
  for (uint64_t i = 0; i < h.shnum; ++i) {
    ByteSlice raw = data.sub(checked_add(h.shoff, i * h.shentsize, "section header"), h.shentsize, "section header");
    uint32_t name_off = raw.read<uint32_t>(0, be, "sh_name");
    if (name_off == 0 && names.empty()) continue;
    f.sections[i].name = std::string(names.cstring(name_off, fmt::format("name of section {}", i)));
  }
  return f;
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

std::optional<uint16_t> elf_machine_for_platform(std::string_view platform) {
  if (platform.ends_with("-darwin")) return std::nullopt;  // Mach-O
  if (platform.starts_with("x86_64-")) return 62;
  if (platform.starts_with("aarch64-")) return 183;
  if (platform.starts_with("i686-")) return 3;
  return std::nullopt;
}

}  // namespace tailor
