#pragma once
/// The knowledge base as JSON, for `tailor kb --json`.

#include <nlohmann/json.hpp>

#include "kb/knowledge_base.hpp"

namespace tailor {

nlohmann::ordered_json to_json(const KnowledgeBase& kb);

}  // namespace tailor
