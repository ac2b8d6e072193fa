#include "repin/toml_strings.hpp"

namespace tailor::repin {

std::vector<std::pair<size_t, size_t>> toml_string_ranges(std::string_view t) {
  std::vector<std::pair<size_t, size_t>> out;
  const size_t n = t.size();
  for (size_t i = 0; i < n;) {
    char c = t[i];
    if (c == '#') {  // a comment, to the end of the line
      while (i < n && t[i] != '\n') ++i;
      continue;
    }
    if (c != '"' && c != '\'') {
      ++i;
      continue;
    }
    bool multi = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
    size_t b = i + (multi ? 3 : 1), e = b;
    bool basic = c == '"';
    for (; e < n; ++e) {
      if (basic && t[e] == '\\') {
        ++e;
        continue;
      }
      if (!multi && t[e] == '\n') break;  // unterminated: stop at the line end
      if (t[e] == c && (!multi || (e + 2 < n && t[e + 1] == c && t[e + 2] == c))) break;
    }
    out.emplace_back(b, std::min(e, n));
    i = e >= n ? n : e + (multi ? 3 : 1);
  }
  return out;
}

}  // namespace tailor::repin
