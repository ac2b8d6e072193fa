#pragma once
/// Nix 2.8 orders `let` bindings and function formals by its Symbol type,
/// which compares the addresses of interned strings: names that Nix interns
/// while starting up come first, the rest in the order the parser interns
/// them. This table reproduces that order as far as it is predictable; it
/// lives as long as one `tailor parse` run, as Nix's lives for one process.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tailor::nix {

class SymbolTable {
 public:
  /// A table preloaded with the names Nix 2.8 interns before parsing.
  SymbolTable();

  /// Records \a name if it is new (the parser calls this where Nix's
  /// grammar actions call `symbols.create`).
  void intern(std::string_view name);

  /// The sort key of \a name; names never interned sort last, by text.
  uint64_t rank(std::string_view name) const;

 private:
  std::unordered_map<std::string, uint64_t> ranks_;
  uint64_t next_fresh_;
};

}  // namespace tailor::nix
