#pragma once
/// Where a Nix file names a Python package set or interpreter: identifiers
/// (`python3Packages` as a variable, an attribute of a select such as
/// `pkgs.python3Packages.torch` or `python3.pkgs`, a formal argument
/// `{ python3Packages, … }`, `with python3Packages;`, a binding or inherited
/// name) and the string values of `pythonPackages = "…"` / `python = "…"`
/// records. Only bare identifiers are listed: a quoted attribute name is left alone.

#include <string>
#include <string_view>
#include <vector>

#include "nix/ast.hpp"

namespace tailor::repin {

struct NameSite {
  std::string name;           ///< python3Packages, python312, …
  size_t begin = 0, end = 0;  ///< the identifier's bytes (a string's content)
  nix::Span span;
  std::string role;  ///< "use", "attribute", "formal", "binding", "inherit", "string"
};

/// Every Python set/interpreter name of \a root, in source order.
std::vector<NameSite> find_python_names(std::string_view text, const nix::Expr& root);

}  // namespace tailor::repin
