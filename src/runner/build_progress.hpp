#pragma once
/// What `tailor build` shows while it runs. Plain: one line per event, each
/// prefixed with the counts (stable for logs and tests). TTY: the same events
/// as lines, under them one status line redrawn in place (ninja's habit):
/// `[done/total] elapsed 1m03s  failed: 1  running: a, b…`.

#include <iosfwd>
#include <string>
#include <vector>

namespace tailor {

enum class ProgressStyle { plain, tty };

struct ProgressCounts {
  size_t done = 0, total = 0, failed = 0;
  std::vector<std::string> running;  ///< names, in start order
  double elapsed = 0;                ///< seconds since the run began
};

class BuildProgress {
 public:
  /// \a width: the terminal's columns; the status line is cut to fit.
  BuildProgress(std::ostream& os, ProgressStyle style, int width = 80) : os_(os), style_(style), width_(width) {}
  /// One event (started, succeeded, FAILED, blocked, reused) and the counts after it.
  void event(const std::string& line, const ProgressCounts& c);
  /// Redraws the status line when its text changed (the clock); plain: nothing.
  void tick(const ProgressCounts& c);
  /// Leaves the last status line standing.
  void finish(const ProgressCounts& c);

  /// The status line, at most \a width columns.
  static std::string status_line(const ProgressCounts& c, int width);

 private:
  std::ostream& os_;
  ProgressStyle style_;
  int width_;
  std::string shown_;  ///< the status line on screen now
};

/// auto: tty when \a fd is a terminal and TERM is set and not "dumb".
ProgressStyle choose_progress(const std::string& mode, int fd);

/// Columns of the terminal on \a fd, else $COLUMNS, else 80.
int terminal_width(int fd);

}  // namespace tailor
