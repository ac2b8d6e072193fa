#pragma once
/// A wheel's RECORD lines for the members prune changes: sha256 as RECORD
/// writes it, and the CRC-32 the zip entry needs, in one pass over the bytes.

#include <cstdint>
#include <string>

#include "binfmt/byte_slice.hpp"

namespace tailor {

/// sha256 of \a data as a wheel RECORD writes it: "sha256=" + urlsafe base64, no padding.
std::string record_hash(ByteSlice data);

/// What a changed member's entries need: its CRC-32 and its RECORD hash.
struct MemberDigest {
  uint32_t crc32 = 0;
  std::string record_hash;
};
/// Both of \a data, read a buffer at a time.
MemberDigest digest_of(const ByteReader& data);

}  // namespace tailor
