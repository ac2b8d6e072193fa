#include "util/fd_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tailor {

FdOutput::FdOutput(int fd) : fd_(fd), line_buffered_(::isatty(fd) == 1) {
  setp(buf_.data(), buf_.data() + buf_.size());
}

FdOutput::~FdOutput() { drain(); }

bool FdOutput::write_all(const char* s, size_t n) {
  if (error_) return false;  // after a failure, nothing more: the output is already incomplete
  while (n > 0) {
    ssize_t w = ::write(fd_, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? errno : EIO;
      return false;
    }
    s += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool FdOutput::drain() {
  bool ok = write_all(pbase(), static_cast<size_t>(pptr() - pbase()));
  setp(buf_.data(), buf_.data() + buf_.size());
  return ok;
}

FdOutput::int_type FdOutput::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  if (line_buffered_ && c == '\n' && !drain()) return traits_type::eof();
  return c;
}

std::streamsize FdOutput::xsputn(const char* s, std::streamsize n) {
  if (n <= epptr() - pptr()) {
    std::memcpy(pptr(), s, static_cast<size_t>(n));
    pbump(static_cast<int>(n));
    if (line_buffered_ && std::memchr(s, '\n', static_cast<size_t>(n)) && !drain()) return 0;
    return n;
  }
  if (!drain() || !write_all(s, static_cast<size_t>(n))) return 0;  // big blocks go straight out
  return n;
}

int FdOutput::sync() { return drain() ? 0 : -1; }

}  // namespace tailor
