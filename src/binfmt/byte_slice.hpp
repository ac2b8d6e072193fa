#pragma once
/// Bounds-checked views of untrusted bytes (bloaty's StrictSubstr/ReadFixed
/// habit): every read of an ELF file, fatbin or zip archive goes through a
/// ByteSlice, and every offset computation through checked_add/checked_mul.
/// A read that does not fit throws DiagnosticError naming what was being read
/// and where; the caller adds the file's path.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tailor {

/// Throws DiagnosticError with \a message (no path; callers add it).
[[noreturn]] void throw_format_error(std::string message);

/// \a a + \a b; throws when the sum overflows 64 bits.
uint64_t checked_add(uint64_t a, uint64_t b, std::string_view what);
/// \a a * \a b; throws when the product overflows 64 bits.
uint64_t checked_mul(uint64_t a, uint64_t b, std::string_view what);
/// \a v rounded up to a multiple of \a alignment (a power of two; 0 or 1: \a v).
uint64_t checked_align_up(uint64_t v, uint64_t alignment, std::string_view what);

/// A read-only window into a larger input. base() is the window's offset in
/// the whole input, so error messages give offsets a user can find with xxd.
class ByteSlice {
 public:
  ByteSlice() = default;
  ByteSlice(const uint8_t* data, uint64_t size, uint64_t base = 0) : data_(data), size_(size), base_(base) {}
  /// A slice over the bytes of \a s (which must outlive it).
  static ByteSlice of(std::string_view s) { return ByteSlice(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  uint64_t base() const { return base_; }
  bool empty() const { return size_ == 0; }

  /// The \a length bytes at \a offset; throws when they do not fit.
  ByteSlice sub(uint64_t offset, uint64_t length, std::string_view what) const;
  /// The bytes from \a offset to the end; throws when \a offset is past it.
  ByteSlice from(uint64_t offset, std::string_view what) const;
  /// Whether [offset, offset + length) lies inside the slice (no overflow).
  bool contains(uint64_t offset, uint64_t length) const { return offset <= size_ && length <= size_ - offset; }
  /// Whether the slice starts with \a magic.
  bool starts_with(std::string_view magic) const {
    return magic.size() <= size_ && std::memcmp(data_, magic.data(), magic.size()) == 0;
  }
  std::string_view as_string_view() const { return {reinterpret_cast<const char*>(data_), size_}; }

  /// The unsigned integer of type \a T at \a offset, little-endian.
  template <class T>
  T read_le(uint64_t offset, std::string_view what) const {
    return read<T>(offset, false, what);
  }
  /// The unsigned integer of type \a T at \a offset, big-endian.
  template <class T>
  T read_be(uint64_t offset, std::string_view what) const {
    return read<T>(offset, true, what);
  }
  /// The unsigned integer of type \a T at \a offset in the given byte order.
  template <class T>
  T read(uint64_t offset, bool big_endian, std::string_view what) const {
    static_assert(std::is_unsigned_v<T>);
    ByteSlice s = sub(offset, sizeof(T), what);
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      size_t shift = big_endian ? (sizeof(T) - 1 - i) * 8 : i * 8;
      v |= static_cast<T>(static_cast<T>(s.data_[i]) << shift);
    }
    return v;
  }

  /// The NUL-terminated string starting at \a offset (without the NUL);
  /// throws when \a offset is outside or no NUL follows.
  std::string_view cstring(uint64_t offset, std::string_view what) const;

 private:
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  uint64_t base_ = 0;
};

}  // namespace tailor

namespace tailor {

/// Random access to an input that need not be in memory (a 456 MB library is
/// read header by header with pread, so inspecting it costs kilobytes, where
/// a mapping would pull whole large folios of the page cache into RSS). Reads
/// are bounds-checked like ByteSlice::sub and give the same messages.
class ByteReader {
 public:
  virtual ~ByteReader() = default;
  virtual uint64_t size() const = 0;
  /// Offset of this input inside the whole file, for messages.
  virtual uint64_t base() const { return 0; }
  /// The \a length bytes at \a offset, copied into \a buf; throws when they
  /// do not fit. The slice is valid until \a buf changes.
  ByteSlice read(uint64_t offset, uint64_t length, std::string_view what, std::vector<uint8_t>& buf) const;

 protected:
  /// Copies bytes already known to be in range.
  virtual void read_raw(uint64_t offset, uint64_t length, uint8_t* out) const = 0;
};

/// A ByteReader over bytes in memory.
class SliceReader : public ByteReader {
 public:
  explicit SliceReader(ByteSlice s) : s_(s) {}
  uint64_t size() const override { return s_.size(); }
  uint64_t base() const override { return s_.base(); }

 protected:
  void read_raw(uint64_t offset, uint64_t length, uint8_t* out) const override;

 private:
  ByteSlice s_;
};

/// The window [offset, offset + size) of another reader (a section of a file).
class WindowReader : public ByteReader {
 public:
  /// Throws when the window does not fit in \a parent.
  WindowReader(const ByteReader& parent, uint64_t offset, uint64_t size, std::string_view what);
  uint64_t size() const override { return size_; }
  uint64_t base() const override { return parent_->base() + offset_; }

 protected:
  void read_raw(uint64_t offset, uint64_t length, uint8_t* out) const override;

 private:
  const ByteReader* parent_;
  uint64_t offset_, size_;
};

}  // namespace tailor
