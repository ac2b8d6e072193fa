#pragma once
/// `tailor prune` over a path: one ELF file, a directory of them (symlinks
/// kept as links, other files copied as they are) or a wheel (a new wheel
/// whose RECORD carries the new hashes and sizes, plus
/// *.dist-info/tailor-prune.json saying what was kept and removed).

#include <filesystem>
#include <optional>

#include "binfmt/artifact.hpp"
#include "binfmt/wheel.hpp"
#include "prune/prune_file.hpp"
#include "prune/prune_report.hpp"

namespace tailor {

struct PruneRequest {
  std::filesystem::path path;
  std::optional<ArtifactKind> kind;  ///< path's, as the caller read it (tailor's Session); nullopt: read here
  std::filesystem::path out;         ///< empty: in place (or nothing, with dry_run)
  PruneOptions opts;
  WheelLimits limits;  ///< how far a wheel may unpack
};

/// Prunes \a r.path. Throws DiagnosticError when the path is missing, is of no
/// known kind, or (a single file, a wheel) cannot be pruned; inside a
/// directory such files are reported as refused and left (or copied) as they were.
PruneReport prune_path(const PruneRequest& r);

/// One output of a fan-out: the GPUs it keeps code for (a mixed host's several).
struct FanOutTarget {
  std::vector<PruneTarget> targets;
  std::string label;  ///< its PEP 825 variant label; empty: "sm90", "sm86_89" (kb/wheel_variant.hpp)
};

/// `tailor prune --each` (and `--variant-label`): one output per target from one
/// pass over the input. Outputs go into \a dir: a wheel as the PEP 825 variant
/// wheel of its label ({name}-{version}-...-{platform}-{label}.whl, with
/// *.dist-info/variant.json) beside the index's {name}-{version}-variants.json
/// (merged with one already there); a library or folder as dir/{label}/{its name}.
struct FanOutRequest {
  std::filesystem::path path;
  std::optional<ArtifactKind> kind;  ///< path's, as the caller read it; nullopt: read here
  std::filesystem::path dir;         ///< made when missing; unused by a dry run
  std::vector<FanOutTarget> outputs;
  PruneOptions opts;  ///< its targets are unused
  WheelLimits limits;
};

struct FanOutReport {
  std::vector<PruneReport> outputs;  ///< in the order asked
  std::string variants_index;        ///< the *-variants.json written; empty: none
  size_t variants = 0;               ///< labels it lists
  /// A wheel's changed members, summed over the outputs, and of them the bytes of
  /// blocks the same in several outputs, deflated once (parallel_deflate.hpp).
  uint64_t deflated_bytes = 0, deflated_once = 0;
};

/// Prunes \a r.path once for every output: each wheel member (a library of a
/// folder) is read and inflated once and pruned per output, every changed member
/// deflated on every core and written into each output in turn, so memory stays
/// that of one prune. With one output and no label, the wheel is prune_path's
/// byte for byte; a labelled one differs only by its variant.json and that
/// file's RECORD line, written last. Throws DiagnosticError before any work for
/// an output or index that exists (and disagrees), a label that is not
/// ^[0-9a-z_.]+$ or given twice, an input wheel already a variant.
FanOutReport prune_fan_out(const FanOutRequest& r);

}  // namespace tailor
