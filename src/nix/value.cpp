#include "nix/value.hpp"

#include <fmt/format.h>

namespace tailor::nix {

const char* kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::unknown: return "an unknown value";
    case ValueKind::null: return "null";
    case ValueKind::boolean: return "a Boolean";
    case ValueKind::integer: return "an integer";
    case ValueKind::floating: return "a float";
    case ValueKind::string: return "a string";
    case ValueKind::path: return "a path";
    case ValueKind::list: return "a list";
    case ValueKind::attrs: return "a set";
    case ValueKind::lambda: return "a function";
    case ValueKind::builtin: return "a built-in function";
  }
  return "a value";
}

std::string where_text(const Where& w, std::string_view root) {
  std::string file = w.file ? *w.file : std::string("«none»");
  if (!root.empty() && w.file) file = std::string(root) + "/" + file;
  return fmt::format("{}:{}:{}", file, w.span.line, w.span.column);
}

}  // namespace tailor::nix
