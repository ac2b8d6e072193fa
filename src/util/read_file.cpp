#include "util/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/file_error.hpp"

namespace tailor {

namespace {
std::atomic<uint64_t> g_input_limit{kDefaultInputSizeLimit};

std::string too_big(uint64_t limit) { return fmt::format("over the input size limit of {} bytes", limit); }
const char* kRaiseHint = "raise the limit with --max-input-size BYTES";
}  // namespace

uint64_t input_size_limit() { return g_input_limit.load(std::memory_order_relaxed); }
void set_input_size_limit(uint64_t bytes) { g_input_limit.store(bytes, std::memory_order_relaxed); }

std::string_view file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

int open_input_file(const std::filesystem::path& path, std::string_view what, uint64_t& size) {
  // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw_file_error(path, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw_file_error(path, fmt::format("cannot read {}: {}", what, std::strerror(e)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw_file_error(path, fmt::format("cannot read {}: {}, not a regular file", what, file_kind(st.st_mode)));
  }
  size = static_cast<uint64_t>(st.st_size);
  if (size > input_size_limit()) {
    ::close(fd);
    throw_file_error(path, fmt::format("cannot read {}: {} bytes, {}", what, size, too_big(input_size_limit())),
                     kRaiseHint);
  }
  return fd;
}

std::optional<std::string> read_bounded(int fd, uint64_t size, std::string& buf) {
  const uint64_t limit = input_size_limit();
  if (size > limit) return fmt::format("{} bytes, {}", size, too_big(limit));
  // st_size is a hint (/proc files say 0): a known size is read and no more
  // (no read() for the end), an unknown one to the end, never past the limit.
  const bool sized = size > 0;
  buf.resize(static_cast<size_t>(sized ? size : 4096));
  size_t n = 0;
  for (;;) {
    if (sized && n == static_cast<size_t>(size)) break;
    if (n == buf.size()) {
      if (n > limit) return too_big(limit);
      buf.resize(static_cast<size_t>(std::min<uint64_t>(limit + 1, uint64_t{n} * 2)));
    }
    ssize_t r = ::read(fd, buf.data() + n, buf.size() - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return std::string(std::strerror(errno));
    if (r == 0) break;
    n += static_cast<size_t>(r);
  }
  if (n > limit) return too_big(limit);
  buf.resize(n);
  return std::nullopt;
}

std::string read_file(const std::filesystem::path& path, std::string_view what) {
  uint64_t size = 0;
  int fd = open_input_file(path, what, size);
  std::string out;
  std::optional<std::string> why = read_bounded(fd, size, out);
  ::close(fd);
  if (why)
    throw_file_error(path, fmt::format("cannot read {}: {}", what, *why),
                     why->find("limit") != std::string::npos ? kRaiseHint : "");
  return out;
}

void require_text(const std::filesystem::path& path, std::string_view text) {
  size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return;
  Diagnostic d;
  d.path = path.string();
  d.message = fmt::format("not a text file (a NUL byte at offset {})", nul);
  throw DiagnosticError(d);
}

std::string read_text_file(const std::filesystem::path& path, std::string_view what) {
  std::string text = read_file(path, what);
  require_text(path, text);
  return text;
}

}  // namespace tailor
