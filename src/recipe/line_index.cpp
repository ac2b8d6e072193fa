#include "recipe/line_index.hpp"

#include <algorithm>
#include <cstring>

namespace tailor::recipe {

nix::Span span_of(std::string_view text, size_t begin, size_t end) {
  nix::Span s;
  s.begin = static_cast<uint32_t>(std::min(begin, text.size()));
  s.end = static_cast<uint32_t>(std::min(std::max(begin, end), text.size()));
  s.line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < s.begin; ++i)
    if (text[i] == '\n') {
      ++s.line;
      line_start = i + 1;
    }
  s.column = static_cast<int>(s.begin - line_start) + 1;
  return s;
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  const char* begin = text.data();
  const char* end = begin + text.size();
  for (const char* p = begin; p < end; ++p) {
    p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (!p) break;
    starts_.push_back(static_cast<uint32_t>(p - begin + 1));
  }
}

LineIndex::LineIndex(std::string_view text, std::vector<uint32_t> starts) : text_(text), starts_(std::move(starts)) {
  if (starts_.empty() || starts_.front() != 0) starts_.insert(starts_.begin(), 0);
}

nix::Span LineIndex::span(size_t begin, size_t end) const {
  nix::Span s;
  s.begin = static_cast<uint32_t>(std::min(begin, text_.size()));
  s.end = static_cast<uint32_t>(std::min(std::max(begin, end), text_.size()));
  auto it = std::upper_bound(starts_.begin(), starts_.end(), s.begin);
  size_t line = static_cast<size_t>(it - starts_.begin());  // 1-based: starts_[line - 1] <= begin
  s.line = static_cast<int>(line);
  s.column = static_cast<int>(s.begin - starts_[line - 1]) + 1;
  return s;
}

std::string_view LineIndex::line(int line) const {
  if (line < 1 || static_cast<size_t>(line) > starts_.size()) return {};
  size_t begin = std::min<size_t>(starts_[line - 1], text_.size());
  size_t end = static_cast<size_t>(line) < starts_.size() ? starts_[line] - 1 : text_.size();
  std::string_view s = text_.substr(begin, std::max(begin, end) - begin);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace tailor::recipe
