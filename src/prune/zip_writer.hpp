#pragma once
/// Writes a zip archive (a wheel) front to back to a file descriptor: members
/// copied as they were stored, or deflated from bytes in memory. No zip64:
/// members and offsets must stay under 4 GiB (an archive that would need more
/// is refused, never written wrong).

#include <cstdint>
#include <string>
#include <vector>

#include "binfmt/byte_slice.hpp"
#include "binfmt/wheel.hpp"

namespace tailor {

/// Refuses, before any work, a wheel whose members the writer could not write
/// back: one of 4 GiB or more (unpacked or stored), or 65,535 members, need
/// zip64. The zip directory says so at once; found while writing, it cost a
/// whole prune first (31 s on a real wheel).
void refuse_zip64_members(const Wheel& w);

class ZipWriter {
 public:
  /// Writes to \a fd; a failed write names \a shown (the wheel being made).
  ZipWriter(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {}
  /// Copies member \a m of \a w unchanged, a piece at a time, each piece's
  /// pages of the wheel given back once written (Wheel::release).
  void add_stored(const WheelMember& m, const Wheel& w);
  /// Deflates \a data as member \a name; \a like gives its attributes.
  /// Returns the compressed size.
  uint64_t add_deflated(const std::string& name, ByteSlice data, const WheelMember& like);
  /// Adds member \a name from \a packed, the raw deflate stream of bytes of
  /// CRC-32 \a crc and length \a size; \a like gives its attributes.
  void add_packed(const std::string& name, ByteSlice packed, uint32_t crc, uint64_t size, const WheelMember& like);
  /// The same, the raw deflate stream written as it comes: begin_packed(), any
  /// number of append_packed(), end_packed(), which writes the compressed size
  /// back into the local header (the file must allow pwrite) and returns it.
  void begin_packed(const std::string& name, uint32_t crc, uint64_t size, const WheelMember& like);
  void append_packed(ByteSlice deflated) { put(deflated.data(), deflated.size()); }
  uint64_t end_packed();
  /// Bytes written so far: after finish(), the archive's size.
  uint64_t written() const { return at_; }
  /// Writes the central directory; the archive is complete after it.
  void finish();

 private:
  void put(const void* p, uint64_t n);
  [[noreturn]] void write_failed(int error) const;
  void start(WheelMember m);
  uint64_t open_from_ = 0;  ///< where the open member's data starts (begin_packed)
  int fd_;
  std::string shown_;
  uint64_t at_ = 0;
  std::vector<WheelMember> members_;
};

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
