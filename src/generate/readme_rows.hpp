#pragma once
/// The README rows of a tree that keeps its own builder which state spec facts:
/// a Markdown table whose first column lists the spec's package versions. They
/// stay the team's text, and are checked against the spec: a version the spec
/// builds that such a table does not list, a listed version it does not build.

#include <string>
#include <vector>

#include "matrix/expand.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

/// One diagnostic per stale row or link of \a dir/README.md ("README.md:18:1: …",
/// of \a severity); none where the spec has no [layout] or the tree no README.
std::vector<Diagnostic> stale_readme_rows(const std::string& dir, const Spec& spec, const Matrix& m,
                                          Severity severity = Severity::error);

}  // namespace tailor
