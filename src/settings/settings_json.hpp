#pragma once
/// Build settings as JSON, for `tailor explain --json`.

#include <nlohmann/json.hpp>

#include "settings/build_settings.hpp"

namespace tailor {

nlohmann::ordered_json to_json(const BuildSettings& s, const KnowledgeBase& kb);

}  // namespace tailor
