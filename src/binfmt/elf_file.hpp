#pragma once
/// An ELF reader (bloaty's elf.cc, reduced to what inspect and verify need):
/// 32- and 64-bit, both byte orders, normalised at the edge so the rest of
/// tailor sees one layout. Opening reads the ELF and section headers (all
/// inspect and verify need to find CUDA fatbins); segments (program headers),
/// relocations, symbols and dynamic entries are read on request (compaction
/// plans over them). Field meanings follow glibc's <elf.h> (Elf64_Phdr,
/// Elf64_Rela, Elf64_Sym, Elf64_Dyn); every read is bounds-checked and a
/// corrupt table throws DiagnosticError, never reads outside the file.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_slice.hpp"

namespace tailor {

/// One section header, widened to 64 bits and native byte order.
struct ElfSection {
  std::string name;
  uint32_t type = 0;  ///< SHT_*; 8 is SHT_NOBITS (no bytes in the file)
  uint64_t flags = 0;
  uint64_t addr = 0;  ///< virtual address when loaded
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;  ///< sh_link: a relocation section's symbol table
  uint32_t info = 0;  ///< sh_info (section 0: the program header count past PN_XNUM)

  /// Whether the section occupies bytes of the file (everything but NOBITS).
  bool in_file() const { return type != kNoBits && type != 0; }
  static constexpr uint32_t kNoBits = 8;  // SHT_NOBITS (<elf.h> stays out of this header)
};

/// One program header (segment), widened to 64 bits and native byte order.
struct ElfSegment {
  uint32_t type = 0;   ///< p_type: PT_LOAD, PT_DYNAMIC, PT_GNU_RELRO, ...
  uint32_t flags = 0;  ///< p_flags: PF_R | PF_W | PF_X
  uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
  /// End of its file bytes; segments() checked that they lie in the file.
  uint64_t end() const { return offset + filesz; }
};

/// One relocation of a SHT_RELA or SHT_REL section.
struct ElfRelocation {
  uint64_t at = 0;      ///< file offset of the entry (r_addend is at + 16 in Elf64_Rela)
  uint64_t offset = 0;  ///< r_offset: the address it writes
  uint32_t type = 0;    ///< ELF64_R_TYPE / ELF32_R_TYPE: R_X86_64_RELATIVE, ...
  uint32_t symbol = 0;  ///< ELF64_R_SYM: an index into the section's sh_link table; 0: none
  uint64_t addend = 0;  ///< r_addend (SHT_REL: 0, the addend is stored at the target)
};

/// One symbol of a SHT_SYMTAB or SHT_DYNSYM section.
struct ElfSymbol {
  uint64_t at = 0;     ///< file offset of the entry
  uint32_t name = 0;   ///< st_name: offset in the sh_link string table
  uint8_t info = 0;    ///< st_info: binding and type
  uint8_t other = 0;   ///< st_other: visibility
  uint16_t shndx = 0;  ///< st_shndx: the section it is defined in (SHN_UNDEF, SHN_ABS, ...)
  uint64_t value = 0, size = 0;
};

/// One entry of the dynamic section (up to DT_NULL).
struct ElfDynamic {
  int64_t tag = 0;  ///< d_tag: DT_NEEDED, DT_RELA, ...
  uint64_t value = 0;
};

struct ElfFile {
  std::shared_ptr<const ByteReader> reader;  ///< the whole file
  int bits = 64;                             ///< 32 or 64
  bool big_endian = false;
  uint16_t type = 0;     ///< e_type: 1 REL, 2 EXEC, 3 DYN
  uint16_t machine = 0;  ///< e_machine: 62 x86-64, 183 aarch64, ...
  std::vector<ElfSection> sections;
  uint64_t section_table_offset = 0;  ///< e_shoff; 0 when there is none
  uint64_t section_table_size = 0;    ///< bytes of the section header table
  uint16_t section_entry_size = 0;    ///< e_shentsize
  uint64_t program_table_offset = 0;  ///< e_phoff; 0 when there is none
  uint16_t program_entry_size = 0;    ///< e_phentsize
  uint16_t program_count = 0;         ///< e_phnum as stored (PN_XNUM: the count is section 0's sh_info)

  /// The first section named \a name, or null.
  const ElfSection* find(std::string_view name) const;
  uint64_t size() const { return reader->size(); }
  /// The file bytes of \a s as a reader; throws when they lie outside the
  /// file. NOBITS sections give an empty window.
  WindowReader section_reader(const ElfSection& s) const;
  /// The file bytes of \a s, copied (for small sections).
  std::vector<uint8_t> read_section(const ElfSection& s) const;

  /// The program headers. Throws when the table or a segment's file bytes
  /// lie outside the file, or an entry is smaller than Elf32/64_Phdr.
  std::vector<ElfSegment> segments() const;
  /// The relocations of \a s (SHT_RELA or SHT_REL). Throws for another type,
  /// a section outside the file or one that is not whole entries.
  std::vector<ElfRelocation> relocations(const ElfSection& s) const;
  /// The symbols of \a s (SHT_SYMTAB or SHT_DYNSYM); a trailing partial entry
  /// is no symbol (as readelf). Throws for another type or bytes outside the file.
  std::vector<ElfSymbol> symbols(const ElfSection& s) const;
  /// The dynamic entries up to DT_NULL: of the SHT_DYNAMIC section, else of
  /// the PT_DYNAMIC segment; none when neither exists. Throws as above.
  std::vector<ElfDynamic> dynamic_entries() const;
};

/// Whether \a n bytes at \a p start with the ELF magic (0x7f 'E' 'L' 'F').
bool is_elf_magic(const uint8_t* p, size_t n);

/// Parses the file behind \a reader as ELF, reading only its headers.
/// Returns nullopt when it does not start with the ELF magic; throws
/// DiagnosticError when it does but the headers are corrupt.
std::optional<ElfFile> try_open_elf(std::shared_ptr<const ByteReader> reader);

/// The same over bytes in memory (which must outlive the result).
std::optional<ElfFile> try_open_elf(ByteSlice data);

/// e_machine as a name ("x86_64", "aarch64", "ppc64le"...); "machine N" if unknown.
std::string elf_machine_name(uint16_t machine, bool big_endian = false);

}  // namespace tailor
