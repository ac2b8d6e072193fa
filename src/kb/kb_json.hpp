#pragma once
/// The knowledge base as JSON, for `tailor kb --json`.

#include <nlohmann/json.hpp>

#include "kb/knowledge_base.hpp"

namespace tailor {

nlohmann::ordered_json to_json(const KnowledgeBase& kb);

/// A source override: what it builds, from where, with which extra sources
/// (`tailor kb --json` and `tailor matrix --json`).
nlohmann::ordered_json source_override_json(const SourceOverride& o);

}  // namespace tailor
