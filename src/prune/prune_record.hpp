#pragma once
/// tailor-prune.json, the record `tailor prune` leaves beside what it pruned (at
/// a pruned folder's root, in a pruned wheel's *.dist-info), which is also the
/// report `tailor prune --json` prints: its writer and its reader in one
/// module, so that what prune writes and what verify and a later in-place
/// prune read back cannot drift apart.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "prune/prune_report.hpp"

namespace tailor {

/// The record's file name.
inline constexpr const char* kPruneRecordName = "tailor-prune.json";

/// \a with_time adds the elapsed seconds, the output and the record's path
/// (left out of records: reproducible).
nlohmann::json to_json(const PruneReport& r, bool with_time);

/// A record read back: what verify counts and an in-place prune extends.
struct PruneRecord {
  std::optional<ArtifactKind> kind;  ///< nullopt: not written, or not a kind tailor knows
  std::vector<std::string> sm;       ///< the SMs pruned for, as written (entries not strings passed over)
  std::vector<ArchChange> archs;     ///< the totals over its files
  /// One entry a file; nullopt in a record without them (written by hand, or older): its totals count.
  std::optional<std::vector<FileOutcome>> files;

  bool operator==(const PruneRecord&) const = default;
};

/// Reads \a j. Throws std::runtime_error ("no \"archs\" list") or
/// nlohmann::json::exception on a bad shape.
PruneRecord prune_record_from_json(const nlohmann::json& j);
/// Reads the record at \a path: throws DiagnosticError when the file cannot be
/// read, std::exception when it holds no record.
PruneRecord read_prune_record(const std::filesystem::path& path);

/// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signal_name(int sig);

}  // namespace tailor
