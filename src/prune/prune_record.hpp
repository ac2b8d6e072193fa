#pragma once
/// The prune report as JSON (`tailor prune --json`, and the
/// *.dist-info/tailor-prune.json written into pruned wheels).

#include <nlohmann/json.hpp>

#include "prune/prune_report.hpp"

namespace tailor {

/// \a with_time adds the elapsed seconds (left out of wheels: reproducible).
nlohmann::json to_json(const PruneReport& r, bool with_time);

/// One file's entry of a record read back (an earlier in-place prune's, to
/// keep in the next one's). Throws nlohmann::json::exception on a bad shape.
FileOutcome file_outcome_from_json(const nlohmann::json& j);

/// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signal_name(int sig);

}  // namespace tailor
