#pragma once
/// Standard output as a stream that remembers why a write failed: std::cout
/// reports a full disk only as a bad stream, and by the end of a command errno
/// no longer says what happened.

#include <array>
#include <streambuf>

namespace tailor {

/// A buffered stream buffer over a file descriptor (not owned); line-buffered
/// on a terminal, as stdio is, so that progress shows as it happens.
class FdOutput : public std::streambuf {
 public:
  explicit FdOutput(int fd);
  ~FdOutput() override;
  FdOutput(const FdOutput&) = delete;
  FdOutput& operator=(const FdOutput&) = delete;

  /// The errno of the first failed write; 0 while every write succeeded.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool drain();
  bool write_all(const char* s, size_t n);

  int fd_;
  bool line_buffered_;
  int error_ = 0;
  std::array<char, 1 << 16> buf_;
};

}  // namespace tailor
