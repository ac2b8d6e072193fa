#pragma once
/// Variants and dropped cells as JSON, for `tailor matrix --json`.

#include <nlohmann/json.hpp>

#include "matrix/expand.hpp"

namespace tailor {

/// {name, package, backend, python, cuda, sm, isa, platform, pin (full rev), pin_short, family}, then one
/// key per json_version_keys attribute (torch, vllm); absent values are null.
nlohmann::ordered_json to_json(const Variant& v, const KnowledgeBase& kb);
/// to_json plus "versions": {package: version} of every package the variant
/// builds, and what applies of: sm_set, inline, version and paired, and
/// external ({attribute: {repo, rev, url, hash, path}}: built by another
/// repository's recipe, \a spec's [family.version.external] or [family.external]).
nlohmann::ordered_json to_matrix_json(const Variant& v, const Spec& spec, const KnowledgeBase& kb);
nlohmann::ordered_json to_json(const DroppedCell& d, const Spec& spec, const KnowledgeBase& kb);

}  // namespace tailor
