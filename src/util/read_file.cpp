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

namespace tailor {

namespace {
std::atomic<uint64_t> g_input_limit{kDefaultInputSizeLimit};

[[noreturn]] void fail(const std::filesystem::path& path, std::string message, std::string hint = {}) {
  Diagnostic d;
  d.path = path.string();
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(d);
}

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
  if (fd < 0) fail(path, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    fail(path, fmt::format("cannot read {}: {}", what, std::strerror(e)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path, fmt::format("cannot read {}: {}, not a regular file", what, file_kind(st.st_mode)));
  }
  size = static_cast<uint64_t>(st.st_size);
  if (size > input_size_limit()) {
    ::close(fd);
    fail(path, fmt::format("cannot read {}: {} bytes, {}", what, size, too_big(input_size_limit())), kRaiseHint);
  }
  return fd;
}

std::string read_file(const std::filesystem::path& path, std::string_view what) {
  uint64_t size = 0;
  int fd = open_input_file(path, what, size);
  const uint64_t limit = input_size_limit();
  // st_size is a hint (/proc files say 0, a file may grow): read to the end, never past the limit.
  std::string out;
  out.resize(static_cast<size_t>(size > 0 ? size : 4096));
  size_t n = 0;
  for (;;) {
    if (n == out.size()) {
      if (n > limit) break;
      out.resize(static_cast<size_t>(std::min<uint64_t>(limit + 1, uint64_t{n} * 2)));
    }
    ssize_t r = ::read(fd, out.data() + n, out.size() - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      ::close(fd);
      fail(path, fmt::format("cannot read {}: {}", what, std::strerror(e)));
    }
    if (r == 0) break;
    n += static_cast<size_t>(r);
  }
  ::close(fd);
  if (n > limit) fail(path, fmt::format("cannot read {}: {}", what, too_big(limit)), kRaiseHint);
  out.resize(n);
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
