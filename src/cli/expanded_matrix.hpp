#pragma once
/// The one way a command expands a spec: the matrix, and its warnings (relied-on
/// disputes, unrecorded CUDA sets, unhashed recipes) printed the same way by
/// every command that expands one, so no command drops them.

#include <ostream>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"

namespace tailor {

/// expand(\a spec, \a kb), each warning written to \a err as "tailor: warning: …".
Matrix expand_reporting(const Spec& spec, const KnowledgeBase& kb, std::ostream& err);

}  // namespace tailor
