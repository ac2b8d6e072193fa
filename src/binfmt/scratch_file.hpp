#pragma once
/// An unlinked temporary file: room for a wheel member inflated (a library of
/// gigabytes, or a zip bomb's claim) that is read with pread and written with
/// pwrite, so it never has to be held in memory or mapped. Nothing is left on
/// disk, whatever ends the process: the file has no name.

#include <cstdint>
#include <filesystem>
#include <string>

#include "binfmt/byte_slice.hpp"

namespace tailor {

class ScratchFile : public ByteReader {
 public:
  /// Creates it in \a dir; its errors name \a shown (the output it serves;
  /// empty: \a dir) with the system's reason.
  explicit ScratchFile(const std::filesystem::path& dir, std::string shown = {});
  ~ScratchFile() override;
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  uint64_t size() const override { return size_; }
  int fd() const { return fd_; }
  /// Appends \a bytes; throws DiagnosticError when the disk refuses them.
  void append(ByteSlice bytes);
  /// Writes \a bytes at \a offset, inside or at the end of what is there.
  void write_at(uint64_t offset, ByteSlice bytes);
  /// Cuts the file to \a size bytes (compaction shrinks a member).
  void truncate(uint64_t size);
  /// Appends every byte of \a other (a member inflated once, pruned for
  /// several targets): by the kernel (copy_file_range, a reflink where the
  /// file system shares extents), a piece at a time where it cannot.
  void append_copy_of(const ScratchFile& other);
  /// Writes \a length bytes of \a other (another file) at \a from to \a to here, by the
  /// kernel where it can: a compacted member written from the one inflated copy.
  void write_copy_of(const ScratchFile& other, uint64_t from, uint64_t to, uint64_t length);

 protected:
  void read_raw(uint64_t offset, uint64_t length, uint8_t* out) const override;

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string shown_;
};

}  // namespace tailor
