#include "util/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "util/temp_files.hpp"

extern char** environ;

namespace tailor {

namespace {

std::string slurp(int fd) {
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

int exit_status(int wait_status) {
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

std::vector<char*> c_strings(const std::vector<std::string>& v) {
  std::vector<char*> out;
  for (const auto& s : v) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Our environment with \a extra's NAME=VALUE entries replacing or adding.
std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  auto overridden = [&](const char* entry) {
    for (const auto& e : extra) {
      size_t eq = e.find('=');
      if (std::strncmp(entry, e.c_str(), eq + 1) == 0) return true;
    }
    return false;
  };
  for (char** e = environ; *e; ++e)
    if (!overridden(*e)) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

// File actions that posix_spawn applies in the child, released on scope exit.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&fa_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&fa_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &fa_; }

 private:
  posix_spawn_file_actions_t fa_;
};

pid_t spawn(const ProcessSpec& spec, FileActions& fa, bool own_group = false) {
  if (spec.argv.empty()) return -1;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  if (own_group) {
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);  // a group of its own, led by the child
  }
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(fa.get(), spec.cwd.c_str());
  auto args = c_strings(spec.argv);
  std::vector<std::string> env_strings = environment_with(spec.env);
  auto env = c_strings(env_strings);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, args[0], fa.get(), &attr, args.data(), env.data());
  posix_spawnattr_destroy(&attr);
  return rc == 0 ? pid : -1;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return exit_status(status);
}

class SystemProcesses : public Processes {
 public:
  ProcessResult run(const ProcessSpec& spec) override {
    ProcessResult r;
    int out[2];
    if (::pipe(out) != 0) return r;
    // A separate stderr goes to a file: reading two pipes in turn could deadlock.
    std::FILE* err = spec.stderr_to == ErrorStream::separate ? std::tmpfile() : nullptr;
    FileActions fa;
    posix_spawn_file_actions_adddup2(fa.get(), out[1], 1);
    if (err) posix_spawn_file_actions_adddup2(fa.get(), ::fileno(err), 2);
    if (spec.stderr_to == ErrorStream::merged) posix_spawn_file_actions_adddup2(fa.get(), out[1], 2);
    if (spec.stderr_to == ErrorStream::discarded)
      posix_spawn_file_actions_addopen(fa.get(), 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(fa.get(), out[0]);
    pid_t pid = spawn(spec, fa);
    ::close(out[1]);
    if (pid > 0) {
      r.started = true;
      r.out = slurp(out[0]);
      r.status = wait_for(pid);
    }
    ::close(out[0]);
    if (err) {
      std::fflush(err);
      ::lseek(::fileno(err), 0, SEEK_SET);
      if (r.started) r.err = slurp(::fileno(err));
      std::fclose(err);
    }
    return r;
  }

  int start(const ProcessSpec& spec) override {
    FileActions fa;
    if (!spec.log.empty()) {
      // O_NOFOLLOW: a link planted where the log goes fails the open instead of overwriting its target.
      posix_spawn_file_actions_addopen(fa.get(), 1, spec.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
      posix_spawn_file_actions_adddup2(fa.get(), 1, 2);
    }
    pid_t pid = spawn(spec, fa, spec.own_group);
    if (pid > 0) {
      running_.insert(pid);
      if (spec.own_group) groups_.try_emplace(pid, pid);
      return pid;
    }
    unstarted_.push_back(--last_unstarted_);  // below -1: never a pid
    return unstarted_.back();
  }

  std::optional<ProcessEnd> wait_any(std::chrono::milliseconds timeout) override {
    // Our own children only (never waitpid(-1)): a short poll, so that a
    // child that ends is seen within a few milliseconds.
    if (!unstarted_.empty()) {
      ProcessEnd end{unstarted_.front(), 127};
      unstarted_.erase(unstarted_.begin());
      return end;
    }
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!running_.empty()) {
      for (pid_t pid : running_) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
          running_.erase(pid);
          groups_.erase(pid);
          return ProcessEnd{pid, exit_status(status)};
        }
      }
      if (std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return std::nullopt;
  }

 private:
  std::set<pid_t> running_;
  std::map<pid_t, ProcessGroupGuard> groups_;  ///< own_group children, registered for signals
  std::vector<int> unstarted_;                 ///< ids of children that could not start
  int last_unstarted_ = -1;
};

}  // namespace

Processes& system_processes() {
  static SystemProcesses processes;
  return processes;
}

}  // namespace tailor
