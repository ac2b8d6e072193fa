// tailor kb new-package NAME --like PACKAGE -o DIR: write a knowledge-base
// overlay that adds NAME, started from PACKAGE (kb/package_scaffold.hpp).
#include <filesystem>
#include <ostream>
#include <vector>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "kb/package_scaffold.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/file_error.hpp"
#include "util/output_lock.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// Whether DIR already holds exactly the scaffold (a repeated run): then there is nothing to write.
bool holds_exactly(const fs::path& dir, const PackageScaffold& s) {
  size_t entries = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory(ec)) ++entries;
  if (ec || entries != s.files.size()) return false;
  for (const auto& [rel, text] : s.files) {
    if (!fs::is_regular_file(dir / rel, ec)) return false;
    if (read_file(dir / rel) != text) return false;
  }
  return true;
}

struct NewPackageRun final : CommandRun {
  std::string name, like, output;

  void define(CLI::App& app) override {
    app.description(
        "Write a knowledge-base overlay that adds a package, started from one the knowledge base has: a "
        "packages.toml entry stating every field, with what each does, and a builder to edit.");
    app.add_option("NAME", name, "the new package's name")->required();
    app.add_option("--like", like, "the package to start from (`tailor kb` lists them)")
        ->required()
        ->type_name("PACKAGE");
    app.add_option("-o,--output", output, "the overlay directory to write: new or empty")->required()->type_name("DIR");
  }
  void validate() override {
    if (output.empty()) throw_file_error("-o", "the output directory is empty: name a directory");
  }
  int run(Session& s) override;
};

// Writes the overlay's files into \a dir; false when it already holds exactly them.
bool write_overlay(Session& s, const fs::path& dir, const PackageScaffold& scaffold) {
  std::error_code ec;
  // Nothing half-written: every file is staged first, then all are renamed
  // into place; on a failure the directories this run made are removed.
  std::vector<fs::path> made, committed;
  try {
    std::vector<fs::path> missing;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) missing.insert(missing.begin(), p);
    for (const auto& p : missing) {
      if (fs::create_directory(p, ec))
        made.push_back(p);
      else if (ec)
        throw_file_error(p, "cannot create directory: " + ec.message());
    }
    // One writer per overlay: a second run waits, then finds the first's files and writes
    // nothing (two runs at once both wrote, leaving an overlay of both).
    OutputLock lock(dir, s.err);
    if (!fs::is_empty(dir, ec)) {
      if (holds_exactly(dir, scaffold)) {
        s.err << fmt::format("{}: nothing to do, it already holds this overlay\n", dir.string());
        return false;
      }
      throw_file_error(dir, "is not empty: new-package writes a new overlay and overwrites nothing",
                       "name a new directory, or add the entry to your overlay's packages.toml by hand");
    }
    for (const auto& file : scaffold.files) {
      fs::path parent = (dir / file.first).parent_path();
      std::vector<fs::path> absent;
      for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) absent.insert(absent.begin(), p);
      for (const auto& p : absent) {
        if (!fs::create_directory(p, ec) && ec) throw_file_error(p, "cannot create directory: " + ec.message());
        made.push_back(p);
      }
    }
    std::vector<StagedFile> staged;
    for (const auto& [rel, text] : scaffold.files) staged.emplace_back(dir / rel, text);
    for (auto& f : staged) {
      f.commit();
      committed.push_back(f.path());
    }
  } catch (...) {
    for (const auto& p : committed) fs::remove(p, ec);
    for (auto it = made.rbegin(); it != made.rend(); ++it) fs::remove(*it, ec);
    throw;
  }
  return true;
}

int NewPackageRun::run(Session& s) {
  PackageScaffold scaffold = scaffold_package(s.facts(), name, like);
  fs::path dir = output;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_directory(dir, ec))
    throw_file_error(dir, "exists and is not a directory");
  if (!write_overlay(s, dir, scaffold)) return kExitOk;
  for (const auto& n : scaffold.notes) s.err << "tailor: note: " << n << "\n";
  for (const auto& file : scaffold.files) s.err << fmt::format("wrote {}\n", (dir / file.first).string());
  s.err << fmt::format("next: edit them, then `tailor kb --kb {}` shows the package as tailor reads it\n",
                       dir.string());
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_kb_new_package() { return std::make_unique<NewPackageRun>(); }

}  // namespace tailor
