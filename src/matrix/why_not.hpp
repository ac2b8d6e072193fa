#pragma once
/// Why a variant name is not in a spec's matrix, as data: in it after all,
/// dropped (by policy or by a rule, per family), absent (which axis values no
/// family lists, which facts the cell breaks), or no variant name at all.
/// `tailor explain --why-not` reads the name and renders the answer.

#include <optional>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"

namespace tailor {

struct WhyNot {
  enum class Kind { in_matrix, dropped, absent, not_a_name };
  Kind kind = Kind::not_a_name;
  std::string family;                     ///< in_matrix: the family that builds it
  std::vector<const DroppedCell*> drops;  ///< dropped: one per family that dropped it
  std::vector<std::string> reasons;       ///< absent: sorted, each once
  std::optional<std::string> closest;     ///< absent: the matrix's nearest name
};

/// Why \a name is not in \a m (the matrix of \a spec), with the facts of \a kb: \a cell
/// is the name read as a variant (nullopt: it is none, and the answer is not_a_name
/// unless the matrix has the name).
WhyNot why_not(const std::string& name, const std::optional<Variant>& cell, const Spec& spec, const Matrix& m,
               const KnowledgeBase& kb);

/// Why \a spec could not have produced \a v (a cell parsed from a name): the axis
/// values no family lists and the facts the cell breaks, sorted, each once.
std::vector<std::string> why_absent(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

/// Every name of \a m, built and dropped: what a misspelt name is matched against.
std::vector<std::string> all_names(const Matrix& m);

}  // namespace tailor
