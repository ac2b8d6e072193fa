#pragma once
/// A read-only memory mapping of a whole file, for readers that scan every
/// byte (the store-reference scan); header readers use FileReader.

#include <filesystem>
#include <string>

#include "binfmt/byte_slice.hpp"

namespace tailor {

class MappedFile {
 public:
  /// Maps \a path; throws DiagnosticError (with the path) when it cannot.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  ByteSlice bytes() const { return ByteSlice(static_cast<const uint8_t*>(addr_), size_); }

 private:
  void* addr_ = nullptr;
  uint64_t size_ = 0;
};

/// A file read with pread, header by header (see ByteReader).
class FileReader : public ByteReader {
 public:
  /// Opens \a path; throws DiagnosticError (with the path) when it cannot.
  explicit FileReader(const std::filesystem::path& path);
  ~FileReader() override;
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  uint64_t size() const override { return size_; }

 protected:
  void read_raw(uint64_t offset, uint64_t length, uint8_t* out) const override;

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

}  // namespace tailor
