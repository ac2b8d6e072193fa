#include "lint/rename_edit.hpp"

namespace tailor::lint {

std::optional<TextEdit> rename_at(std::string_view text, const nix::Span& span, std::string_view from,
                                  std::string_view to) {
  if (span.end > text.size() || span.begin > span.end) return std::nullopt;
  std::string_view at = text.substr(span.begin, span.end - span.begin);
  size_t quote = 0;
  if (at == from)
    quote = 0;
  else if (at.size() == from.size() + 2 && at.front() == '"' && at.back() == '"' && at.substr(1, from.size()) == from)
    quote = 1;
  else if (at.size() == from.size() + 4 && at.starts_with("''") && at.ends_with("''") &&
           at.substr(2, from.size()) == from)
    quote = 2;
  else
    return std::nullopt;
  // The new text goes where the old one was written: it must need no escape there.
  if (quote && (to.find_first_of("\"\\$'\n") != std::string_view::npos)) return std::nullopt;
  return TextEdit{span.begin + quote, span.end - quote, std::string(to), {}};
}

}  // namespace tailor::lint
