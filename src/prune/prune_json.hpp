#pragma once
/// The prune report as JSON (`tailor prune --json`, and the
/// *.dist-info/tailor-prune.json written into pruned wheels).

#include <nlohmann/json.hpp>

#include "prune/prune_report.hpp"

namespace tailor {

/// \a with_time adds the elapsed seconds (left out of wheels: reproducible).
nlohmann::json to_json(const PruneReport& r, bool with_time);

}  // namespace tailor
