#include "host/nvidia_driver.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include "util/version.hpp"

namespace tailor {

std::optional<std::string> parse_driver_version(std::string_view text) {
  // The first line; the version is its first dotted number (the kernel
  // module's name may contain "x86_64", which is not one).
  text = text.substr(0, text.find('\n'));
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    std::string_view word = text.substr(i, j - i);
    if (auto v = Version::parse(word); v && v->size() >= 2) return std::string(word);
    i = j;
  }
  return std::nullopt;
}

std::optional<std::string> read_driver_version() {
  for (const char* path : {"/proc/driver/nvidia/version", "/sys/module/nvidia/version"}) {
    std::ifstream in(path);
    if (!in) continue;
    std::ostringstream s;
    s << in.rdbuf();
    if (auto v = parse_driver_version(s.str())) return v;
  }
  return std::nullopt;
}

}  // namespace tailor
