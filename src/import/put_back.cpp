#include "import/put_back.hpp"

#include <algorithm>

namespace tailor {

std::string put_back(std::string text, const std::vector<PutWord>& words, const PutFits& fits) {
  // Marks what is already a word so that shorter values do not match inside it.
  std::vector<bool> taken(text.size(), false);
  for (const auto& [place, value] : words) {
    if (value.empty()) continue;
    for (size_t at = text.find(value); at != std::string::npos; at = text.find(value, at + 1)) {
      auto from = taken.begin() + static_cast<long>(at);
      auto to = from + static_cast<long>(value.size());
      if (std::any_of(from, to, [](bool b) { return b; }) || !fits(text, at, at + value.size())) continue;
      text.replace(at, value.size(), place);
      from = taken.erase(from, to);
      taken.insert(from, place.size(), true);
      at += place.size() - 1;
    }
  }
  return text;
}

}  // namespace tailor
