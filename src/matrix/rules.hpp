#pragma once
/// The facts a cell of the matrix must satisfy. Each rule has a stable id and
/// a fixed message template, so "why was X dropped" always reads the same.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/spec.hpp"
#include "matrix/variant.hpp"

namespace tailor {

struct RuleViolation {
  std::string rule;     ///< "cuda-too-old-for-sm", ...
  std::string message;  ///< one sentence naming the facts involved
};

/// The knowledge-base entries a cell refers to, resolved once per axis value
/// (expansion checks tens of thousands of cells).
struct CellFacts {
  const NixpkgsPin* pin = nullptr;
  const GpuArch* gpu = nullptr;      ///< null unless CUDA
  const CudaToolkit* cuda = nullptr;  ///< null unless CUDA
};

/// Every fact of the knowledge base that \a v (a candidate, name set) breaks.
std::vector<RuleViolation> check_facts(const Variant& v, const Spec& spec, const KnowledgeBase& kb);
std::vector<RuleViolation> check_facts(const Variant& v, const CellFacts& facts, const Spec& spec,
                                       const KnowledgeBase& kb);

/// The workarounds of the knowledge base that apply to \a v, in data order.
std::vector<const Workaround*> applicable_workarounds(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

}  // namespace tailor
