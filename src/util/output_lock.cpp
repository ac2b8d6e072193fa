#include "util/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/file_error.hpp"

namespace tailor {

namespace {
[[noreturn]] void fail(const std::filesystem::path& path, const char* what, int e) {
  throw_system_error(path, fmt::format("{} the output", what), e);
}
}  // namespace

OutputLock::OutputLock(const std::filesystem::path& path, std::ostream& err, Mode mode) {
  // O_NONBLOCK: a FIFO in place of the output must not hang the open.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) fail(path, "open", errno);
  const int op = mode == Mode::exclusive ? LOCK_EX : LOCK_SH;
  if (::flock(fd_, op | LOCK_NB) == 0) return;
  if (errno != EWOULDBLOCK) {
    int e = errno;
    ::close(fd_);
    fail(path, "lock", e);
  }
  err << fmt::format("tailor: waiting for another tailor run writing {}\n", path.string()) << std::flush;
  while (::flock(fd_, op) != 0) {
    if (errno == EINTR) continue;
    int e = errno;
    ::close(fd_);
    fail(path, "lock", e);
  }
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace tailor
