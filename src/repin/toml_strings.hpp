#pragma once
/// Pins in TOML files of a tree (a Flox manifest's `flake = "github:NixOS/nixpkgs/REV#python3Packages.torch"`,
/// a `rev = "…"` of some tool's config): the byte ranges of TOML string
/// contents, found by a small scanner so that comments are never touched.
/// Parsing the file is left to the caller (toml++), before and after the edit.

#include <string_view>
#include <utility>
#include <vector>

namespace tailor::repin {

/// [begin, end) of the content of every string literal of \a text (basic,
/// literal and multi-line), in order. Keys in quotes are strings too.
std::vector<std::pair<size_t, size_t>> toml_string_ranges(std::string_view text);

}  // namespace tailor::repin
