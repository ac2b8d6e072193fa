#include "binfmt/wheel.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <libdeflate.h>
#include <zlib.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {

// Deflate cannot expand more than ~1032:1; a larger claim is corruption.
constexpr uint64_t kMaxRatio = 1100;
// What a streamed member is inflated through, a piece at a time.
constexpr uint64_t kStreamBuffer = uint64_t{1} << 20;

// A whole member: libdeflate, several times zlib's speed (the size is known).
void inflate_whole(const WheelMember& m, ByteSlice body, std::vector<uint8_t>& out) {
  struct Free {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
  };
  std::unique_ptr<libdeflate_decompressor, Free> d(libdeflate_alloc_decompressor());
  if (!d) throw_format_error("libdeflate: cannot allocate a decompressor");
  size_t got = 0;
  libdeflate_result rc = libdeflate_deflate_decompress(d.get(), body.data(), body.size(), out.data(), out.size(), &got);
  if (rc == LIBDEFLATE_SUCCESS && got == out.size()) return;
  if (rc == LIBDEFLATE_SUCCESS)
    throw_format_error(
        fmt::format("corrupt zip archive: '{}' inflates to {} bytes, {} expected", m.name, got, out.size()));
  throw_format_error(
      fmt::format("corrupt zip archive: cannot inflate '{}' ({})", m.name,
                  rc == LIBDEFLATE_INSUFFICIENT_SPACE ? "longer than its size" : "invalid deflate data"));
}

// The first bytes of a member: zlib, which can stop early.
void inflate_prefix(const WheelMember& m, ByteSlice body, std::vector<uint8_t>& out) {
  const uint64_t limit = out.size();
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw_format_error("zlib: cannot initialise inflate");
  uint64_t in_pos = 0, out_pos = 0;
  int rc = Z_OK;
  // zlib counts in 32-bit uInt: feed both sides in chunks.
  constexpr uint64_t kChunk = 1u << 30;
  while (out_pos < limit && rc == Z_OK) {
    if (z.avail_in == 0 && in_pos < body.size()) {
      z.next_in = const_cast<Bytef*>(body.data() + in_pos);
      z.avail_in = static_cast<uInt>(std::min(kChunk, body.size() - in_pos));
      in_pos += z.avail_in;
    }
    z.next_out = out.data() + out_pos;
    z.avail_out = static_cast<uInt>(std::min(kChunk, limit - out_pos));
    uInt before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    out_pos += before - z.avail_out;
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && in_pos >= body.size()) break;
    if (rc == Z_BUF_ERROR) rc = Z_OK;
  }
  std::string why = z.msg ? z.msg : "zlib error";
  inflateEnd(&z);
  if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
    throw_format_error(fmt::format("corrupt zip archive: cannot inflate '{}' ({})", m.name, why));
  if (out_pos < limit)
    throw_format_error(
        fmt::format("corrupt zip archive: '{}' inflates to {} bytes, {} expected", m.name, out_pos, limit));
}

// A whole member into \a out, kStreamBuffer bytes at a time (zlib, which can
// stop anywhere): never more than the declared size, whatever the stream holds.
void inflate_streaming(const Wheel& w, const WheelMember& m, ByteSlice body, ScratchFile& out) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw_format_error("zlib: cannot initialise inflate");
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  std::vector<uint8_t> buf(kStreamBuffer);
  uint64_t in_pos = 0;
  uint32_t crc = 0;
  // Input a piece at a time, each given back once read: a member of hundreds of
  // megabytes never stays mapped whole.
  constexpr uint64_t kChunk = kStreamBuffer;
  for (int rc = Z_OK; rc != Z_STREAM_END;) {
    if (z.avail_in == 0 && in_pos < body.size()) {
      if (in_pos > 0) w.release(body.sub(in_pos - std::min(in_pos, kChunk), std::min(in_pos, kChunk), "zip member"));
      z.next_in = const_cast<Bytef*>(body.data() + in_pos);
      z.avail_in = static_cast<uInt>(std::min(kChunk, body.size() - in_pos));
      in_pos += z.avail_in;
    }
    z.next_out = buf.data();
    z.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      throw_format_error(fmt::format("corrupt zip archive: cannot inflate '{}' (invalid deflate data)", m.name));
    uint64_t got = buf.size() - z.avail_out;
    if (got > m.uncompressed_size - out.size())
      throw_format_error(fmt::format("corrupt zip archive: cannot inflate '{}' (longer than its size)", m.name));
    crc = libdeflate_crc32(crc, buf.data(), got);
    out.append(ByteSlice(buf.data(), got));
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && in_pos >= body.size()) break;  // the stream stops short
  }
  w.release(body);
  if (out.size() != m.uncompressed_size)
    throw_format_error(fmt::format("corrupt zip archive: '{}' inflates to {} bytes, {} expected", m.name, out.size(),
                                   m.uncompressed_size));
  if (crc != m.crc32) throw_format_error(fmt::format("corrupt zip archive: CRC-32 mismatch in '{}'", m.name));
}

// A member whose claimed size no deflate stream of its length can reach.
void check_claim(const WheelMember& m) {
  if (m.method == 8 && m.uncompressed_size > checked_mul(m.compressed_size + 1, kMaxRatio, "zip member"))
    throw_format_error(fmt::format("corrupt zip archive: member '{}' claims {} bytes from {} compressed", m.name,
                                   m.uncompressed_size, m.compressed_size));
}

[[noreturn]] void over_limit(std::string message, std::string hint) {
  Diagnostic d;
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(std::move(d));
}

// Whether \a size is more than \a ratio times \a packed (no overflow).
bool over_ratio(uint64_t size, uint64_t packed, uint64_t ratio) {
  if (packed == 0) return size > 0;
  return ratio <= UINT64_MAX / packed && size > packed * ratio;
}

// The sizes the directory declares, against the limits: a bomb is refused
// here, before one byte of it is inflated. What inflation finds later can only
// be less (each member stops at its declared size).
void check_limits(const Wheel& w, const WheelLimits& limits) {
  uint64_t total = 0;
  for (const auto& m : w.members) {
    if (m.method == 8 && m.uncompressed_size > kRatioFloor &&
        over_ratio(m.uncompressed_size, m.compressed_size, limits.max_ratio))
      over_limit(fmt::format("member '{}' would inflate {} bytes to {} (more than {}:1), as a zip bomb does", m.name,
                             m.compressed_size, m.uncompressed_size, limits.max_ratio),
                 "raise the limit with --max-ratio N if the wheel is trusted");
    total = m.uncompressed_size > UINT64_MAX - total ? UINT64_MAX : total + m.uncompressed_size;
  }
  if (total > limits.max_unpacked)
    over_limit(fmt::format("the wheel would unpack to {} bytes, more than the limit of {}", total, limits.max_unpacked),
               "raise the limit with --max-unpacked BYTES (64G) if the wheel is trusted");
}

// A name pip would write outside the install folder ("../x", "/etc/x", "a/../../x").
bool leaves_the_archive(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) return true;
  for (size_t at = 0; at <= name.size();) {
    size_t end = std::min(name.find('/', at), name.size());
    if (name.compare(at, end - at, "..") == 0 && end - at == 2) return true;
    at = end + 1;
  }
  return false;
}

// What a zip allows and a wheel must not have: two members of one name (which
// one a reader takes is up to the reader), names outside the archive, links, and
// members whose data overlap (one compressed body counted many times: a zip bomb).
void check_members(const Wheel& w) {
  std::vector<const WheelMember*> by_name, by_offset;
  for (const auto& m : w.members) {
    if (leaves_the_archive(m.name))
      throw_format_error(fmt::format("not a usable wheel: member '{}' points outside the install folder", m.name));
    // A Unix mode (made on Unix: version_made_by's high byte 3) of a symbolic
    // link: unzip would create a link that may point anywhere; pip never writes one.
    if (m.version_made_by >> 8 == 3 && ((m.external_attributes >> 16) & 0170000) == 0120000)
      throw_format_error(fmt::format("not a usable wheel: member '{}' is a symbolic link", m.name));
    by_name.push_back(&m);
  }
  by_offset = by_name;
  std::sort(by_name.begin(), by_name.end(), [](auto* a, auto* b) { return a->name < b->name; });
  for (size_t i = 1; i < by_name.size(); ++i)
    if (by_name[i]->name == by_name[i - 1]->name)
      throw_format_error(fmt::format("not a usable wheel: two members named '{}'", by_name[i]->name));
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) {  // ties in member order
    return a->local_header_offset != b->local_header_offset ? a->local_header_offset < b->local_header_offset : a < b;
  });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const WheelMember& prev = *by_offset[i - 1];
    ByteSlice body = w.stored(prev);
    if (body.base() + body.size() > by_offset[i]->local_header_offset)
      throw_format_error(
          fmt::format("corrupt zip archive: members '{}' and '{}' overlap (one stored body read as many)", prev.name,
                      by_offset[i]->name));
    // Each local header read maps its page: many small members would otherwise stay mapped whole.
    if (i % 4096 == 0) w.release(w.data);
  }
  w.release(w.data);
}

}  // namespace

std::optional<Wheel> try_open_wheel(ByteSlice data, const WheelLimits& limits, bool file_mapping) {
  bool local = starts_like_zip(data);
  std::optional<uint64_t> end = find_zip_end(data);
  if (!end) {
    if (local) throw_format_error("truncated zip archive: no end-of-central-directory record");
    return std::nullopt;
  }
  Wheel w;
  w.data = data;
  w.file_mapping = file_mapping;
  w.members = read_zip_directory(data, *end);
  check_members(w);
  check_limits(w, limits);
  return w;
}

std::vector<uint8_t> Wheel::read(const WheelMember& m) const { return extract(m, m.uncompressed_size, true); }

std::vector<uint8_t> Wheel::read_prefix(const WheelMember& m, uint64_t n) const {
  return extract(m, std::min(n, m.uncompressed_size), false);
}

ByteSlice Wheel::stored(const WheelMember& m) const { return zip_member_data(data, m); }

std::vector<uint8_t> Wheel::extract(const WheelMember& m, uint64_t limit, bool check) const {
  ByteSlice body = stored(m);
  std::vector<uint8_t> out;
  if (m.method == 0) {
    if (m.compressed_size != m.uncompressed_size)
      throw_format_error(fmt::format("corrupt zip archive: stored member '{}' has two sizes", m.name));
    out.assign(body.data(), body.data() + std::min(limit, body.size()));
  } else if (m.method == 8) {
    check_claim(m);
    if (limit > kMaxInMemoryMember)
      throw_format_error(
          fmt::format("'{}' is {} bytes, more than tailor reads into memory ({})", m.name, limit, kMaxInMemoryMember));
    out.resize(limit);
    if (limit == m.uncompressed_size) {
      inflate_whole(m, body, out);
    } else {
      inflate_prefix(m, body, out);
    }
  } else {
    throw_format_error(
        fmt::format("unsupported zip compression method {} for '{}' (wheels use 0 or 8)", m.method, m.name));
  }
  release(data.sub(m.local_header_offset, body.base() + body.size() - m.local_header_offset, "zip member"));
  if (check && crc32_of(ByteSlice(out.data(), out.size())) != m.crc32)
    throw_format_error(fmt::format("corrupt zip archive: CRC-32 mismatch in '{}'", m.name));
  return out;
}

std::unique_ptr<ScratchFile> Wheel::inflate_to(const WheelMember& m, const std::filesystem::path& dir,
                                               const std::string& shown) const {
  ByteSlice body = stored(m);
  if (m.method != 0 && m.method != 8)
    throw_format_error(
        fmt::format("unsupported zip compression method {} for '{}' (wheels use 0 or 8)", m.method, m.name));
  if (m.method == 0 && m.compressed_size != m.uncompressed_size)
    throw_format_error(fmt::format("corrupt zip archive: stored member '{}' has two sizes", m.name));
  check_claim(m);
  auto out = std::make_unique<ScratchFile>(dir, shown);
  if (m.method == 8) {
    inflate_streaming(*this, m, body, *out);
    return out;
  }
  uint32_t crc = 0;
  for (uint64_t at = 0; at < body.size(); at += kStreamBuffer) {
    ByteSlice piece = body.sub(at, std::min(kStreamBuffer, body.size() - at), "zip member");
    crc = libdeflate_crc32(crc, piece.data(), piece.size());
    out->append(piece);
    release(piece);
  }
  if (crc != m.crc32) throw_format_error(fmt::format("corrupt zip archive: CRC-32 mismatch in '{}'", m.name));
  return out;
}

void Wheel::release(ByteSlice piece) const {
  if (!file_mapping || piece.size() == 0) return;
  // Whole pages around the piece: the neighbours' bytes on them are mapped again
  // from the page cache when read (the mapping is read-only, nothing is lost).
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  uintptr_t from = reinterpret_cast<uintptr_t>(piece.data()) & ~(page - 1);
  uintptr_t to = (reinterpret_cast<uintptr_t>(piece.data()) + piece.size() + page - 1) & ~(page - 1);
  ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

uint32_t crc32_of(ByteSlice data) { return libdeflate_crc32(0, data.data(), data.size()); }

}  // namespace tailor
