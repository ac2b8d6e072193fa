#include "util/read_file.hpp"

#include <fstream>
#include <sstream>

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

}  // namespace tailor
