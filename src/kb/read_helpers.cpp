#include "kb/read_helpers.hpp"

#include <fmt/format.h>

#include "util/quote.hpp"

namespace tailor {

Version require_version(const TomlDocument& doc, const Located<std::string>& text, std::string_view what) {
  auto v = Version::parse(text.value);
  if (!v) throw doc.error_at(text.pos, fmt::format("'{}' is not a valid {}", text.value, what));
  return *v;
}

std::optional<Version> optional_version(TableReader& r, std::string_view key) {
  auto s = r.string(key);
  if (!s) return std::nullopt;
  return require_version(r.doc(), *s, "version");
}

std::vector<std::string> values(const std::optional<std::vector<Located<std::string>>>& list) {
  std::vector<std::string> out;
  if (list)
    for (const auto& l : *list) out.push_back(l.value);
  return out;
}

std::string optional_text(TableReader& r, std::string_view key) {
  auto s = r.string(key);
  return s ? s->value : std::string();
}

std::string require_nix_identifier(const TomlDocument& doc, const Located<std::string>& text, std::string_view what) {
  // nix_attr_name leaves exactly the identifiers that are no keyword bare.
  if (text.value.empty() || nix_attr_name(text.value) != text.value)
    throw doc.error_at(text.pos, fmt::format("{} {} is not a Nix identifier", what, nix_string(text.value)),
                       "letters, digits, _, - and ', starting with a letter or _; no keyword");
  return text.value;
}

std::string optional_nix_identifier(TableReader& r, std::string_view key, std::string_view what) {
  auto s = r.string(key);
  return s ? require_nix_identifier(r.doc(), *s, what) : std::string();
}

std::string require_one_line(const TomlDocument& doc, const Located<std::string>& text, std::string_view what) {
  for (char c : text.value)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw doc.error_at(text.pos, fmt::format("{} {} holds a control character", what, toml_string(text.value)),
                         "a name is one line of text: tables, pages and comments write it as it is");
  return text.value;
}

std::vector<std::string> one_line_values(const TomlDocument& doc,
                                         const std::optional<std::vector<Located<std::string>>>& list,
                                         std::string_view what) {
  std::vector<std::string> out;
  if (list)
    for (const auto& s : *list) out.push_back(require_one_line(doc, s, what));
  return out;
}

bool is_shell_variable_name(std::string_view s) {
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (s.empty() || !alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

}  // namespace tailor
