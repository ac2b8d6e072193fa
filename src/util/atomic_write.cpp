#include "util/atomic_write.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/file_error.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// "<file>.tailor-tmp-<pid>": generate's stale-file scan skips it, and the next
// run removes it if a crash left it behind (remove_stale_temp_files).
fs::path temp_name(const fs::path& p) {
  fs::path t = p;
  t += fmt::format("{}{}", kTempSuffix, ::getpid());
  return t;
}

// Leftovers of an earlier run that crashed or was killed go the first time
// this process writes into their directory.
void sweep_stale_once(const fs::path& dir) {
  static std::mutex m;
  static std::set<fs::path> swept;
  std::lock_guard lock(m);
  if (swept.insert(dir).second) remove_stale_temp_files(dir.empty() ? fs::path(".") : dir);
}

// Writes all of \a content to a new file \a p; returns 0 or the errno of the failure.
int write_new_file(const fs::path& p, std::string_view content) {
  int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = n < 0 ? errno : EIO;
      ::close(fd);
      return error;
    }
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0 ? 0 : errno;  // NFS and full disks may report at close
}

}  // namespace

StagedFile::StagedFile(fs::path path, std::string_view content, std::optional<fs::perms> mode)
    : path_(std::move(path)), tmp_(temp_name(path_)), guard_(tmp_) {
  sweep_stale_once(path_.parent_path());
  std::error_code ec;
  if (int error = write_new_file(tmp_, content)) {
    fs::remove(tmp_, ec);
    tmp_.clear();
    throw_file_error(path_, "cannot write file: " + std::string(std::strerror(error)));
  }
  if (!mode) {
    fs::file_status old = fs::status(path_, ec);
    if (!ec && fs::exists(old)) mode = old.permissions();
  }
  if (mode) fs::permissions(tmp_, *mode, ec);  // best effort: a file system without modes still gets the text
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)), tmp_(std::exchange(other.tmp_, fs::path())), guard_(std::move(other.guard_)) {}

StagedFile::~StagedFile() {
  std::error_code ec;
  if (!tmp_.empty()) fs::remove(tmp_, ec);
}

void StagedFile::commit() {
  std::error_code ec;
  fs::rename(tmp_, path_, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp_, ignore);
    tmp_.clear();
    throw_file_error(path_, "cannot replace file: " + ec.message());
  }
  tmp_.clear();
}

void write_file_atomically(const fs::path& path, std::string_view content, std::optional<fs::perms> mode) {
  StagedFile(path, content, mode).commit();
}

}  // namespace tailor
