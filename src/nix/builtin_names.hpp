#pragma once
/// Names measured on Nix 2.8 (scripts/nix_symbol_tables.py regenerates them).

#include <string_view>
#include <vector>

namespace tailor::nix {

/// Names bound in Nix's base environment: usable without a binding.
extern const std::vector<std::string_view> kGlobalNames;

/// Names Nix interns at start-up that compare below names first seen in a file, in Nix's order.
extern const std::vector<std::string_view> kEarlySymbols;

/// Names Nix interns at start-up that compare above the first names seen in a file, in Nix's order.
extern const std::vector<std::string_view> kLateSymbols;

}  // namespace tailor::nix
