#include "binfmt/scratch_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

ScratchFile::ScratchFile(const std::filesystem::path& dir, std::string shown)
    : shown_(shown.empty() ? dir.string() : std::move(shown)) {
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
    // A file system without O_TMPFILE: a named file, unlinked at once.
    std::string name = (dir / "tailor-scratch-XXXXXX").string();
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  if (fd_ < 0) {
    Diagnostic d;
    d.path = shown_;
    d.message = fmt::format("cannot create a temporary file: {}", std::strerror(errno));
    throw DiagnosticError(std::move(d));
  }
}

ScratchFile::~ScratchFile() { ::close(fd_); }

void ScratchFile::append(ByteSlice bytes) { write_at(size_, bytes); }

void ScratchFile::write_at(uint64_t offset, ByteSlice bytes) {
  for (uint64_t w = 0; w < bytes.size();) {
    ssize_t n = ::pwrite(fd_, bytes.data() + w, bytes.size() - w, static_cast<off_t>(offset + w));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Diagnostic d;
      d.path = shown_;
      d.message = fmt::format("cannot write a temporary file: {}", std::strerror(n < 0 ? errno : ENOSPC));
      throw DiagnosticError(std::move(d));
    }
    w += static_cast<uint64_t>(n);
  }
  size_ = std::max(size_, offset + bytes.size());
}

void ScratchFile::truncate(uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    Diagnostic d;
    d.path = shown_;
    d.message = fmt::format("cannot cut a temporary file: {}", std::strerror(errno));
    throw DiagnosticError(std::move(d));
  }
  size_ = size;
}

void ScratchFile::append_copy_of(const ScratchFile& other) { write_copy_of(other, 0, size_, other.size()); }

void ScratchFile::write_copy_of(const ScratchFile& other, uint64_t from, uint64_t to, uint64_t length) {
  while (length > 0) {
    loff_t a = static_cast<loff_t>(from), b = static_cast<loff_t>(to);
    ssize_t n = ::copy_file_range(other.fd_, &a, fd_, &b, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // not across these file systems: read and write below
    from += static_cast<uint64_t>(n), to += static_cast<uint64_t>(n), length -= static_cast<uint64_t>(n);
    size_ = std::max(size_, to);
  }
  std::vector<uint8_t> buf;
  while (length > 0) {
    uint64_t n = std::min<uint64_t>(length, 1 << 20);
    write_at(to, other.read(from, n, "temporary file", buf));
    from += n, to += n, length -= n;
  }
}

void ScratchFile::read_raw(uint64_t offset, uint64_t length, uint8_t* out) const {
  while (length > 0) {
    ssize_t n = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw_format_error(fmt::format("cannot read a temporary file: {}", n < 0 ? std::strerror(errno) : "it shrank"));
    out += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
}

}  // namespace tailor
