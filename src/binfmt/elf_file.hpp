#pragma once
/// An ELF reader (bloaty's elf.cc, reduced to what inspect and verify need):
/// 32- and 64-bit, both byte orders, normalised at the edge so the rest of
/// tailor sees one layout. Only section headers are read; program headers
/// and symbols are not needed to find CUDA fatbins.

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

  /// Whether the section occupies bytes of the file (everything but NOBITS).
  bool in_file() const { return type != kNoBits && type != 0; }
  static constexpr uint32_t kNoBits = 8;
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

  /// The first section named \a name, or null.
  const ElfSection* find(std::string_view name) const;
  uint64_t size() const { return reader->size(); }
  /// The file bytes of \a s as a reader; throws when they lie outside the
  /// file. NOBITS sections give an empty window.
  WindowReader section_reader(const ElfSection& s) const;
  /// The file bytes of \a s, copied (for small sections).
  std::vector<uint8_t> read_section(const ElfSection& s) const;
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
