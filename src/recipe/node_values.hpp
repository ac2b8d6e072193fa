#pragma once
/// What a node of the Nix syntax tree says without evaluation: a string's
/// static value, a callee's name, the attribute an override replaces.

#include <optional>
#include <string>
#include <utility>

#include "nix/ast.hpp"

namespace tailor::recipe {

/// The value of a string node without interpolations; nullopt otherwise (and for other nodes).
std::optional<std::string> static_string(const nix::Expr& e);

/// The function's name as written last (`builtins.fetchTarball` -> fetchTarball) and its span.
std::optional<std::pair<std::string, nix::Span>> callee_name(const nix::Expr& fn);

/// The attribute an override call replaces: torch of `ps.torch.overrideAttrs`,
/// `(ps.torch.override { … }).overrideAttrs` or `torch.overridePythonAttrs`.
std::optional<std::string> overridden_attribute(const nix::Expr& fn);

}  // namespace tailor::recipe
