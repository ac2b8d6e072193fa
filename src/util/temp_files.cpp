#include "util/temp_files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tailor {

namespace {

// Fixed slots of heap strings: a handler may read them (async-signal-safe
// unlink), the owner frees its string only if no handler has started, so a
// handler never reads freed memory. A full registry degrades to "not
// registered": the stale-file sweep of the next run removes such a file.
constexpr int kSlots = 4096;
std::array<std::atomic<char*>, kSlots> g_paths{};
std::array<std::atomic<pid_t>, 256> g_groups{};
std::atomic<bool> g_cleaning{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_defer{false};
// Strings a guard let go while a handler ran (it may have been reading them): freed by
// a later guard, or when deferring ends, once no handler runs. No handler reads these.
std::array<std::atomic<char*>, kSlots> g_orphans{};
std::atomic<int> g_orphaned{0};

void free_orphans() {
  if (g_orphaned.load() == 0 || g_cleaning) return;
  for (auto& o : g_orphans)
    if (char* p = o.exchange(nullptr)) {
      std::free(p);
      --g_orphaned;
    }
}

// Keeps \a p until no handler runs; with every slot taken it is left to the exit.
void orphan(char* p) {
  for (auto& o : g_orphans) {
    char* expected = nullptr;
    if (o.compare_exchange_strong(expected, p)) {
      ++g_orphaned;
      return;
    }
  }
}

// Removes the file or the whole directory \a name (relative to \a dir), with system calls alone
// (async-signal-safe: no allocation): a staging directory (prune -o, repin -o) holds a full
// copy of what is written, and unlink() alone left it behind on every signal.
void remove_at(int dir, const char* name, int depth) {
  if (::unlinkat(dir, name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth > 64) return;
#if defined(__linux__)
  int fd = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct Entry {  // struct linux_dirent64
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
  };
  alignas(8) char buf[2048];
  for (int pass = 0; pass < 2; ++pass) {  // a second pass for what the removals made the first skip
    ::lseek(fd, 0, SEEK_SET);
    for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
      for (long at = 0; at < n;) {
        const auto* e = reinterpret_cast<const Entry*>(buf + at);
        at += e->reclen;
        if (std::strcmp(e->name, ".") != 0 && std::strcmp(e->name, "..") != 0) remove_at(fd, e->name, depth + 1);
      }
  }
  ::close(fd);
#endif
  ::unlinkat(dir, name, AT_REMOVEDIR);
}

void clean_up(int sig) {
  g_cleaning = true;
  for (auto& slot : g_paths)
    if (char* p = slot.load()) remove_at(AT_FDCWD, p, 0);
  if (sig == 0) return;
  for (auto& slot : g_groups)
    if (pid_t g = slot.load(); g > 0) ::kill(-g, sig);
}

void on_signal(int sig) {
  int saved = errno;
  bool first = g_signal.exchange(sig) == 0;
  clean_up(sig);
  if (!(g_defer && first)) {
    ::signal(sig, SIG_DFL);  // then die of the signal, as without the handler
    ::raise(sig);
  }
  // Deferred: tailor goes on. The handler has read every path it will read,
  // so the guards may free theirs again (else they leak until exit).
  g_cleaning = false;
  errno = saved;
}

}  // namespace

void install_temp_file_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup: stay ignored
    ::sigaction(sig, &sa, nullptr);
  }
}

TempFileGuard::TempFileGuard(const std::filesystem::path& path) {
  char* copy = ::strdup(path.c_str());
  if (!copy) return;
  for (int i = 0; i < kSlots; ++i) {
    char* expected = nullptr;
    if (g_paths[i].compare_exchange_strong(expected, copy)) {
      slot_ = i;
      return;
    }
  }
  std::free(copy);
}

TempFileGuard::TempFileGuard(TempFileGuard&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }

TempFileGuard::~TempFileGuard() {
  if (slot_ < 0) return;
  char* p = g_paths[slot_].exchange(nullptr);
  if (!p) return;
  if (g_cleaning) {
    orphan(p);  // a handler running now may still read it
    return;
  }
  std::free(p);
  free_orphans();
}

ProcessGroupGuard::ProcessGroupGuard(pid_t pgid) {
  for (int i = 0; i < static_cast<int>(g_groups.size()); ++i) {
    pid_t expected = 0;
    if (g_groups[i].compare_exchange_strong(expected, pgid)) {
      slot_ = i;
      return;
    }
  }
}

ProcessGroupGuard::~ProcessGroupGuard() {
  if (slot_ >= 0) g_groups[slot_] = 0;
}

DeferSignals::DeferSignals() { g_defer = true; }
DeferSignals::~DeferSignals() {
  g_defer = false;
  free_orphans();  // what guards let go while the deferred signal's handler ran
}

int interrupting_signal() { return g_signal; }

bool is_stale_temp_name(std::string_view name) {
  size_t at = name.rfind(kTempSuffix);
  if (at == std::string_view::npos) return false;
  std::string pid_text(name.substr(at + kTempSuffix.size()));
  if (pid_text.empty() || pid_text.size() > 9 || pid_text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  pid_t pid = static_cast<pid_t>(std::strtol(pid_text.c_str(), nullptr, 10));
  // The writer still runs (kill succeeds or is refused): its file is not stale.
  return pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
}

int remove_stale_temp_files(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_stale_temp_name(it->path().filename().string())) continue;
    std::error_code rm;
    if (fs::remove_all(it->path(), rm) > 0) ++removed;  // repin -o stages a whole directory
  }
  return removed;
}

void clean_up_registered_for_test() {
  clean_up(0);
  g_cleaning = false;
}

}  // namespace tailor
