#pragma once
/// Small helpers shared by the knowledge-base record readers.

#include <optional>
#include <string>
#include <vector>

#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

/// Parses a version, or reports "'x' is not a valid <what>" at its position.
Version require_version(const TomlDocument& doc, const Located<std::string>& text, std::string_view what);
std::optional<Version> optional_version(TableReader& r, std::string_view key);
/// The plain strings of an optional list (empty when absent).
std::vector<std::string> values(const std::optional<std::vector<Located<std::string>>>& list);
std::string optional_text(TableReader& r, std::string_view key);

/// A name tailor writes bare into Nix source (an override argument, a recipe
/// key, `inherit x`): a Nix identifier that is no keyword, or an error at its
/// position. Returns the name.
std::string require_nix_identifier(const TomlDocument& doc, const Located<std::string>& text, std::string_view what);
/// optional_text, checked as require_nix_identifier when present.
std::string optional_nix_identifier(TableReader& r, std::string_view key, std::string_view what);

/// A name written into tables, pages and comments (a GPU's product, a family,
/// a compiler flag): one line of text, no control character, or an error at its
/// position. Returns the name.
std::string require_one_line(const TomlDocument& doc, const Located<std::string>& text, std::string_view what);
/// The names of an optional list (empty when absent), each checked as require_one_line.
std::vector<std::string> one_line_values(const TomlDocument& doc,
                                         const std::optional<std::vector<Located<std::string>>>& list,
                                         std::string_view what);

/// A POSIX shell variable name: [A-Za-z_][A-Za-z0-9_]*.
bool is_shell_variable_name(std::string_view s);

}  // namespace tailor
