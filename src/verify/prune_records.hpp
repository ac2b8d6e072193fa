#pragma once
/// The records `tailor prune` leaves beside what it pruned (tailor-prune.json
/// at a pruned folder's root, *.dist-info/tailor-prune.json in a pruned wheel):
/// verify reads them so that torch's build-time arch list, which pruning cannot
/// change, is not taken for missing code.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace tailor {

struct PruneRecords {
  std::vector<std::filesystem::path> files;  ///< the records found about files under the root, in path order
  std::vector<std::string> sm;               ///< the SMs they pruned for, as written
  /// Archs ("sm_75", "compute_120") removed from, and kept in none of, the
  /// records' files under the root verify reads (records beside it count only there).
  std::set<std::string> removed;
  std::vector<std::string> problems;  ///< records that could not be read, with why
};

/// The records at \a root and at \a site_packages (the folder holding the
/// torch that verify imports), and in the folders directly inside each: a
/// pruned torch/ or nvidia/, a pip-installed wheel's *.dist-info.
PruneRecords find_prune_records(const std::filesystem::path& root, const std::filesystem::path& site_packages = {});

}  // namespace tailor
