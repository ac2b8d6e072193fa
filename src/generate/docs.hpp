#pragma once
/// The branch's documents, generated from the same data as the recipes so
/// that counts, names, pins and drivers cannot drift from the files.

#include <string>

#include "matrix/expand.hpp"
#include "settings/build_settings.hpp"

namespace tailor {

/// README.md: versions/pin/driver table, variants per GPU and ISA with their
/// use, the "which variant do I need" guide with detection commands.
std::string branch_readme(const Spec& spec, const Matrix& m, const std::vector<BuildSettings>& settings,
                          const KnowledgeBase& kb);

/// BUILD_MATRIX.md: every variant, the SM x ISA grid, and what was dropped and why.
std::string build_matrix_doc(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

}  // namespace tailor
