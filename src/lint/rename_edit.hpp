#pragma once
/// The text edit renaming one identifier or string literal in a Nix file, as
/// `tailor check --fix` applies it.

#include <optional>
#include <string_view>

#include "nix/token.hpp"
#include "util/text_edit.hpp"

namespace tailor::lint {

/// The edit renaming the identifier or string literal at \a span from \a from
/// to \a to: the span's bytes must read `from`, `"from"` or `''from''`
/// (then only the inside changes); null otherwise (an escape, an interpolation).
std::optional<TextEdit> rename_at(std::string_view text, const nix::Span& span, std::string_view from,
                                  std::string_view to);

}  // namespace tailor::lint
