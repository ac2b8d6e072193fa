#include "binfmt/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {
[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  Diagnostic d;
  d.path = path.string();
  d.message = fmt::format("cannot {}: {}", what, std::strerror(errno));
  throw DiagnosticError(std::move(d));
}
}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    errno = e;
    fail(path, "stat");
  }
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ > 0) {
    addr_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr_ == MAP_FAILED) {
      int e = errno;
      addr_ = nullptr;
      ::close(fd);
      errno = e;
      fail(path, "map");
    }
    ::madvise(addr_, size_, MADV_SEQUENTIAL);  // scanned front to back
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (addr_) ::munmap(addr_, size_);
}

FileReader::FileReader(const std::filesystem::path& path) : path_(path.string()) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail(path, "open");
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    int e = errno;
    ::close(fd_);
    errno = e;
    fail(path, "stat");
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

FileReader::~FileReader() {
  if (fd_ >= 0) ::close(fd_);
}

void FileReader::read_raw(uint64_t offset, uint64_t length, uint8_t* out) const {
  while (length > 0) {
    ssize_t n = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path_, n < 0 ? "read" : "read (file shrank)");
    out += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
}

}  // namespace tailor
