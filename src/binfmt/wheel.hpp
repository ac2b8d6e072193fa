#pragma once
/// A wheel (.whl) is a zip archive. This reader walks the central directory
/// (zip64 included: torch wheels pass 4 GiB unpacked) and inflates members in
/// memory through zlib, so `tailor inspect x.whl` never unpacks to disk.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binfmt/byte_slice.hpp"

namespace tailor {

struct WheelMember {
  std::string name;  ///< path inside the archive, "torch/lib/libtorch_cuda.so"
  uint16_t method = 0;  ///< 0 stored, 8 deflate
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  uint16_t version_made_by = 0;      ///< high byte 3: external_attributes hold a Unix mode
  uint32_t external_attributes = 0;  ///< Unix mode << 16 (executable bits of libraries)

  bool is_directory() const { return !name.empty() && name.back() == '/'; }
};

struct Wheel {
  ByteSlice data;  ///< the whole archive
  std::vector<WheelMember> members;

  /// The member's bytes, inflated and checked against its size and CRC-32.
  /// Throws DiagnosticError for corrupt data or an unsupported method.
  std::vector<uint8_t> read(const WheelMember& m) const;
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
/// signature; throws DiagnosticError when it has one but is corrupt.
std::optional<Wheel> try_open_wheel(ByteSlice data);

}  // namespace tailor
