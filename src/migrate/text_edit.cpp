#include "migrate/text_edit.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace tailor::migrate {

void normalize_edits(std::vector<TextEdit>& edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return std::tie(a.begin, a.end) < std::tie(b.begin, b.end); });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const TextEdit& a, const TextEdit& b) {
                            return a.begin == b.begin && a.end == b.end && a.text == b.text;
                          }),
              edits.end());
}

std::string apply_edits(std::string_view text, std::vector<TextEdit> edits) {
  normalize_edits(edits);
  std::string out;
  out.reserve(text.size() + 64);
  size_t pos = 0;
  for (const auto& e : edits) {
    if (e.begin > e.end || e.end > text.size()) throw std::logic_error("text edit outside the text");
    if (e.begin < pos) throw std::logic_error("overlapping text edits");
    out.append(text.substr(pos, e.begin - pos));
    out += e.text;
    pos = e.end;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace tailor::migrate
