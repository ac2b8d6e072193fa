#include "util/read_file.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

std::string read_file(const std::filesystem::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Diagnostic d;
    d.path = path.string();
    d.message = "cannot read " + std::string(what);
    throw DiagnosticError(d);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void require_text(const std::filesystem::path& path, std::string_view text) {
  size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return;
  Diagnostic d;
  d.path = path.string();
  d.message = fmt::format("not a text file (a NUL byte at offset {})", nul);
  throw DiagnosticError(d);
}

std::string read_text_file(const std::filesystem::path& path, std::string_view what) {
  std::string text = read_file(path, what);
  require_text(path, text);
  return text;
}

}  // namespace tailor
