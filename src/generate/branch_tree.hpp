#pragma once
/// Everything `tailor generate` writes for one branch: the builders it uses,
/// one recipe per variant, the docs and the build environment's manifest.

#include <vector>

#include "generate/tree.hpp"
#include "matrix/expand.hpp"

namespace tailor {

/// The files of the tree, each with its generated-by marker, in a stable order.
std::vector<GeneratedFile> branch_tree(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

}  // namespace tailor
