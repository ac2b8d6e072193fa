#pragma once
/// A recursive-descent parser for the Nix language as Nix 2.8 accepts it.
/// Errors are tailor's own wording ("expected ';', got '}'"), reported as a
/// Diagnostic with the offending line and a caret.

#include <optional>
#include <string_view>
#include <vector>

#include "nix/ast.hpp"
#include "nix/lexer.hpp"
#include "nix/symbols.hpp"
#include "util/diagnostic.hpp"

namespace tailor::nix {

/// Deeper nesting than this is rejected with a diagnostic instead of
/// risking the stack.
inline constexpr int kMaxNesting = 500;

/// The parsed tree, or the first error; and the file's comments.
struct ParseResult {
  ExprPtr expr;                       ///< null on error
  std::optional<Diagnostic> error;    ///< set on error
  std::vector<Comment> comments;      ///< every comment (after an error: up to a lexical error)
  std::vector<uint32_t> line_starts;  ///< the offset of each line's first byte: positions need not scan again
};

/// Parses \a text (the whole file \a path). \a symbols records names in the
/// order Nix's parser interns them (see symbols.hpp); pass the same table for
/// all files of one run.
ParseResult parse(std::string_view path, std::string_view text, SymbolTable& symbols);

}  // namespace tailor::nix
