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
  std::vector<std::filesystem::path> files;  ///< the records found, in path order
  std::vector<std::string> sm;               ///< the SMs they pruned for, as written
  std::set<std::string> removed;             ///< archs ("sm_75", "compute_120") removed and kept nowhere
  std::vector<std::string> problems;         ///< records that could not be read, with why
};

/// The records under \a root (a directory, walked whole) and in the
/// *.dist-info folders of \a site_packages (where pip puts a pruned wheel's).
PruneRecords find_prune_records(const std::filesystem::path& root, const std::filesystem::path& site_packages = {});

}  // namespace tailor
