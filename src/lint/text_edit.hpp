#pragma once
/// Minimal text edits by byte span, as `tailor check --fix` applies them:
/// everything outside an edit is kept byte for byte (comments, whitespace).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nix/token.hpp"

namespace tailor::lint {

/// Replace bytes [begin, end) by \a text; begin == end inserts.
struct TextEdit {
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string text;

  bool operator==(const TextEdit&) const = default;
};

/// The edit renaming the identifier or string literal at \a span from \a from
/// to \a to: the span's bytes must read `from`, `"from"` or `''from''`
/// (then only the inside changes); null otherwise (an escape, an interpolation).
std::optional<TextEdit> rename_at(std::string_view text, const nix::Span& span, std::string_view from,
                                  std::string_view to);

/// \a text with \a edits applied; edits must be sorted by begin and not overlap.
std::string apply_edits(std::string_view text, const std::vector<TextEdit>& edits);

/// Sorts \a edits by position (insertions at one offset keep their order) and
/// reports whether any two overlap.
bool sort_edits(std::vector<TextEdit>& edits);

/// A git-style unified diff (3 lines of context) of \a edits to \a text, with
/// paths a/\a from and b/\a to relative to the tree (`git apply` reads it);
/// \a from != \a to is a rename. Empty when nothing changes.
std::string unified_diff(std::string_view from, std::string_view to, std::string_view text,
                         const std::vector<TextEdit>& edits);

}  // namespace tailor::lint
