#include "binfmt/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace {
// A binary is read from a regular file only: a FIFO or a device would block
// or never end (the open itself is O_NONBLOCK for that reason).
void require_regular(int fd, const struct stat& st, const std::filesystem::path& path) {
  if (S_ISREG(st.st_mode)) return;
  ::close(fd);
  Diagnostic d;
  d.path = path.string();
  d.message = fmt::format("cannot read: {}, not a regular file", file_kind(st.st_mode));
  throw DiagnosticError(std::move(d));
}
}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw_system_error(path, "open", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    errno = e;
    throw_system_error(path, "stat", errno);
  }
  require_regular(fd, st, path);
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ > 0) {
    addr_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr_ == MAP_FAILED) {
      int e = errno;
      addr_ = nullptr;
      ::close(fd);
      errno = e;
      throw_system_error(path, "map", errno);
    }
    ::madvise(addr_, size_, MADV_SEQUENTIAL);  // scanned front to back
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (addr_) ::munmap(addr_, size_);
}

FileReader::FileReader(const std::filesystem::path& path) : path_(path.string()) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) throw_system_error(path, "open", errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    int e = errno;
    ::close(fd_);
    errno = e;
    throw_system_error(path, "stat", errno);
  }
  require_regular(fd_, st, path);
  size_ = static_cast<uint64_t>(st.st_size);
}

FileReader::~FileReader() {
  if (fd_ >= 0) ::close(fd_);
}

void FileReader::read_raw(uint64_t offset, uint64_t length, uint8_t* out) const {
  while (length > 0) {
    ssize_t n = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = errno;  // before path_ becomes a path (which may allocate)
      throw_system_error(path_, n < 0 ? "read" : "read (file shrank)", e);
    }
    out += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
}

}  // namespace tailor
