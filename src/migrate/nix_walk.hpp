#pragma once
/// A pre-order walk over every node of a Nix syntax tree, with the name of
/// the binding a node is the value of (`nixpkgs = { … }` gives "nixpkgs").

#include <functional>
#include <string>

#include "nix/ast.hpp"

namespace tailor::migrate {

/// Calls \a fn(node, binding) for every node under \a root, parents first.
void walk_nix(const nix::Expr& root, const std::function<void(const nix::Expr&, const std::string&)>& fn);

}  // namespace tailor::migrate
