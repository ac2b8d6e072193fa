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
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/child_run.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"

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

ChildRun run_tailor_child(const std::vector<std::string>& args, const std::function<void()>& in_child) {
  ChildRun r;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return r;
  std::vector<char*> argv{const_cast<char*>(tailor_binary().c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(pipe_fds[1], 2);
    if (in_child) in_child();
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  std::array<char, 4096> buf;
  for (ssize_t n; (n = ::read(pipe_fds[0], buf.data(), buf.size())) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    r.err.append(buf.data(), static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  struct rusage ru {};
  if (pid < 0 || ::wait4(pid, &status, 0, &ru) != pid) return r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.max_rss_kib = ru.ru_maxrss;
  return r;
}

bool have_program(const std::string& program) {
  return run_command("command -v " + program + " >/dev/null 2>&1").status == 0;
}

std::string pypi_tool(const std::string& name) {
  std::string path = source_path(".tools/venv/bin/" + name);
  return std::filesystem::exists(path) ? path : std::string();
}

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

std::string copy_tree(const TempDir& tmp, const std::string& fixture) {
  std::string tree = tmp.path() + "/TREE";
  std::filesystem::copy(source_path(fixture), tree, std::filesystem::copy_options::recursive);
  return tree;
}

std::string tree_shown(std::string s, const std::string& tree) {
  for (size_t at = s.find(tree); at != std::string::npos; at = s.find(tree, at)) s.replace(at, tree.size(), "TREE");
  return s;
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
