#pragma once
/// A wheel (.whl) is a zip archive (binfmt/zip.hpp reads its directory). This
/// reader inflates members
/// one at a time: small ones (RECORD) in memory, libraries streamed into an
/// unlinked temporary file, so memory stays bounded whatever sizes a member
/// declares. Limits on the ratio and the total unpacked size, checked when
/// the wheel is opened, stop a zip bomb before anything is inflated.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binfmt/byte_slice.hpp"
#include "binfmt/scratch_file.hpp"
#include "binfmt/zip.hpp"

namespace tailor {

/// Real wheels compress their libraries 2:1 to 10:1; deflate cannot pass 1032:1.
inline constexpr uint64_t kDefaultMaxRatio = 100;
/// torch's largest CUDA wheels unpack to about 5 GB.
inline constexpr uint64_t kDefaultMaxUnpacked = uint64_t{32} << 30;
/// Members this small are not held to the ratio (a 1 MiB file of spaces is no bomb).
inline constexpr uint64_t kRatioFloor = uint64_t{1} << 20;
/// The largest member read() inflates into memory (a RECORD, METADATA).
inline constexpr uint64_t kMaxInMemoryMember = uint64_t{64} << 20;

/// How far a wheel may unpack: --max-ratio and --max-unpacked.
struct WheelLimits {
  uint64_t max_ratio = kDefaultMaxRatio;        ///< a member's size over its compressed size
  uint64_t max_unpacked = kDefaultMaxUnpacked;  ///< all members' sizes together, in bytes
};

struct Wheel {
  ByteSlice data;  ///< the whole archive
  std::vector<WheelMember> members;
  /// \a data is a read-only mapping of a file (open_wheel_file): release() may
  /// drop its pages, which a later read maps again from the page cache.
  bool file_mapping = false;

  /// Gives the pages under \a piece (of \a data) back, so that reading a wheel
  /// front to back holds a bounded part of it in memory, not all it has read:
  /// a mapping's pages count in the process's resident memory until unmapped.
  /// Does nothing unless file_mapping.
  void release(ByteSlice piece) const;

  /// The member's bytes, inflated and checked against its size and CRC-32.
  /// Throws DiagnosticError for corrupt data, an unsupported method, or a
  /// member larger than kMaxInMemoryMember.
  std::vector<uint8_t> read(const WheelMember& m) const;
  /// The member's bytes inflated into a temporary file in \a dir, a buffer at
  /// a time, checked like read(); inflation stops as soon as it passes the
  /// declared size. A full disk is reported naming \a shown (default: \a dir).
  std::unique_ptr<ScratchFile> inflate_to(const WheelMember& m, const std::filesystem::path& dir,
                                          const std::string& shown = {}) const;
  /// At most the first \a n bytes of the member (no CRC check): enough to
  /// look at a magic number without inflating the whole member.
  std::vector<uint8_t> read_prefix(const WheelMember& m, uint64_t n) const;
  /// The member's bytes as stored (compressed), after its local header.
  ByteSlice stored(const WheelMember& m) const;

 private:
  std::vector<uint8_t> extract(const WheelMember& m, uint64_t limit, bool check) const;
};

/// The CRC-32 of \a data (zip's, as libdeflate computes it).
uint32_t crc32_of(ByteSlice data);

/// Parses \a data as a zip archive. Returns nullopt when it has no zip
/// signature; throws DiagnosticError when it has one but is corrupt, or
/// declares sizes over \a limits (with a hint naming the option to raise).
/// \a file_mapping: \a data maps a file read-only (Wheel::file_mapping).
std::optional<Wheel> try_open_wheel(ByteSlice data, const WheelLimits& limits = {}, bool file_mapping = false);

}  // namespace tailor
