#include "lint/doc_claims.hpp"

namespace tailor::lint {

bool doc_line_about_this_tree(std::string_view line) {
  return line.starts_with("#") || line.find("this branch") != std::string_view::npos ||
         line.find("You are on") != std::string_view::npos;
}

}  // namespace tailor::lint
