#pragma once
/// Lowers the surface tree to Nix's core form (core.hpp), with the checks
/// Nix's parser makes on the way: duplicate attributes, and paths resolved
/// against the file's directory.

#include <optional>
#include <string>
#include <string_view>

#include "nix/ast.hpp"
#include "nix/core.hpp"
#include "nix/symbols.hpp"
#include "util/diagnostic.hpp"

namespace tailor::nix {

/// Where relative and home paths point.
struct PathContext {
  std::string base_dir;  ///< absolute, canonical directory of the file
  std::string home;      ///< the home directory, for ~/ paths
};

/// Nix's canonPath: absolute, no "." / ".." / repeated slashes; no symlinks resolved.
std::string canon_path(std::string_view path);

/// Builds the core tree of \a e; \a path and \a text are for diagnostics.
/// \a symbols orders function formals the way Nix does.
std::optional<Diagnostic> lower(const Expr& e, const PathContext& ctx, const SymbolTable& symbols,
                                std::string_view path, std::string_view text, CoreTree& out);

}  // namespace tailor::nix
