#include "kb/read_helpers.hpp"

#include <fmt/format.h>

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

}  // namespace tailor
