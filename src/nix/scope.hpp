#pragma once
/// Nix's static scope check (bindVars): every variable must be bound by a
/// `let`, a function, a `rec` set, or Nix's base environment, unless a
/// `with` encloses it. `nix-instantiate --parse` rejects files that fail it.

#include <optional>
#include <string_view>

#include "nix/core.hpp"
#include "util/diagnostic.hpp"

namespace tailor::nix {

/// The first unbound variable of \a root, as a diagnostic; none if all are bound.
std::optional<Diagnostic> check_scopes(const Core& root, std::string_view path, std::string_view text);

}  // namespace tailor::nix
