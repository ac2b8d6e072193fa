#include "recipe/prune_lists.hpp"

#include <cctype>

namespace tailor::recipe {

std::vector<PruneSmList> prune_sm_lists(std::string_view text, const LineIndex& lines) {
  std::vector<PruneSmList> out;
  auto is_sm_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == ',' || c == '_';
  };
  for (size_t at = text.find("--sm"); at != std::string_view::npos; at = text.find("--sm", at + 4)) {
    size_t line = text.rfind('\n', at);
    line = line == std::string_view::npos ? 0 : line + 1;
    std::string_view before = text.substr(line, at - line);
    size_t tailor = before.find("tailor");
    if (tailor == std::string_view::npos || before.find(" prune ", tailor) == std::string_view::npos) continue;
    size_t b = at + 4;
    while (b < text.size() && (text[b] == ' ' || text[b] == '=' || text[b] == '\'' || text[b] == '"')) ++b;
    size_t e = b;
    while (e < text.size() && is_sm_char(text[e])) ++e;
    if (e == b) continue;
    std::vector<std::string> sms;
    std::string_view list = text.substr(b, e - b);
    for (size_t p = 0; p <= list.size();) {
      size_t comma = std::min(list.find(',', p), list.size());
      if (comma > p) sms.emplace_back(list.substr(p, comma - p));
      p = comma + 1;
    }
    out.push_back({std::move(sms), lines.span(b, e)});
  }
  for (size_t at = text.find("pruneSms"); at != std::string_view::npos; at = text.find("pruneSms", at + 8)) {
    size_t open = text.find('[', at), close = text.find(']', at);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open ||
        text.substr(at + 8, open - at - 8).find_first_not_of(" \t=") != std::string_view::npos)
      continue;
    std::vector<std::string> sms;
    for (size_t q = text.find('"', open); q != std::string_view::npos && q < close; q = text.find('"', q + 1)) {
      size_t end = text.find('"', q + 1);
      if (end == std::string_view::npos || end > close) break;
      sms.emplace_back(text.substr(q + 1, end - q - 1));
      q = end;
    }
    out.push_back({std::move(sms), lines.span(open, close + 1)});
  }
  return out;
}

}  // namespace tailor::recipe
