#pragma once
/// `tailor adopt --json`: the adoption plan as one document (doc/json.md).

#include <nlohmann/json.hpp>

#include "import/adopt.hpp"

namespace tailor {

/// \a plan as JSON; \a write: the run writes, \a done: it has written (written and removed count).
nlohmann::ordered_json adoption_json(const AdoptionPlan& plan, bool write, bool done);

}  // namespace tailor
