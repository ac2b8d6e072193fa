#pragma once
/// `tailor prune` over a path: one ELF file, a directory of them (symlinks
/// kept as links, other files copied as they are) or a wheel (a new wheel
/// whose RECORD carries the new hashes and sizes, plus
/// *.dist-info/tailor-prune.json saying what was kept and removed).

#include <filesystem>
#include <optional>

#include "binfmt/wheel.hpp"
#include "prune/prune_file.hpp"
#include "prune/prune_report.hpp"

namespace tailor {

struct PruneRequest {
  std::filesystem::path path;
  std::filesystem::path out;  ///< empty: in place (or nothing, with dry_run)
  PruneOptions opts;
  WheelLimits limits;  ///< how far a wheel may unpack
};

/// Prunes \a r.path. Throws DiagnosticError when the path is missing, is of no
/// known kind, or (a single file, a wheel) cannot be pruned; inside a
/// directory such files are reported as refused and left (or copied) as they were.
PruneReport prune_path(const PruneRequest& r);

}  // namespace tailor
