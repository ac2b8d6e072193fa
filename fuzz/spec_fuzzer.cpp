// Fuzz target for the spec loader and the matrix expander: any byte string
// must either load and expand, or be rejected with a DiagnosticError. A spec
// that keeps a tree's own layout also has its wrappers, tables and per-cell
// pages rendered ([layout.pages] templates are parsed at load, filled here).
#include <cstdint>
#include <string>

#include "generate/layout.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    tailor::Spec spec = tailor::load_spec("fuzz.toml", text, kb);
    tailor::Matrix m = tailor::expand(spec, kb);
    if (spec.layout) (void)tailor::layout_tree(spec, m, kb);
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  return 0;
}
