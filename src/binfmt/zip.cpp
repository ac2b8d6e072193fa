#include "binfmt/zip.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "binfmt/wheel.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

// The records' signatures and fixed sizes (APPNOTE.TXT 4.3), for the reader and the writer alike.
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfCentralDir = 0x06054b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kZip64End = 0x06064b50;
constexpr uint64_t kEocdSize = 22;
constexpr uint64_t kMaxComment = 0xffff;
constexpr uint64_t kLocalHeaderSize = 30;
constexpr uint64_t kCentralHeaderSize = 46;
constexpr uint64_t kMax32 = 0xffffffffu;
constexpr uint32_t kDosDate = 0x00210000;  // 1980-01-01 00:00, the first valid DOS date

struct Directory {
  uint64_t entries = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
};

std::optional<uint64_t> find_eocd(ByteSlice data) {
  if (data.size() < kEocdSize) return std::nullopt;
  uint64_t lowest = data.size() - kEocdSize > kMaxComment ? data.size() - kEocdSize - kMaxComment : 0;
  for (uint64_t at = data.size() - kEocdSize + 1; at-- > lowest;)
    if (data.read_le<uint32_t>(at, "zip end record") == kEndOfCentralDir) return at;
  return std::nullopt;
}

Directory read_directory_location(ByteSlice data, uint64_t eocd) {
  ByteSlice e = data.sub(eocd, kEocdSize, "zip end-of-central-directory record");
  Directory d{e.read_le<uint16_t>(10, "zip entry count"), e.read_le<uint32_t>(12, "zip directory size"),
              e.read_le<uint32_t>(16, "zip directory offset")};
  bool zip64 = d.entries == 0xffff || d.size == 0xffffffff || d.offset == 0xffffffff;
  if (eocd >= 20 && data.read_le<uint32_t>(eocd - 20, "zip64 locator") == kZip64Locator) {
    uint64_t at = data.read_le<uint64_t>(eocd - 20 + 8, "zip64 end record offset");
    ByteSlice z = data.sub(at, 56, "zip64 end-of-central-directory record");
    if (z.read_le<uint32_t>(0, "zip64 end record signature") != kZip64End)
      throw_format_error(fmt::format("corrupt zip archive: no zip64 end record at offset {:#x}", at));
    d = {z.read_le<uint64_t>(32, "zip64 entry count"), z.read_le<uint64_t>(40, "zip64 directory size"),
         z.read_le<uint64_t>(48, "zip64 directory offset")};
  } else if (zip64) {
    throw_format_error("corrupt zip archive: zip64 sizes without a zip64 locator");
  }
  return d;
}

// Fills the 0xffffffff fields of a central header from its zip64 extra field.
void apply_zip64_extra(ByteSlice extra, WheelMember& m, bool need_uncompressed, bool need_compressed,
                       bool need_offset) {
  uint64_t at = 0;
  while (extra.size() - at >= 4) {
    uint16_t id = extra.read_le<uint16_t>(at, "zip extra field id");
    uint16_t len = extra.read_le<uint16_t>(at + 2, "zip extra field size");
    ByteSlice body = extra.sub(at + 4, len, "zip extra field");
    if (id == 0x0001) {
      uint64_t p = 0;
      if (need_uncompressed) m.uncompressed_size = body.read_le<uint64_t>(std::exchange(p, p + 8), "zip64 size");
      if (need_compressed) m.compressed_size = body.read_le<uint64_t>(std::exchange(p, p + 8), "zip64 compressed size");
      if (need_offset) m.local_header_offset = body.read_le<uint64_t>(std::exchange(p, p + 8), "zip64 offset");
      return;
    }
    at += 4 + uint64_t{len};
  }
  if (need_uncompressed || need_compressed || need_offset)
    throw_format_error(fmt::format("corrupt zip archive: member '{}' lacks its zip64 sizes", m.name));
}

void le(std::string& s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}

std::string local_header(const WheelMember& m) {
  std::string h;
  le(h, kLocalHeader, 4);
  le(h, 20, 2);     // version needed: 2.0 (deflate)
  le(h, 0x800, 2);  // UTF-8 names
  le(h, m.method, 2);
  le(h, kDosDate, 4);  // fixed time and date: reproducible
  le(h, m.crc32, 4);
  le(h, m.compressed_size, 4);
  le(h, m.uncompressed_size, 4);
  le(h, m.name.size(), 2);
  le(h, 0, 2);
  return h + m.name;
}

std::string central_header(const WheelMember& m) {
  std::string h;
  le(h, kCentralHeader, 4);
  le(h, m.version_made_by ? m.version_made_by : (3 << 8) | 20, 2);
  le(h, 20, 2);
  le(h, 0x800, 2);
  le(h, m.method, 2);
  le(h, kDosDate, 4);
  le(h, m.crc32, 4);
  le(h, m.compressed_size, 4);
  le(h, m.uncompressed_size, 4);
  le(h, m.name.size(), 2);
  le(h, 0, 2);  // extra
  le(h, 0, 2);  // comment
  le(h, 0, 2);  // disk
  le(h, 0, 2);  // internal attributes
  le(h, m.external_attributes, 4);
  le(h, m.local_header_offset, 4);
  return h + m.name;
}

}  // namespace

bool starts_like_zip(ByteSlice data) {
  return data.size() >= 4 && data.read_le<uint32_t>(0, "zip signature") == kLocalHeader;
}

std::optional<uint64_t> find_zip_end(ByteSlice data) { return find_eocd(data); }

std::vector<WheelMember> read_zip_directory(ByteSlice data, uint64_t end) {
  std::vector<WheelMember> members;
  Directory d = read_directory_location(data, end);
  ByteSlice dir = data.sub(d.offset, d.size, "zip central directory");
  // Each central header takes at least kCentralHeaderSize (46) bytes: a count beyond that is corrupt.
  if (d.entries > dir.size() / kCentralHeaderSize)
    throw_format_error(
        fmt::format("corrupt zip archive: {} members claimed in a {}-byte directory", d.entries, dir.size()));
  members.reserve(d.entries);
  uint64_t at = 0;
  for (uint64_t i = 0; i < d.entries; ++i) {
    ByteSlice h = dir.sub(at, kCentralHeaderSize, "zip central directory header");
    if (h.read_le<uint32_t>(0, "zip central header signature") != kCentralHeader)
      throw_format_error(fmt::format("corrupt zip archive: bad central directory header at offset {:#x}", h.base()));
    WheelMember m;
    m.version_made_by = h.read_le<uint16_t>(4, "zip version made by");
    m.method = h.read_le<uint16_t>(10, "zip method");
    m.external_attributes = h.read_le<uint32_t>(38, "zip external attributes");
    m.crc32 = h.read_le<uint32_t>(16, "zip crc");
    m.compressed_size = h.read_le<uint32_t>(20, "zip compressed size");
    m.uncompressed_size = h.read_le<uint32_t>(24, "zip size");
    uint16_t name_len = h.read_le<uint16_t>(28, "zip name length");
    uint16_t extra_len = h.read_le<uint16_t>(30, "zip extra length");
    uint16_t comment_len = h.read_le<uint16_t>(32, "zip comment length");
    m.local_header_offset = h.read_le<uint32_t>(42, "zip local header offset");
    m.name = std::string(dir.sub(at + kCentralHeaderSize, name_len, "zip member name").as_string_view());
    ByteSlice extra = dir.sub(at + kCentralHeaderSize + name_len, extra_len, "zip extra field");
    bool u = m.uncompressed_size == 0xffffffff, c = m.compressed_size == 0xffffffff,
         o = m.local_header_offset == 0xffffffff;
    if (u || c || o) apply_zip64_extra(extra, m, u, c, o);
    at += kCentralHeaderSize + uint64_t{name_len} + extra_len + comment_len;
    members.push_back(std::move(m));
  }
  return members;
}

ByteSlice zip_member_data(ByteSlice data, const WheelMember& m) {
  ByteSlice lh = data.sub(m.local_header_offset, kLocalHeaderSize, fmt::format("local header of '{}'", m.name));
  if (lh.read_le<uint32_t>(0, "zip local header signature") != kLocalHeader)
    throw_format_error(fmt::format("corrupt zip archive: no local header for '{}' at offset {:#x}", m.name, lh.base()));
  uint64_t skip = kLocalHeaderSize + uint64_t{lh.read_le<uint16_t>(26, "zip name length")} +
                  lh.read_le<uint16_t>(28, "zip extra length");
  return data.sub(checked_add(m.local_header_offset, skip, "zip member"), m.compressed_size,
                  fmt::format("data of '{}'", m.name));
}

void ZipWriter::write_failed(int error) const {
  Diagnostic d;
  d.path = shown_;
  d.message = fmt::format("cannot write: {}", std::strerror(error));
  throw DiagnosticError(std::move(d));
}

void ZipWriter::put(const void* p, uint64_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    ssize_t w = ::write(fd_, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) write_failed(w < 0 ? errno : ENOSPC);
    c += w;
    n -= static_cast<uint64_t>(w);
    at_ += static_cast<uint64_t>(w);
  }
}

void refuse_zip64_members(const std::vector<WheelMember>& members) {
  if (members.size() >= 0xffff)
    throw_format_error(fmt::format(
        "the wheel has {} members: the pruned wheel would need zip64, which tailor does not write", members.size()));
  for (const auto& m : members)
    if (m.uncompressed_size > kMax32 || m.compressed_size > kMax32)
      throw_format_error(fmt::format(
          "member '{}' is {} bytes unpacked, {} stored: the pruned wheel would need zip64, which tailor does not write",
          m.name, m.uncompressed_size, m.compressed_size));
}

// Writes \a m's local header here; its data follows.
void ZipWriter::start(WheelMember m) {
  if (m.compressed_size > kMax32 || m.uncompressed_size > kMax32 || at_ > kMax32 || members_.size() >= 0xffff)
    throw_format_error(fmt::format("the pruned wheel would need zip64 ('{}'): not supported", m.name));
  m.local_header_offset = at_;
  std::string h = local_header(m);
  put(h.data(), h.size());
  members_.push_back(std::move(m));
}

void ZipWriter::add_stored(const WheelMember& m, const Wheel& w) {
  ByteSlice stored = w.stored(m);
  start(m);
  constexpr uint64_t kPiece = uint64_t{8} << 20;
  for (uint64_t at = 0; at < stored.size(); at += kPiece) {
    ByteSlice piece = stored.sub(at, std::min(kPiece, stored.size() - at), "zip member");
    put(piece.data(), piece.size());
    w.release(piece);
  }
}

void ZipWriter::add_packed(const std::string& name, ByteSlice packed, uint32_t crc, uint64_t size,
                           const WheelMember& like) {
  begin_packed(name, crc, size, like);
  append_packed(packed);
  end_packed();
}

void ZipWriter::begin_packed(const std::string& name, uint32_t crc, uint64_t size, const WheelMember& like) {
  WheelMember m = like;
  m.name = name;
  m.method = 8;
  m.crc32 = crc;
  m.uncompressed_size = size;
  m.compressed_size = 0;  // written back by end_packed()
  start(std::move(m));
  open_from_ = at_;
}

uint64_t ZipWriter::end_packed() {
  WheelMember& m = members_.back();
  m.compressed_size = at_ - open_from_;
  if (m.compressed_size > kMax32)
    throw_format_error(fmt::format("the pruned wheel would need zip64 ('{}'): not supported", m.name));
  std::string size;
  le(size, m.compressed_size, 4);
  // The local header's compressed size: 18 bytes in (signature, versions, flags, method, date, CRC-32).
  for (;;) {
    ssize_t w = ::pwrite(fd_, size.data(), size.size(), static_cast<off_t>(m.local_header_offset + 18));
    if (w < 0 && errno == EINTR) continue;
    if (w != static_cast<ssize_t>(size.size())) write_failed(w < 0 ? errno : ENOSPC);
    break;
  }
  return m.compressed_size;
}

void ZipWriter::finish() {
  uint64_t dir_start = at_;
  for (const auto& m : members_) {
    std::string h = central_header(m);
    put(h.data(), h.size());
  }
  uint64_t dir_size = at_ - dir_start;
  if (at_ > kMax32) throw_format_error("the pruned wheel would need zip64 (directory past 4 GiB): not supported");
  std::string e;
  le(e, kEndOfCentralDir, 4);
  le(e, 0, 4);
  le(e, members_.size(), 2);
  le(e, members_.size(), 2);
  le(e, dir_size, 4);
  le(e, dir_start, 4);
  le(e, 0, 2);
  put(e.data(), e.size());
}

}  // namespace tailor
