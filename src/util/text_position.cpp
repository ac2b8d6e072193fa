#include "util/text_position.hpp"

namespace tailor {

Pos pos_at(std::string_view text, size_t offset) {
  Pos p{1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace tailor
