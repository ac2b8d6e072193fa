#pragma once
/// Minimal text edits: replace byte ranges of the original text, never
/// reprint it. Everything outside the edited ranges stays byte-identical.

#include <string>
#include <string_view>
#include <vector>

namespace tailor::migrate {

/// Replace bytes [begin, end) of a text with `text` (begin == end: insert).
struct TextEdit {
  size_t begin = 0;
  size_t end = 0;
  std::string text;
  std::string what;  ///< for the summary: "pin", "sha256", "python set"
};

/// Applies \a edits (any order) to \a text. Edits must lie inside the text
/// and not overlap; identical duplicates are applied once. Throws
/// std::logic_error otherwise: the planners produce them, a clash is a bug.
std::string apply_edits(std::string_view text, std::vector<TextEdit> edits);

/// Sorts by position and removes identical duplicates (the same node reached twice).
void normalize_edits(std::vector<TextEdit>& edits);

}  // namespace tailor::migrate
