#pragma once
/// Flox manifests: the branch's build environment, and consumer manifests
/// that install several variants side by side.

#include <string>
#include <vector>

#include "matrix/expand.hpp"

namespace tailor {

/// .flox/env/manifest.toml of a generated tree: the systems the branch builds for.
std::string build_env_manifest(const Spec& spec, const Matrix& m);

/// A consumer manifest installing \a names (variants of \a m) from \a org: each
/// with its own pkg-group, `systems` = its platform, and a priority that is
/// unique per platform (GPU and MPS variants before CPU-only ones). Throws
/// DiagnosticError for a name the matrix does not have, and for GPU builds of
/// more than one SM or CUDA toolkit for one platform (one manifest serves one
/// kind of machine).
std::string consumer_manifest(const Spec& spec, const Matrix& m, const std::vector<std::string>& names,
                              const std::string& org);

}  // namespace tailor
