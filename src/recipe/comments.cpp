#include "recipe/comments.hpp"

#include <string>

namespace tailor::recipe {

std::vector<Fact> comment_lines(const std::vector<nix::Comment>& comments, std::string_view text,
                                const LineIndex& lines) {
  std::vector<Fact> out;
  out.reserve(comments.size());
  for (const auto& c : comments) {
    const char* key = c.header ? "header" : "comment";
    size_t b = c.begin;
    for (size_t k = c.begin; k <= c.end; ++k)
      if (k == c.end || text[k] == '\n') {  // a block comment gives one fact per line
        out.push_back({key, std::string(text.substr(b, k - b)), lines.span(b, k)});
        b = k + 1;
      }
  }
  return out;
}

}  // namespace tailor::recipe
