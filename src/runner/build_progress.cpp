#include "runner/build_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

namespace tailor {

namespace {

constexpr const char* kClearLine = "\r\033[K";  // back to column 0, erase to the end

std::string clock_text(double s) {
  int t = static_cast<int>(s);
  return fmt::format("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
}

}  // namespace

std::string BuildProgress::status_line(const ProgressCounts& c, int width) {
  int t = static_cast<int>(c.elapsed);
  std::string line = fmt::format("[{}/{}] elapsed {}m{:02}s", c.done, c.total, t / 60, t % 60);
  if (c.failed) line += fmt::format("  failed: {}", c.failed);
  if (!c.running.empty()) {
    line += "  running: ";
    for (size_t i = 0; i < c.running.size(); ++i) line += (i ? ", " : "") + c.running[i];
  }
  // One column short of the width: a full last column makes some terminals wrap.
  size_t room = width > 1 ? static_cast<size_t>(width - 1) : 1;
  if (line.size() > room) line = line.substr(0, room > 3 ? room - 3 : 0) + "...";
  return line;
}

void BuildProgress::event(const std::string& line, const ProgressCounts& c) {
  if (style_ == ProgressStyle::plain) {
    os_ << fmt::format("[{}/{} done, {} running, {} failed, {}] {}\n", c.done, c.total, c.running.size(), c.failed,
                       clock_text(c.elapsed), line);
  } else {
    shown_ = status_line(c, width_);
    os_ << kClearLine << line << "\n" << shown_;
  }
  os_.flush();
}

void BuildProgress::tick(const ProgressCounts& c) {
  if (style_ == ProgressStyle::plain) return;
  std::string s = status_line(c, width_);
  if (s == shown_) return;
  shown_ = s;
  os_ << kClearLine << shown_;
  os_.flush();
}

void BuildProgress::finish(const ProgressCounts& c) {
  if (style_ == ProgressStyle::plain) return;
  os_ << kClearLine << status_line(c, width_) << "\n";
  os_.flush();
}

ProgressStyle choose_progress(const std::string& mode, int fd) {
  if (mode == "tty") return ProgressStyle::tty;
  if (mode == "plain") return ProgressStyle::plain;
  const char* term = std::getenv("TERM");
  bool smart = term && *term && std::string(term) != "dumb";
  return smart && ::isatty(fd) ? ProgressStyle::tty : ProgressStyle::plain;
}

int terminal_width(int fd) {
  winsize ws{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    int n = std::atoi(c);
    if (n > 0) return n;
  }
  return 80;
}

}  // namespace tailor
