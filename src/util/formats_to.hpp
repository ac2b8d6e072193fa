#pragma once
/// Comparing a text with what a format would print, without printing it into a
/// string: for lookups that run once per name of a large tree.

#include <string_view>

#include <fmt/format.h>

namespace tailor {

/// Whether \a format applied to \a args prints exactly \a text: into a buffer on
/// the stack, or (a longer result) into a string.
template <class... Args>
bool formats_to(std::string_view text, fmt::format_string<const Args&...> format, const Args&... args) {
  char buf[64];
  auto r = fmt::format_to_n(buf, sizeof buf, format, args...);
  if (r.size > sizeof buf) return r.size == text.size() && fmt::format(format, args...) == text;
  return std::string_view(buf, r.size) == text;
}

}  // namespace tailor
