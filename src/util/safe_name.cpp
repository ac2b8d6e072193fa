#include "util/safe_name.hpp"

#include <fmt/format.h>

namespace tailor {

namespace {
bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
}  // namespace

std::optional<std::string> unsafe_name_reason(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.size() > 100) return "is longer than 100 characters";
  if (!alnum(name[0])) return "must start with a letter or a digit";
  for (char c : name) {
    if (alnum(c) || c == '.' || c == '_' || c == '+' || c == '-') continue;
    auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u >= 0x7f ? fmt::format("contains the byte 0x{:02x}", u) : fmt::format("contains '{}'", c);
  }
  return std::nullopt;
}

}  // namespace tailor
