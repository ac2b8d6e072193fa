#include "util/find_program.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace tailor {

std::filesystem::path find_program(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (!path || name.empty()) return {};
  std::string_view rest(path);
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::filesystem::path candidate = std::filesystem::path(dir) / name;
      std::error_code ec;
      if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

}  // namespace tailor
