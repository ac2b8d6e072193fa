#pragma once
/// The generated-by marker: every file tailor writes ends with one line that
/// carries a hash of the rest. A file whose hash no longer matches was edited
/// by a human and is not overwritten without --force.

#include <optional>
#include <string>
#include <string_view>

namespace tailor {

enum class CommentStyle { hash, html };  ///< "# ..." (Nix, TOML) or "<!-- ... -->" (Markdown)

/// \a body followed by the marker line.
std::string with_marker(std::string_view body, CommentStyle style);

enum class MarkerState { absent, intact, edited };

/// Whether \a content carries a marker, and whether the body still matches it.
MarkerState marker_state(std::string_view content);

/// 64-bit FNV-1a of \a s, as 16 hex digits (edit detection, not security).
std::string content_hash(std::string_view s);

}  // namespace tailor
