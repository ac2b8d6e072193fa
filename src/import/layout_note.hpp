#pragma once
/// Why `tailor import` finds no variant in a tree it cannot read: the layout
/// it sees and the construct it would need to read, instead of a bare "no
/// variant recipes found".

#include <string>
#include <vector>

#include "lint/findings.hpp"

namespace tailor {

/// One line per layout of \a t that keeps its variants out of file names: a
/// nixpkgs-style package set whose variants are values of Nix expressions, and
/// recipes that build several GPU architectures from one list. Empty if none.
std::vector<std::string> layout_notes(const lint::LintTree& t);

}  // namespace tailor
