#pragma once
/// `tailor repin --spec SPEC.toml`: the same move on a matrix spec. The
/// `pin` values (branch and families), `python` and a `torch` that was the old
/// pin's version are rewritten in place, each value's bytes only; the result
/// must load as a spec again.

#include <string>

#include "kb/knowledge_base.hpp"
#include "repin/repin.hpp"

namespace tailor::repin {

struct SpecRepinPlan {
  std::string path;
  std::string before, after;
  FileChange change;  ///< rel = path
  std::vector<std::string> knowledge;
  std::vector<std::string> verify;
  std::map<std::string, int> old_pins;  ///< KB short revision -> values naming it
};

/// Plans the repin of the spec \a text (the file \a path). Throws DiagnosticError.
SpecRepinPlan plan_spec_repin(const std::string& path, const std::string& text, const RepinOptions& o,
                              const KnowledgeBase& kb);

}  // namespace tailor::repin
