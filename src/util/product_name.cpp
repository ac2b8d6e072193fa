#include "util/product_name.hpp"

#include <cctype>

namespace tailor {

std::string product_key(std::string_view name) {
  std::string key;
  for (char c : name)
    if (c != ' ' && c != '-' && c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key.starts_with("nvidia") && key.size() > 6) key.erase(0, 6);
  return key;
}

}  // namespace tailor
