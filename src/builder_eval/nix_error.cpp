#include "builder_eval/nix_error.hpp"

#include <regex>
#include <sstream>
#include <vector>

#include "util/trim.hpp"

namespace tailor::builder_eval {

NixError read_nix_error(std::string_view stderr_text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(stderr_text)};
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // The innermost error: the last "error: MESSAGE" (Nix 2.13+ prints the
  // frames it went through first, under an "error:" of their own).
  size_t at_error = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (t.starts_with("error:") && !trim(t.substr(6)).empty()) at_error = i;
  }
  NixError e;
  if (at_error == lines.size()) return e;
  e.message = std::string(trim(trim(lines[at_error]).substr(6)));
  static const std::regex at(R"(^\s*at (.+):([0-9]+):([0-9]+):$)");
  for (size_t i = at_error + 1; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    std::smatch m;
    if (e.file.empty() && std::regex_match(lines[i], m, at)) {
      e.file = m[1];
      e.line = std::stoi(m[2]);
      e.column = std::stoi(m[3]);
    } else if (t.starts_with("Did you mean")) {
      e.hint = std::string(t);
    }
  }
  return e;
}

}  // namespace tailor::builder_eval
