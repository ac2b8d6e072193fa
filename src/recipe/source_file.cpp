#include "recipe/source_file.hpp"

namespace tailor::recipe {

std::string display_path(const std::string& root, const std::string& rel) {
  if (root.empty() || root == ".") return rel;
  return root.back() == '/' ? root + rel : root + "/" + rel;
}

}  // namespace tailor::recipe
