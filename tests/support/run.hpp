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

/// The path of \a name in .tools/venv/bin (the PyPI tools scripts/deps installs), or "" when missing.
std::string pypi_tool(const std::string& name);

/// Whether the suite runs under CI (CI=true, as .ci/run sets it).
bool under_ci();

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

/// A copy of the fixture tree \a fixture (relative to the source tree) in \a tmp, as TREE.
std::string copy_tree(const TempDir& tmp, const std::string& fixture);
/// \a s with every \a tree path written "TREE": a temporary copy's output, as goldens hold it.
std::string tree_shown(std::string s, const std::string& tree);

}  // namespace tailor::test

/// Skips the test when \a missing (a tool scripts/deps installs is not there);
/// under CI=true that is a failure instead: CI must not lose a proof silently.
#define TAILOR_SKIP_IF_TOOL_MISSING(missing, what)                                                   \
  do {                                                                                               \
    if (missing) {                                                                                   \
      if (::tailor::test::under_ci()) FAIL() << what << " under CI=true (scripts/deps installs it)"; \
      GTEST_SKIP() << what;                                                                          \
    }                                                                                                \
  } while (0)
