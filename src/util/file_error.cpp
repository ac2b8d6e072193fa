#include "util/file_error.hpp"

#include <cstring>

namespace tailor {

void throw_file_error(const std::filesystem::path& path, std::string message, std::string hint) {
  Diagnostic d;
  d.path = path.string();
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(std::move(d));
}

void throw_system_error(const std::filesystem::path& path, std::string_view what, int error) {
  throw_file_error(path, std::string("cannot ").append(what).append(": ").append(std::strerror(error)));
}

}  // namespace tailor
