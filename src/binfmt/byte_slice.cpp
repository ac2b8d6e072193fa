#include "binfmt/byte_slice.hpp"

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

void throw_format_error(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  throw DiagnosticError(std::move(d));
}

uint64_t checked_add(uint64_t a, uint64_t b, std::string_view what) {
  uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw_format_error(fmt::format("{}: offset arithmetic overflows", what));
  return r;
}

uint64_t checked_mul(uint64_t a, uint64_t b, std::string_view what) {
  uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw_format_error(fmt::format("{}: size arithmetic overflows", what));
  return r;
}

uint64_t checked_align_up(uint64_t v, uint64_t alignment, std::string_view what) {
  if (alignment <= 1) return v;
  return checked_add(v, alignment - 1, what) & ~(alignment - 1);
}

ByteSlice ByteSlice::sub(uint64_t offset, uint64_t length, std::string_view what) const {
  if (!contains(offset, length)) {
    if (offset > size_)
      throw_format_error(fmt::format("truncated or corrupt input: {} starts at offset {:#x}, past the end ({:#x})",
                                     what, base_ + offset, base_ + size_));
    throw_format_error(fmt::format("truncated or corrupt input: {} at offset {:#x} needs {} bytes, only {} remain",
                                   what, base_ + offset, length, size_ - offset));
  }
  return ByteSlice(data_ + offset, length, base_ + offset);
}

ByteSlice ByteSlice::from(uint64_t offset, std::string_view what) const {
  if (offset > size_) return sub(offset, 0, what);  // throws
  return sub(offset, size_ - offset, what);
}

std::string_view ByteSlice::cstring(uint64_t offset, std::string_view what) const {
  ByteSlice rest = from(offset, what);
  const void* nul = rest.size_ ? std::memchr(rest.data_, 0, rest.size_) : nullptr;
  if (!nul)
    throw_format_error(fmt::format("truncated or corrupt input: {} at offset {:#x} is not NUL-terminated", what,
                                   base_ + offset));
  return {reinterpret_cast<const char*>(rest.data_), static_cast<size_t>(static_cast<const uint8_t*>(nul) - rest.data_)};
}

}  // namespace tailor
