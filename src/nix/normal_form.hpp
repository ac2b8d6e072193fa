#pragma once
/// The whole `nix-instantiate --parse` pipeline for one file: parse, lower,
/// check scopes, print.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "nix/lower.hpp"
#include "nix/symbols.hpp"
#include "util/diagnostic.hpp"

namespace tailor::nix {

/// The printed normal form (with a trailing newline), or the first error.
struct NormalForm {
  std::string text;
  std::optional<Diagnostic> error;
};

/// Runs the pipeline on \a text, the contents of \a path, with paths
/// resolved through \a ctx. \a symbols is shared by all files of one run.
NormalForm normal_form(std::string_view path, std::string_view text, const PathContext& ctx, SymbolTable& symbols);

/// The context Nix uses for the file \a file: its canonical directory (after
/// following a symlinked file, as Nix does) and $HOME.
PathContext path_context_for(const std::string& file);

/// path_context_for for many files of one run: the directory of each file
/// and $HOME are worked out once.
class PathContextCache {
 public:
  /// \a maybe_symlink: false when the caller knows \a file is not a symbolic link.
  const PathContext& get(const std::string& file, bool maybe_symlink = true);

 private:
  std::unordered_map<std::string, PathContext> by_dir_;
  PathContext scratch_;
};

}  // namespace tailor::nix
