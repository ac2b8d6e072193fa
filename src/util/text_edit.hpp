#pragma once
/// Minimal text edits by byte range, as `tailor check --fix` and `tailor repin`
/// apply them: everything outside an edit is kept byte for byte (comments,
/// whitespace), and the change can be shown as a unified diff.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// Replace bytes [begin, end) by \a text; begin == end inserts.
struct TextEdit {
  size_t begin = 0;
  size_t end = 0;
  std::string text;
  std::string what;  ///< optional label for a summary ("pin", "sha256", "python set")

  bool operator==(const TextEdit&) const = default;
};

/// Sorts \a edits by position (insertions at one offset keep their order, before
/// a replacement starting there), drops identical duplicates (same range and
/// text: the same site reached twice) and reports whether none overlap.
bool normalize_edits(std::vector<TextEdit>& edits);

/// \a text with \a edits (any order) applied. Edits must lie inside the text and
/// not overlap; identical duplicates are applied once. Throws std::logic_error
/// otherwise: edits are computed by tailor, a clash is a bug.
std::string apply_edits(std::string_view text, std::vector<TextEdit> edits);

struct DiffStyle {
  size_t context = 3;  ///< unchanged lines around each change; 0: every change is its own hunk
  bool git = true;     ///< "diff --git" (and rename) lines for `git apply`; false: bare ---/+++ for `patch -p1`
};

/// A unified diff of \a edits (as for apply_edits) to \a text, with paths
/// a/\a from and b/\a to; \a from != \a to is a rename (shown only in git
/// style). Only lines that differ are marked; a last line without a newline
/// gets "\ No newline at end of file". Empty when nothing changes.
std::string unified_diff(std::string_view from, std::string_view to, std::string_view text, std::vector<TextEdit> edits,
                         DiffStyle style = {});

}  // namespace tailor
