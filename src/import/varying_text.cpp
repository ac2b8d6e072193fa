#include "import/varying_text.hpp"

#include <algorithm>
#include <cctype>

namespace tailor {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::vector<std::string_view> lines_of(const std::string& text) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < text.size();) {
    size_t nl = text.find('\n', i);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out.push_back(std::string_view(text).substr(i, end - i));
    i = end;
  }
  return out;
}

Varying varying(const std::vector<std::string>& texts) {
  Varying v;
  std::string p = texts.front(), s = texts.front();
  for (const auto& t : texts) {
    size_t i = 0;
    while (i < p.size() && i < t.size() && p[i] == t[i]) ++i;
    p.resize(i);
    size_t j = 0;
    while (j < s.size() && j < t.size() && s[s.size() - 1 - j] == t[t.size() - 1 - j]) ++j;
    s = s.substr(s.size() - j);
  }
  while (!p.empty() && (alnum(p.back()) || p.back() == '.')) p.pop_back();
  while (!s.empty() && (alnum(s.front()) || s.front() == '.')) s.erase(0, 1);
  for (const auto& t : texts) {
    if (p.size() + s.size() > t.size()) return {};
    v.middles.push_back(t.substr(p.size(), t.size() - p.size() - s.size()));
  }
  v.prefix = p;
  v.suffix = s;
  return v;
}

Varying whole_strings(Varying v) {
  bool quotes = std::any_of(v.middles.begin(), v.middles.end(),
                            [](const std::string& m) { return m.find('"') != std::string::npos; });
  size_t open = v.prefix.rfind('"'), close = v.suffix.find('"');
  if (!quotes || open == std::string::npos || close == std::string::npos) return v;
  const std::string head = v.prefix.substr(open), tail = v.suffix.substr(0, close + 1);
  v.prefix.resize(open);
  v.suffix.erase(0, close + 1);
  for (auto& m : v.middles) m = head + m + tail;
  return v;
}

bool string_lines(const std::string& text) {
  for (std::string_view l : lines_of(text)) {
    size_t i = l.find_first_not_of(" \t");
    bool any = false;
    while (i != std::string_view::npos && i < l.size() && l[i] == '"') {
      size_t close = l.find('"', i + 1);
      if (close == std::string_view::npos || l.substr(i, close - i).find_first_of("\\$") != std::string_view::npos)
        return false;
      any = true;
      i = l.find_first_not_of(" \t", close + 1);
    }
    if (!any || (i != std::string_view::npos && l[i] != '#' && l[i] != '\n')) return false;
  }
  return true;
}

Varying whole_lines(Varying v) {
  size_t nl = v.prefix.rfind('\n'), end = v.suffix.find('\n');
  if (nl == std::string::npos || end == std::string::npos) return v;
  const std::string head = v.prefix.substr(nl + 1), tail = v.suffix.substr(0, end);
  v.prefix.resize(nl + 1);
  v.suffix.erase(0, end);
  size_t indent = std::string::npos;
  for (auto& m : v.middles) {
    m = head + m + tail;
    size_t i = m.find_first_not_of(" \t");
    indent = std::min(indent, i == std::string::npos ? m.size() : i);
  }
  v.prefix += v.middles.front().substr(0, indent);
  for (auto& m : v.middles) m.erase(0, indent);
  return v;
}

}  // namespace tailor
