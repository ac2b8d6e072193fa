#pragma once
/// The CUDA fatbin container format, as found in an ELF file's .nv_fatbin
/// section: containers back to back (8-byte aligned), each a 16-byte header
/// followed by entries (SASS cubins, PTX), each entry a header and a payload.
/// Layout verified against nvcc/cuobjdump 13.0 and torch 2.11's
/// libtorch_cuda.so (CUDA's fatbinary.h and fatbinary_section.h; tests/data/elf/README.md):
///
///   container: u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
///              u64 payload size (the entries that follow)
///   entry:     u16 kind (1 PTX, 2 ELF cubin, 8 NVVM IR), u16 version (0x101),
///              u32 header size (0x40; 0x50-0x70 with an extension),
///              u64 payload size (8-byte padded), u32 compressed size (exact),
///              u32 extension offset, u16 minor, u16 major, u32 arch (90),
///              u32 name offset, u32 name length, u64 flags, u64 reserved,
///              u64 uncompressed size (compressed entries)
///   flags:     0x1 64-bit, 0x2 debug, 0x10 linux, 0x2000 LZ4, 0x8000 zstd,
///              0x100000 arch-specific ("sm_90a"), 0x200000 family ("sm_100f")

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_slice.hpp"
#include "kb/runs_on.hpp"
#include "util/enum_names.hpp"

namespace tailor {

/// What an entry holds.
enum class FatbinKind { ptx, sass, nvvm, other };

/// How an entry's payload is compressed.
enum class FatbinCompression { none, lz4, zstd };

inline constexpr EnumNames<FatbinKind, 4> kFatbinKinds{
    {{{FatbinKind::ptx, "ptx"}, {FatbinKind::sass, "sass"}, {FatbinKind::nvvm, "nvvm"}, {FatbinKind::other, "other"}}}};
inline constexpr EnumNames<FatbinCompression, 3> kFatbinCompressions{
    {{{FatbinCompression::none, "none"}, {FatbinCompression::lz4, "lz4"}, {FatbinCompression::zstd, "zstd"}}}};
constexpr std::string_view fatbin_kind_name(FatbinKind k) { return kFatbinKinds.name(k); }
constexpr std::string_view fatbin_compression_name(FatbinCompression c) { return kFatbinCompressions.name(c); }

struct FatbinEntry {
  uint64_t offset = 0;  ///< of the entry header, inside the section
  uint16_t raw_kind = 0;
  uint16_t version = 0;  ///< of the entry header layout (0x101)
  FatbinKind kind = FatbinKind::other;
  uint32_t arch = 0;  ///< 90 for sm_90; 100 for sm_100
  uint64_t flags = 0;
  uint64_t header_size = 0;
  uint64_t payload_size = 0;       ///< bytes stored, padding included
  uint64_t uncompressed_size = 0;  ///< payload once decompressed; = payload_size when not compressed
  FatbinCompression compression = FatbinCompression::none;
  size_t container = 0;  ///< which container of its file holds it (inspection numbers them per file)

  static constexpr uint64_t kFlagArchSpecific = 0x100000;
  static constexpr uint64_t kFlagFamilySpecific = 0x200000;

  /// 'a' for arch-specific cubins, 'f' for family-specific ones, else '\0'.
  char suffix() const;
  /// The target it was built for, as the runs-on rule reads it (PTX or SASS).
  CudaCode code() const { return {arch, suffix(), kind == FatbinKind::ptx}; }
  /// "sm_90", "sm_90a", "sm_100f" for SASS; "compute_90" for PTX; "nvvm_90".
  std::string arch_name() const;
  /// Bytes the entry occupies in the file: header and payload.
  uint64_t stored_bytes() const { return header_size + payload_size; }
};

struct FatbinContainer {
  uint64_t offset = 0;  ///< of the container header, inside the section
  uint64_t header_size = 0;
  uint64_t payload_size = 0;
  uint16_t version = 0;
  size_t first_entry = 0;  ///< index into Fatbin::entries
  size_t entry_count = 0;
};

/// A walked .nv_fatbin section. Every byte is accounted for:
/// size == sum of entries' stored_bytes() + overhead().
struct Fatbin {
  uint64_t size = 0;  ///< the section's size
  std::vector<FatbinContainer> containers;
  std::vector<FatbinEntry> entries;

  /// Container headers, alignment padding, and bytes inside a container
  /// that no entry claims.
  uint64_t overhead() const;
};

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;
inline constexpr uint32_t kFatbinWrapperMagic = 0x466243B1;

/// Walks \a section (the bytes of .nv_fatbin). Returns nullopt when it does
/// not start with a container magic; throws DiagnosticError when it does but
/// a header is truncated or a size points past its container.
std::optional<Fatbin> try_open_fatbin(const ByteReader& section);
/// The same over bytes in memory.
std::optional<Fatbin> try_open_fatbin(ByteSlice section);

}  // namespace tailor
