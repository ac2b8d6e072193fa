#include "util/embedded.hpp"

namespace tailor {

std::optional<std::string_view> embedded_file(std::string_view path) {
  for (const auto& f : embedded_files())
    if (f.path == path) return f.content;
  return std::nullopt;
}

}  // namespace tailor
