#pragma once
/// std::regex on a tree's text, with a bound: libstdc++'s matcher recurses
/// once per character, and a 30 kB line overflows the stack (SIGSEGV). The
/// lines tailor reads facts from (a table's field, a page's heading) are short;
/// a longer line is no such line.

#include <regex>
#include <string>

namespace tailor {

/// The longest line a pattern is tried on.
inline constexpr size_t kMaxRegexLine = 1024;

/// std::regex_search on \a text, false when it is longer than kMaxRegexLine.
inline bool bounded_search(const std::string& text, std::smatch& m, const std::regex& re) {
  return text.size() <= kMaxRegexLine && std::regex_search(text, m, re);
}

}  // namespace tailor
