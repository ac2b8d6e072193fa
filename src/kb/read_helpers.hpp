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

}  // namespace tailor
