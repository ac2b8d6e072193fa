#pragma once
/// Prints a core tree exactly as `nix-instantiate --parse` (Nix 2.8) does:
/// fully parenthesised, sets sorted by name, `let` bindings in symbol order.

#include <string>
#include <string_view>

#include "nix/core.hpp"
#include "nix/symbols.hpp"

namespace tailor::nix {

/// The normal form of \a root, without a trailing newline.
std::string print_normal_form(const Core& root, const SymbolTable& symbols);

/// A string literal as Nix prints it: "…" with \" \\ \$ \n \r \t escaped.
std::string quote_string(std::string_view s);

/// An attribute name as Nix prints it: bare if it is an identifier, quoted otherwise.
std::string quote_identifier(std::string_view s);

}  // namespace tailor::nix
