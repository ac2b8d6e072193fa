#include "cli/expanded_matrix.hpp"

namespace tailor {

Matrix expand_reporting(const Spec& spec, const KnowledgeBase& kb, std::ostream& err) {
  Matrix m = expand(spec, kb);
  for (const auto& w : m.warnings) err << "tailor: warning: " << w << "\n";
  return m;
}

}  // namespace tailor
