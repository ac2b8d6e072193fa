#include "util/version.hpp"

#include <algorithm>

namespace tailor {

std::optional<Version> Version::parse(std::string_view text) {
  Version v;
  v.text_ = std::string(text);
  size_t i = 0;
  while (true) {
    size_t start = i;
    long value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      value = value * 10 + (text[i] - '0');
      if (value > 1'000'000) return std::nullopt;
      ++i;
    }
    if (i == start) return std::nullopt;
    v.parts_.push_back(static_cast<int>(value));
    if (i == text.size()) break;
    if (text[i] != '.') return std::nullopt;
    ++i;
  }
  return v;
}

std::strong_ordering Version::operator<=>(const Version& o) const {
  size_t n = std::max(parts_.size(), o.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    if (auto c = part(i) <=> o.part(i); c != 0) return c;
  }
  return std::strong_ordering::equal;
}

}  // namespace tailor
