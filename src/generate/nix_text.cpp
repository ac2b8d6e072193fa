#include "generate/nix_text.hpp"

#include <fmt/format.h>

namespace tailor {

std::string nix_string_list(const std::vector<std::string>& items) {
  if (items.empty()) return "[ ]";
  std::string out = "[";
  for (const auto& i : items) out += " " + nix_string(i);
  return out + " ]";
}

std::string nix_value(const nlohmann::ordered_json& j, int indent) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null: return "null";
    case nlohmann::ordered_json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case nlohmann::ordered_json::value_t::number_integer:
    case nlohmann::ordered_json::value_t::number_unsigned: return j.dump();
    case nlohmann::ordered_json::value_t::number_float: return j.dump();
    case nlohmann::ordered_json::value_t::string: return nix_string(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      if (j.empty()) return "[ ]";
      std::string out = "[";
      for (const auto& e : j) out += " " + nix_value(e, indent);
      return out + " ]";
    }
    case nlohmann::ordered_json::value_t::object: {
      if (j.empty()) return "{ }";
      std::string pad(indent + 2, ' ');
      std::string out = "{\n";
      for (const auto& [k, v] : j.items()) out += pad + nix_attr_name(k) + " = " + nix_value(v, indent + 2) + ";\n";
      return out + std::string(indent, ' ') + "}";
    }
    default: return "null";
  }
}

}  // namespace tailor

namespace tailor {
std::string nix_indented_string(std::string_view s, int indent) {
  std::string pad(indent, ' ');
  std::string out = "''\n";
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) nl = s.size();
    std::string line(s.substr(start, nl - start));
    std::string escaped;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line.compare(i, 2, "''") == 0) {
        escaped += "'''";
        ++i;
      } else if (line.compare(i, 2, "${") == 0) {
        escaped += "''${";
        ++i;
      } else {
        escaped += line[i];
      }
    }
    out += (escaped.empty() ? "" : pad + escaped) + "\n";
    start = nl + 1;
  }
  return out + pad + "''";
}
}  // namespace tailor
