#include "support/source_scan.hpp"

#include <cctype>

namespace tailor::test {

namespace {

// Where the quoted text that opens at \a i ('"' or '\'') ends, one past its closing quote.
size_t quoted_end(const std::string& t, size_t i) {
  char q = t[i];
  for (++i; i < t.size() && t[i] != q && t[i] != '\n'; ++i)
    if (t[i] == '\\') ++i;
  return i < t.size() ? i + 1 : i;
}

// R"delim( … )delim" opening at \a i (the 'R'): the body and one past the end.
size_t raw_end(const std::string& t, size_t i, std::string& body) {
  size_t open = t.find('(', i + 2);
  if (open == std::string::npos) return t.size();
  std::string close = ")" + t.substr(i + 2, open - i - 2) + "\"";
  size_t end = t.find(close, open + 1);
  if (end == std::string::npos) return t.size();
  body = t.substr(open + 1, end - open - 1);
  return end + close.size();
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::vector<StringLiteral> string_literals(const std::string& t) {
  std::vector<StringLiteral> out;
  int line = 1;
  auto advance = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < t.size(); ++k) line += t[k] == '\n';
  };
  for (size_t i = 0; i < t.size();) {
    size_t next = i + 1;
    if (t.compare(i, 2, "//") == 0) {
      next = t.find('\n', i);
      if (next == std::string::npos) next = t.size();
    } else if (t.compare(i, 2, "/*") == 0) {
      size_t end = t.find("*/", i + 2);
      next = end == std::string::npos ? t.size() : end + 2;
    } else if (t.compare(i, 2, "R\"") == 0 && (i == 0 || !identifier_char(t[i - 1]))) {
      std::string body;
      next = raw_end(t, i, body);
      out.push_back({line, body});
    } else if (t[i] == '"') {
      next = quoted_end(t, i);
      out.push_back({line, t.substr(i + 1, next - i - 2)});
    } else if (t[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(t[i - 1])))) {
      next = quoted_end(t, i);  // a character literal; 1'000 is a digit separator
    }
    advance(i, next);
    i = next;
  }
  return out;
}

}  // namespace tailor::test
