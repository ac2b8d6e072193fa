#pragma once
/// Expansion of a spec into its variants. Every cell is checked against the
/// knowledge base; a cell the facts forbid is dropped with the rule that
/// forbids it, a cell the policy excludes is dropped with the exclude's
/// reason, and a cell the spec names explicitly but the facts forbid is an
/// error.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/spec.hpp"
#include "matrix/variant.hpp"

namespace tailor {

struct DroppedCell {
  Variant candidate;   ///< the variant the cell would have been (name set)
  std::string rule;    ///< rule id, or "exclude" for policy
  std::string reason;  ///< the rule's message, or the exclude's reason
  bool policy = false;
  Pos pos;  ///< where the exclude is written; line 0 for facts
};

struct Matrix {
  std::vector<Variant> variants;
  std::vector<DroppedCell> dropped;
  /// Facts the knowledge base lacks that variants rely on because the spec claims them.
  std::vector<std::string> warnings;

  const Variant* find(std::string_view name) const;
  /// The variant called \a name; otherwise throws DiagnosticError "'NAME' is
  /// not a variant of SPEC_PATH" with a did-you-mean hint (or where to list them).
  const Variant& require(std::string_view name, const std::string& spec_path) const;
  std::vector<std::string> names() const;
  /// Every drop of a cell with this name (several families may produce it).
  std::vector<const DroppedCell*> dropped_named(std::string_view name) const;
};

/// Throws DiagnosticError for: an explicit impossible cell, an axis value
/// that yields no variant because of the facts, the same name twice, a
/// companion without the variant it is built against (unless its family builds
/// that package inline), an empty matrix.
Matrix expand(const Spec& spec, const KnowledgeBase& kb);

}  // namespace tailor
