#include "recipe/comments.hpp"

#include <algorithm>
#include <string>

#include "recipe/recipe_facts.hpp"

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
        // No rule reads past kMaxRegexLine bytes of a line (they skip longer ones, and a
        // directive starts it): the rest is not copied, the span keeps the whole line.
        out.push_back({key, std::string(text.substr(b, std::min(k - b, kMaxRegexLine + 1))), lines.span(b, k)});
        b = k + 1;
      }
  }
  return out;
}

}  // namespace tailor::recipe
