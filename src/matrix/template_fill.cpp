#include "matrix/template_fill.hpp"

#include <cctype>

namespace tailor {

size_t marker_end(std::string_view t, size_t at, size_t end) {
  return (at == 0 || t[at - 1] == '\n') && end < t.size() && t[end] == '\n' ? end + 1 : end;
}

std::pair<size_t, size_t> find_marker(std::string_view t, std::string_view marker, size_t from) {
  size_t at = t.find(marker, from);
  if (at == std::string_view::npos) return {at, at};
  return {at, marker_end(t, at, at + marker.size())};
}

std::vector<TemplatePiece> split_template(std::string_view tmpl, WordEnd word_end) {
  std::vector<TemplatePiece> out;
  auto literal = [&](std::string_view s) {
    if (s.empty()) return;
    if (out.empty() || out.back().word) out.push_back({false, ""});
    out.back().text += s;
  };
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) break;
    size_t close = word_end(tmpl, open);
    if (close != std::string_view::npos) {
      literal(tmpl.substr(i, open - i));
      out.push_back({true, std::string(tmpl.substr(open + 1, close - open - 1))});
      i = close + 1;
    } else {
      literal(tmpl.substr(i, open + 1 - i));
      i = open + 1;
    }
  }
  literal(tmpl.substr(i));
  return out;
}

std::vector<TemplatePiece> template_pieces(std::string_view tmpl) {
  return split_template(tmpl, [](std::string_view t, size_t open) {
    // "${version}" is the file's own antiquotation (Nix, a shell), never a word.
    if (open > 0 && t[open - 1] == '$') return std::string_view::npos;
    size_t j = open + 1;
    auto word_char = [&](size_t k) {
      unsigned char c = static_cast<unsigned char>(t[k]);
      return std::islower(c) || c == '_' || (k > open + 1 && std::isdigit(c));  // "text_2"
    };
    while (j < t.size() && word_char(j)) ++j;
    return j > open + 1 && j < t.size() && t[j] == '}' ? j : std::string_view::npos;
  });
}

std::optional<std::string> fill(const std::vector<TemplatePiece>& pieces, const WordLookup& value,
                                std::string* missing) {
  std::string out;
  for (const auto& p : pieces) {
    if (!p.word) {
      out += p.text;
      continue;
    }
    auto v = value(p.text);
    if (!v) {
      if (missing) *missing = p.text;
      return std::nullopt;
    }
    out += *v;
  }
  return out;
}

std::string fill(const std::vector<TemplatePiece>& pieces, const WordLookup& value, const QuotedFill& how) {
  WordQuoter quoter(how.language);
  for (const auto& p : pieces) {
    if (!p.word) {
      quoter.text(p.text);
      continue;
    }
    auto v = value(p.text);
    if (!v) {
      how.missing(p.text);
      continue;  // a missing that does not throw leaves the word out
    }
    quoter.word(*v, how.what(p.text));
  }
  return quoter.finish();
}

}  // namespace tailor
