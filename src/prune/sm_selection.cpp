#include "prune/sm_selection.hpp"

#include <fmt/format.h>

#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

PruneTarget prune_target(const KnowledgeBase& kb, std::string_view sm) {
  if (auto t = gpu_target(kb, sm)) return *t;
  Diagnostic d;
  d.message = fmt::format("prune: --sm '{}' is not a compute capability the knowledge base knows", sm);
  d.hint = fmt::format("known: {}", fmt::join(kb.gpu_names(), ", "));
  throw DiagnosticError(std::move(d));
}

}  // namespace tailor
