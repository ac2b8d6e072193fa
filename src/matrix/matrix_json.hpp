#pragma once
/// Variants and dropped cells as JSON, for `tailor matrix --json`.

#include <nlohmann/json.hpp>

#include "matrix/expand.hpp"

namespace tailor {

/// {name, package, backend, python, cuda, sm, isa, platform, pin (full rev), pin_short, family}, then one
/// key per json_version_keys attribute (torch, vllm); absent values are null.
nlohmann::ordered_json to_json(const Variant& v, const KnowledgeBase& kb);
/// to_json plus "versions": {package: version} of every package the variant builds.
nlohmann::ordered_json to_matrix_json(const Variant& v, const KnowledgeBase& kb);
nlohmann::ordered_json to_json(const DroppedCell& d, const KnowledgeBase& kb);

}  // namespace tailor
