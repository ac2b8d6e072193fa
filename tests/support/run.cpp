#include "support/run.hpp"

#include <sstream>

#include "cli/cli.hpp"

namespace tailor::test {

RunResult run_tailor(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  RunResult r;
  r.status = run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace tailor::test

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <sys/wait.h>
#include <unistd.h>

namespace tailor::test {

RunResult run_command(const std::string& command, bool merge_stderr) {
  RunResult r;
  std::string cmd = command + (merge_stderr ? " 2>&1" : "");
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool have_program(const std::string& program) {
  return run_command("command -v " + program + " >/dev/null 2>&1").status == 0;
}

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

TempDir::TempDir(const std::string& tag) {
  static int counter = 0;
  path_ = (std::filesystem::temp_directory_path() /
           ("tailor-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
              .string();
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace tailor::test
