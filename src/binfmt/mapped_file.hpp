#pragma once
/// A read-only memory mapping of a whole file. Inspecting a 456 MB
/// libtorch_cuda.so touches only the pages of its headers, so memory stays
/// small where reading the file into a buffer would not.

#include <filesystem>

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

}  // namespace tailor
