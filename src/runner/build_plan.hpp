#pragma once
/// Which variants `tailor build` builds, and in what order: the selected ones
/// and the variants they build against (a companion's torch, a torch's
/// MAGMA), dependencies first, so shared derivations are built once.

#include <string>
#include <vector>

#include "generate/tree.hpp"
#include "matrix/expand.hpp"
#include "runner/build_state.hpp"

namespace tailor {

struct PlannedBuild {
  std::string name;
  std::vector<std::string> needs;  ///< variants that must succeed first
  bool selected = true;            ///< false: built only because another needs it
  bool heavy = true;               ///< CUDA builds: routed to big-parallel builders
  double memory_gb = 0;            ///< what one build is expected to need at its peak
  DerivationInputs inputs;         ///< what its derivation depends on (set by key_builds)
};

/// Peak memory a build is planned with: CUDA builds two 8 GB nvcc units at
/// least (CUTLASS/FlashAttention units take 3-8 GB each), others 4 GB.
constexpr double kHeavyBuildGb = 16, kLightBuildGb = 4;

/// Selects variants by exact name or shell glob (`*sm90*`); none selects all.
/// Throws DiagnosticError for a pattern that matches nothing.
std::vector<PlannedBuild> plan_builds(const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                                      const std::vector<std::string>& patterns);

/// Sets each build's inputs from the generated tree \a files: its recipe
/// (.flox/pkgs/NAME.nix), the shared builders (.flox/pkgs/lib/), its pin, and
/// the keys of what it needs (\a plan is ordered dependencies first).
void key_builds(std::vector<PlannedBuild>& plan, const Matrix& m, const std::vector<GeneratedFile>& files);

}  // namespace tailor
