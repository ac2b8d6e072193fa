#pragma once
/// The zip format (a wheel is a zip archive), read and written in one module.
/// The reader walks the central directory (zip64 included: torch wheels pass
/// 4 GiB unpacked) into members and finds where each member's data lies
/// (binfmt/wheel.hpp inflates it). The writer writes an archive front to back
/// to a file descriptor: members copied as they were stored, or given already
/// deflated. No zip64 is written: members and offsets must stay under 4 GiB (an
/// archive that would need more is refused, never written wrong).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binfmt/byte_slice.hpp"

namespace tailor {

struct WheelMember {
  std::string name;     ///< path inside the archive, "torch/lib/libtorch_cuda.so"
  uint16_t method = 0;  ///< 0 stored, 8 deflate
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  uint16_t version_made_by = 0;      ///< high byte 3: external_attributes hold a Unix mode
  uint32_t external_attributes = 0;  ///< Unix mode << 16 (executable bits of libraries)

  bool is_directory() const { return !name.empty() && name.back() == '/'; }
  bool operator==(const WheelMember&) const = default;
};

/// Whether \a data starts with a zip member's local header.
bool starts_like_zip(ByteSlice data);
/// Where the end-of-central-directory record of \a data lies; nullopt: it has none.
std::optional<uint64_t> find_zip_end(ByteSlice data);
/// The members the central directory names, from the end record at \a end.
/// Throws DiagnosticError when the directory is corrupt.
std::vector<WheelMember> read_zip_directory(ByteSlice data, uint64_t end);
/// \a m's bytes as stored (compressed), after its local header in \a data.
ByteSlice zip_member_data(ByteSlice data, const WheelMember& m);

struct Wheel;

/// Refuses, before any work, a wheel whose members the writer could not write
/// back: one of 4 GiB or more (unpacked or stored), or 65,535 members, need
/// zip64. The zip directory says so at once; found while writing, it cost a
/// whole prune first (31 s on a real wheel).
void refuse_zip64_members(const std::vector<WheelMember>& members);

class ZipWriter {
 public:
  /// Writes to \a fd; a failed write names \a shown (the wheel being made).
  ZipWriter(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {}
  /// Copies member \a m of \a w unchanged, a piece at a time, each piece's
  /// pages of the wheel given back once written (Wheel::release).
  void add_stored(const WheelMember& m, const Wheel& w);
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

}  // namespace tailor
