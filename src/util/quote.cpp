#include "util/quote.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "util/shell_command.hpp"

namespace tailor {

namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }

bool all_of(std::string_view s, bool (*ok)(char)) { return std::all_of(s.begin(), s.end(), ok); }

}  // namespace

std::string nix_string(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '$':
        // "${" starts an interpolation; "$" alone is literal.
        out += (i + 1 < s.size() && s[i + 1] == '{') ? "\\$" : "$";
        break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string nix_attr_name(std::string_view s) {
  static constexpr std::array<std::string_view, 10> kKeywords = {"if",  "then", "else", "assert",  "with",
                                                                 "let", "in",   "rec",  "inherit", "or"};
  bool identifier = !s.empty() && (is_alpha(s[0]) || s[0] == '_') &&
                    all_of(s, [](char c) { return is_alnum(c) || c == '_' || c == '-' || c == '\''; }) &&
                    std::find(kKeywords.begin(), kKeywords.end(), s) == kKeywords.end();
  return identifier ? std::string(s) : nix_string(s);
}

std::string toml_text(std::string_view s) {
  // A literal cannot hold three quotes or control characters besides tab and newline; one
  // ending in a quote would run into its closing delimiter.
  bool literal = s.find("'''") == std::string_view::npos && (s.empty() || s.back() != '\'') &&
                 std::none_of(s.begin(), s.end(), [](char c) {
                   auto u = static_cast<unsigned char>(c);
                   return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
                 });
  if (!literal) return toml_string(s);
  return "'''\n" + std::string(s) + "'''";
}

std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (is_control(static_cast<unsigned char>(c)))
          out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

bool is_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 9;
    if (n == 9 || i + n >= s.size()) return false;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    auto second = n ? static_cast<unsigned char>(s[i + 1]) : 0x80;
    unsigned char lo = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80, hi = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
    if (n && (second < lo || second > hi)) return false;
    for (size_t k = 2; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

std::string toml_key(std::string_view s) {
  bool bare = !s.empty() && all_of(s, [](char c) { return is_alnum(c) || c == '_' || c == '-'; });
  return bare ? std::string(s) : toml_string(s);
}

namespace {

// Plain YAML scalars that would read back as something other than a string.
bool yaml_plain_is_string(std::string_view s) {
  if (s.empty() || !is_alpha(s[0]) || s.back() == ' ') return false;
  if (!all_of(s, [](char c) {
        return is_alnum(c) || c == ' ' || c == '.' || c == '_' || c == '-' || c == '/' || c == '+';
      }))
    return false;
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  for (std::string_view word : {"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
    if (lower == word) return false;
  return true;
}

}  // namespace

std::string yaml_scalar(std::string_view s) {
  if (yaml_plain_is_string(s)) return std::string(s);
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '"')
      out += "\\\"";
    else if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (is_control(c))
      out += fmt::format("\\x{:02X}", c);
    else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(s[++i]));  // U+0080..U+009F: not printable in YAML
    } else if (c == 0xEF && s.substr(i, 3) == "\xEF\xBF\xBE") {
      out += "\\uFFFE", i += 2;
    } else if (c == 0xEF && s.substr(i, 3) == "\xEF\xBF\xBF") {
      out += "\\uFFFF", i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string shell_word(std::string_view s) {
  auto safe = [](char c) {
    return is_alnum(c) || c == '_' || c == '.' || c == '/' || c == ':' || c == '=' || c == '+' || c == '@' ||
           c == '%' || c == ',' || c == '-';
  };
  if (!s.empty() && all_of(s, safe)) return std::string(s);
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_command(const std::vector<std::vector<std::string>>& pipeline) {
  std::string out;
  for (const auto& words : pipeline) {
    if (!out.empty()) out += " | ";
    bool first = true;
    for (const std::string& w : words) {
      if (!first) out += ' ';
      out += shell_word(w);
      first = false;
    }
  }
  return out;
}

std::string markdown_code(std::string_view s) {
  size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  std::string body = comment_text(s);
  return pad ? fence + " " + body + " " + fence : fence + body + fence;
}

std::string markdown_cell(std::string_view s) {
  std::string out;
  for (char c : comment_text(s)) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string comment_text(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (is_control(static_cast<unsigned char>(c))) c = ' ';
  return out;
}

}  // namespace tailor
