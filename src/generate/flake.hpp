#pragma once
/// flake.nix of a generated tree: every variant as a flat
/// packages.<system>.<name> (so `nix flake show` works) and as
/// hydraJobs.<name>.<system>, with one input per nixpkgs pin of the matrix.

#include <string>

#include "matrix/expand.hpp"

namespace tailor {

/// The flake's text (without the generated-by marker).
std::string branch_flake(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

}  // namespace tailor
