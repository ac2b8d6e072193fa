#include "prune/zip_writer.hpp"

#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <libdeflate.h>

#include "prune/parallel_deflate.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

constexpr uint64_t kMax32 = 0xffffffffu;
constexpr uint32_t kDosDate = 0x00210000;  // 1980-01-01 00:00, the first valid DOS date

void le(std::string& s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}

std::string local_header(const WheelMember& m) {
  std::string h;
  le(h, 0x04034b50, 4);
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
  le(h, 0x02014b50, 4);
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

void refuse_zip64_members(const Wheel& w) {
  if (w.members.size() >= 0xffff)
    throw_format_error(fmt::format(
        "the wheel has {} members: the pruned wheel would need zip64, which tailor does not write", w.members.size()));
  for (const auto& m : w.members)
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

uint64_t ZipWriter::add_deflated(const std::string& name, ByteSlice data, const WheelMember& like) {
  std::vector<uint8_t> packed = std::move(deflate_parallel(std::span(&data, 1))[0]);
  add_packed(name, ByteSlice(packed.data(), packed.size()), crc32_of(data), data.size(), like);
  return packed.size();
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
  le(e, 0x06054b50, 4);
  le(e, 0, 4);
  le(e, members_.size(), 2);
  le(e, members_.size(), 2);
  le(e, dir_size, 4);
  le(e, dir_start, 4);
  le(e, 0, 2);
  put(e.data(), e.size());
}

namespace {
std::string record_text(const unsigned char* md, unsigned int len) {
  unsigned char b64[48] = {};
  int n = EVP_EncodeBlock(b64, md, static_cast<int>(len));
  std::string s(reinterpret_cast<char*>(b64), static_cast<size_t>(n));
  while (!s.empty() && s.back() == '=') s.pop_back();
  std::replace(s.begin(), s.end(), '+', '-');
  std::replace(s.begin(), s.end(), '/', '_');
  return "sha256=" + s;
}
}  // namespace

std::string record_hash(ByteSlice data) {
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  return record_text(md, len);
}

MemberDigest digest_of(const ByteReader& data) {
  struct Free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) throw_format_error("openssl: cannot hash");
  MemberDigest d;
  std::vector<uint8_t> buf;
  constexpr uint64_t kPiece = uint64_t{1} << 20;
  for (uint64_t at = 0; at < data.size(); at += kPiece) {
    ByteSlice piece = data.read(at, std::min(kPiece, data.size() - at), "member", buf);
    d.crc32 = libdeflate_crc32(d.crc32, piece.data(), piece.size());
    EVP_DigestUpdate(ctx.get(), piece.data(), piece.size());
  }
  unsigned char md[32];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  d.record_hash = record_text(md, len);
  return d;
}

}  // namespace tailor
