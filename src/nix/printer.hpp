#pragma once
/// Prints a core tree exactly as `nix-instantiate --parse` (Nix 2.8) does:
/// fully parenthesised, sets sorted by name, `let` bindings in symbol order.

#include <string>
#include <string_view>

#include "nix/core.hpp"
#include "nix/symbols.hpp"

namespace tailor::nix {

/// The normal form of \a root, without a trailing newline. \a size_hint:
/// the bytes to reserve for it (the source's size is a fair guess).
std::string print_normal_form(const Core& root, const SymbolTable& symbols, size_t size_hint = 0);

/// A string literal as Nix prints it: "…" with \" \\ \$ \n \r \t escaped.
std::string quote_string(std::string_view s);

/// An attribute name as Nix prints it: bare if it is an identifier, quoted otherwise.
std::string quote_identifier(std::string_view s);

}  // namespace tailor::nix
