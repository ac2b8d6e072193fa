#pragma once
/// What a build really contains: the CUDA fatbins of every ELF file under a
/// path (a file, a directory, a wheel), summed per architecture. Every byte is
/// accounted for (bloaty's invariant): for each file, size = bytes in fatbin
/// sections + bytes outside them, and fatbin bytes = entries + overhead.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/artifact.hpp"
#include "binfmt/elf_file.hpp"
#include "binfmt/fatbin.hpp"
#include "binfmt/wheel.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

/// The entries of one architecture and kind, summed.
struct ArchTally {
  std::string arch;  ///< "sm_90a", "compute_90"
  FatbinKind kind = FatbinKind::sass;
  uint32_t number = 0;  ///< 90
  char suffix = '\0';   ///< 'a', 'f' or '\0'
  uint64_t count = 0;
  uint64_t bytes = 0;               ///< stored: headers and payloads
  uint64_t uncompressed_bytes = 0;  ///< headers and payloads once decompressed
  uint64_t compressed = 0;          ///< how many of them are compressed
};

/// Sums \a entries per (architecture, kind), ordered by architecture number,
/// then SASS before PTX, then suffix.
std::vector<ArchTally> tally(const std::vector<FatbinEntry>& entries);

struct FileInspection {
  std::string path;  ///< relative to the inspected root ("" when it is the file itself)
  uint64_t size = 0;
  uint16_t e_machine = 0;
  std::string machine;  ///< "x86_64"
  int bits = 64;
  uint64_t fatbin_bytes = 0;     ///< sizes of the fatbin sections
  uint64_t fatbin_overhead = 0;  ///< container headers and padding inside them
  size_t containers = 0;
  std::vector<FatbinEntry> entries;
  /// Per container (by its number): in __nv_relfatbin, relocatable device code,
  /// whose PTX prune keeps beside the SASS for a device link.
  std::vector<bool> relocatable;

  uint64_t outside_fatbin_bytes() const { return size - fatbin_bytes; }
};

struct Inspection {
  std::string root;                   ///< the path given
  std::string kind;                   ///< "file", "directory" or "wheel"
  std::vector<FileInspection> files;  ///< ELF files, sorted by path
  uint64_t other_files = 0;           ///< files that are not ELF
  uint64_t other_bytes = 0;
  std::vector<Diagnostic> broken;  ///< files of a directory that could not be read (the others still are)

  uint64_t elf_bytes() const;
  uint64_t fatbin_bytes() const;
  uint64_t total_bytes() const { return elf_bytes() + other_bytes; }
  std::vector<FatbinEntry> all_entries() const;
};

/// How much a build for one SM alone, or for a set of SMs, would keep (--target 9.0, --target 8.0,9.0).
struct Projection {
  std::string target;             ///< as given, "9.0"
  uint32_t number = 0;            ///< 90; a set's first
  std::vector<uint32_t> numbers;  ///< every SM kept: {90}, or a set's
  uint64_t total = 0;             ///< bytes now (all files)
  uint64_t dropped = 0;           ///< fatbin entries of other architectures
  uint64_t kept() const { return total - dropped; }
  double saving_percent() const {
    return total ? 100.0 * static_cast<double>(dropped) / static_cast<double>(total) : 0;
  }
};

/// \a n in decimal units with one decimal: "298.1 MB", "512 B".
std::string human_bytes(uint64_t n);

/// Parses "9.0", "sm_90", "sm90", "90" into 90; nullopt otherwise.
std::optional<uint32_t> parse_sm_target(std::string_view target);

/// Keeps the entries of \a number (any suffix, SASS and PTX), drops the rest.
Projection project(const Inspection& in, std::string_view target, uint32_t number);
/// Keeps the entries of each of \a numbers (an SM set), drops the rest.
Projection project(const Inspection& in, std::string_view target, const std::vector<uint32_t>& numbers);

/// Inspects the ELF file \a elf, shown as \a path.
FileInspection inspect_elf(std::string path, const ElfFile& elf);

/// Inspects \a bytes: an ELF file or a wheel (opened within \a limits; its
/// libraries inflated one at a time into temporary files). Throws
/// DiagnosticError for a corrupt one (without a path). Used by inspect_path
/// and the fuzzer.
Inspection inspect_bytes(std::string root, ByteSlice bytes, const WheelLimits& limits = {});

/// Inspects a file (ELF or wheel) or a directory (every regular file under
/// it, symlinks not followed). Throws DiagnosticError naming the file at fault.
Inspection inspect_path(const std::filesystem::path& path, const WheelLimits& limits = {});
/// The same, of \a a, whose kind is already read.
Inspection inspect_path(const Artifact& a, const WheelLimits& limits = {});

}  // namespace tailor
