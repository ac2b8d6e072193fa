#include "util/atomic_write.hpp"

#include <unistd.h>

#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& p, std::string message) {
  Diagnostic d;
  d.path = p.string();
  d.message = std::move(message);
  throw DiagnosticError(d);
}

}  // namespace

StagedFile::StagedFile(fs::path path, std::string_view content, std::optional<fs::perms> mode)
    : path_(std::move(path)), tmp_(path_) {
  // generate's stale-file scan skips this suffix: a crash may leave one behind.
  tmp_ += fmt::format(".tailor-tmp-{}", ::getpid());
  std::error_code ec;
  {
    std::ofstream out(tmp_, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();  // close() reports a failed final write, flush() alone may not
    if (!out) {
      fs::remove(tmp_, ec);
      tmp_.clear();
      fail(path_, "cannot write file");
    }
  }
  if (!mode) {
    fs::file_status old = fs::status(path_, ec);
    if (!ec && fs::exists(old)) mode = old.permissions();
  }
  if (mode) fs::permissions(tmp_, *mode, ec);  // best effort: a file system without modes still gets the text
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)), tmp_(std::exchange(other.tmp_, fs::path())) {}

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
    fail(path_, "cannot replace file: " + ec.message());
  }
  tmp_.clear();
}

void write_file_atomically(const fs::path& path, std::string_view content, std::optional<fs::perms> mode) {
  StagedFile(path, content, mode).commit();
}

}  // namespace tailor
