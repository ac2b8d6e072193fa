#pragma once
/// Runs the tailor binary as a child process, for what only a process shows:
/// its peak memory, or limits set on it alone (a file size limit).

#include <functional>
#include <string>
#include <vector>

namespace tailor::test {

/// A run of the tailor binary as a child process.
struct ChildRun {
  int status = -1;       ///< exit status; -1 when a signal ended it
  std::string err;       ///< what it wrote to stderr (stdout is discarded)
  long max_rss_kib = 0;  ///< its peak resident memory, from wait4's rusage
};

/// Runs the tailor binary with \a args; \a in_child runs in the child just
/// before exec (a setrlimit, a signal disposition).
ChildRun run_tailor_child(const std::vector<std::string>& args, const std::function<void()>& in_child = {});

}  // namespace tailor::test
