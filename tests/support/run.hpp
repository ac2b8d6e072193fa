#pragma once
/// Runs tailor's command line in-process and captures what it prints.

#include <string>
#include <vector>

namespace tailor::test {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

RunResult run_tailor(const std::vector<std::string>& args);

}  // namespace tailor::test

namespace tailor::test {

/// Runs \a command with /bin/sh, capturing stdout (and stderr when \a merge_stderr).
RunResult run_command(const std::string& command, bool merge_stderr = false);

/// Whether \a program is on PATH.
bool have_program(const std::string& program);

/// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tailor::test
