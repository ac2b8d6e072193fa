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
    throw_format_error(
        fmt::format("truncated or corrupt input: {} at offset {:#x} is not NUL-terminated", what, base_ + offset));
  return {reinterpret_cast<const char*>(rest.data_),
          static_cast<size_t>(static_cast<const uint8_t*>(nul) - rest.data_)};
}

}  // namespace tailor

namespace tailor {

namespace {
// The same words ByteSlice::sub uses, so a reader's errors read alike.
[[noreturn]] void out_of_range(uint64_t base, uint64_t size, uint64_t offset, uint64_t length, std::string_view what) {
  if (offset > size)
    throw_format_error(fmt::format("truncated or corrupt input: {} starts at offset {:#x}, past the end ({:#x})", what,
                                   base + offset, base + size));
  throw_format_error(fmt::format("truncated or corrupt input: {} at offset {:#x} needs {} bytes, only {} remain", what,
                                 base + offset, length, size - offset));
}
}  // namespace

ByteSlice ByteReader::read(uint64_t offset, uint64_t length, std::string_view what, std::vector<uint8_t>& buf) const {
  const uint64_t n = size();
  if (offset > n || length > n - offset) out_of_range(base(), n, offset, length, what);
  buf.resize(length);
  if (length) read_raw(offset, length, buf.data());
  return ByteSlice(buf.data(), length, base() + offset);
}

void SliceReader::read_raw(uint64_t offset, uint64_t length, uint8_t* out) const {
  std::memcpy(out, s_.data() + offset, length);
}

WindowReader::WindowReader(const ByteReader& parent, uint64_t offset, uint64_t size, std::string_view what)
    : parent_(&parent), offset_(offset), size_(size) {
  const uint64_t n = parent.size();
  if (offset > n || size > n - offset) out_of_range(parent.base(), n, offset, size, what);
}

void WindowReader::read_raw(uint64_t offset, uint64_t length, uint8_t* out) const {
  std::vector<uint8_t> buf;
  parent_->read(offset_ + offset, length, "window", buf);
  std::memcpy(out, buf.data(), length);
}

}  // namespace tailor
