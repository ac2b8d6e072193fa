#pragma once
/// The wrappers a builder cannot build, as diagnostics: one per place and
/// error (where the builder stopped, with its line), naming the table entry it
/// lacks and every wrapper it stops, so that ten new wrappers missing one
/// version-table entry read as one finding.

#include <filesystem>
#include <string>
#include <vector>

#include "builder_eval/wrapper_eval.hpp"
#include "util/diagnostic.hpp"

namespace tailor::builder_eval {

/// A diagnostic with its path relative to the root (\a Diagnostic::path is
/// \a shown_root + "/" + rel).
struct FailureDiagnostic {
  std::string rel;  ///< the file it points into; empty: none under the root
  Diagnostic diagnostic;
};

/// \a e's failures under \a root, shown under \a shown_root.
std::vector<FailureDiagnostic> failure_diagnostics(const WrapperEval& e, const std::filesystem::path& root,
                                                   const std::string& shown_root);

/// "evaluated 741 of 751 wrappers through the tree's builder (stand-in nixpkgs)": one line, no newline.
std::string eval_summary(const WrapperEval& e, const EvalOptions& options);

}  // namespace tailor::builder_eval
