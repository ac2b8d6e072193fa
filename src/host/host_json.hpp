#pragma once
/// `tailor detect` output: JSON with the keys of issue 7, and the text form.

#include <string>

#include <nlohmann/json.hpp>

#include "host/host_facts.hpp"

namespace tailor {

/// {"cpu": {"arch", "vendor", "model", "features", "isas", "best_isa",
/// "x86_64_level"}, "gpus": [{"index", "name", "sm", "driver",
/// "memory_mib"}], "os"}. Unknown values are null.
nlohmann::json to_json(const HostFacts& h);

/// The human-readable report, with the notes of each source.
std::string render_text(const HostFacts& h);

}  // namespace tailor
