#include "repin/tree_write.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/temp_files.hpp"

namespace tailor::repin {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, std::string message) {
  throw_file_error(path, std::move(message), "nothing was changed");
}

// The copy is built under OUT.tailor-tmp-PID: a later run removes it if this
// one is killed before the rename (remove_stale_temp_files).
std::string temp_suffix() { return fmt::format("{}{}", kTempSuffix, ::getpid()); }

}  // namespace

void write_in_place(const fs::path& dir, const std::vector<recipe::SourceFile>& changed) {
  try {
    std::vector<StagedFile> staged;  // removed again unless committed
    staged.reserve(changed.size());
    for (const auto& f : changed) staged.emplace_back(dir / f.rel, f.text);
    for (auto& s : staged) s.commit();
  } catch (const DiagnosticError& e) {
    Diagnostic d = e.diagnostic();
    fail(d.path, "repin: " + d.message);
  }
}

void check_output_dir(const fs::path& dir, const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec))) {
    Diagnostic d;
    d.path = out.string();
    d.message = "repin: the output exists and is not an empty directory";
    d.hint = "-o OUT writes a fresh copy of the tree; name a new directory, or drop -o to rewrite in place";
    throw DiagnosticError(d);
  }
  fs::path a = fs::weakly_canonical(dir, ec), b = fs::weakly_canonical(out, ec);
  auto [ai, bi] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (ai == a.end()) {
    Diagnostic d;
    d.path = out.string();
    d.message = "repin: the output lies inside the tree it copies";
    d.hint = "name a directory outside DIR";
    throw DiagnosticError(d);
  }
}

void write_copy(const fs::path& dir, const fs::path& out, const std::vector<recipe::SourceFile>& changed) {
  check_output_dir(dir, out);
  fs::path parent = fs::absolute(out).parent_path();
  fs::path tmp = parent / (fs::absolute(out).filename().string() + temp_suffix());
  std::error_code ec;
  fs::create_directories(parent, ec);
  remove_stale_temp_files(parent);
  fs::remove_all(tmp, ec);
  fs::copy(dir, tmp, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    fs::remove_all(tmp, ec);
    fail(out, "repin: cannot copy the tree");
  }
  for (const auto& f : changed) {
    try {
      write_file_atomically(tmp / f.rel, f.text);
    } catch (const DiagnosticError& e) {
      fs::remove_all(tmp, ec);
      fail(out, fmt::format("repin: cannot write {}: {}", f.rel, e.diagnostic().message));
    }
  }
  if (fs::is_directory(out, ec)) fs::remove(out, ec);  // empty, checked above
  fs::rename(tmp, out, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove_all(tmp, ignore);
    fail(out, fmt::format("repin: cannot create the output: {}", ec.message()));
  }
}

}  // namespace tailor::repin
