#include "matrix/word_quoting.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {

bool control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

bool bare_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' || c == '-';
}

// Bare Nix code takes words ("570", "cudaPackages_13_0") and lists of complete
// strings ("\"-mavx2\" \"-mfma\""), items one space apart: nothing that could be
// an operator, a binding or the end of an attribute set.
bool safe_code(std::string_view v) {
  size_t i = 0;
  while (i < v.size()) {
    if (i > 0) {
      if (v[i] != ' ') return false;
      ++i;
    }
    if (i < v.size() && v[i] == '"') {
      size_t j = i + 1;
      for (; j < v.size() && v[j] != '"'; ++j) {
        if (control(v[j])) return false;
        if (v[j] == '\\')
          ++j;  // an escape: the next character is text
        else if (v[j] == '$' && j + 1 < v.size() && v[j + 1] == '{')
          return false;
      }
      if (j >= v.size()) return false;
      i = j + 1;
    } else {
      size_t j = i;
      while (j < v.size() && bare_char(v[j])) ++j;
      if (j == i) return false;
      i = j;
    }
  }
  return true;
}

}  // namespace

TextLanguage language_of(std::string_view path) {
  if (path.ends_with(".nix")) return TextLanguage::nix;
  if (path.ends_with(".md")) return TextLanguage::markdown;
  return TextLanguage::other;
}

void WordQuoter::step(State& s, char c) {
  switch (s.mode) {
    case Mode::code:
      if (s.pending == 1 && c == '\'') {
        s.mode = Mode::istring, s.pending = 0;
        return;
      }
      if (s.pending == 2 && c == '*') {
        s.mode = Mode::block_comment, s.pending = 0;
        return;
      }
      s.pending = 0;
      if (c == '"')
        s.mode = Mode::dstring;
      else if (c == '\'')
        s.pending = 1;
      else if (c == '/')
        s.pending = 2;
      else if (c == '#')
        s.mode = Mode::line_comment;
      else if (c == '{' && !s.braces.empty())
        ++s.braces.back();
      else if (c == '}' && !s.braces.empty()) {
        if (s.braces.back() > 0) {
          --s.braces.back();
        } else {
          s.mode = s.returns.back();
          s.braces.pop_back(), s.returns.pop_back();
        }
      }
      return;
    case Mode::dstring:
      if (s.pending == 1) {
        s.pending = 0;
        return;
      }
      if (s.pending == 2 && c == '{') {
        s.pending = 0, s.returns.push_back(Mode::dstring), s.braces.push_back(0), s.mode = Mode::code;
        return;
      }
      if (s.pending == 2 && c == '$') {  // "$$" is text to Nix's lexer: "$${" opens nothing
        s.pending = 0;
        return;
      }
      s.pending = 0;
      if (c == '\\')
        s.pending = 1;
      else if (c == '"')
        s.mode = Mode::code;
      else if (c == '$')
        s.pending = 2;
      return;
    case Mode::istring:
      // pending: 1 one quote, 2 two quotes, 3 a dollar, 4 ''\ (the next character is text).
      if (s.pending == 4) {
        s.pending = 0;
        return;
      }
      if (s.pending == 2) {
        s.pending = 0;
        if (c == '\'' || c == '$') return;
        if (c == '\\') {
          s.pending = 4;
          return;
        }
        s.mode = Mode::code;
        step(s, c);
        return;
      }
      if (s.pending == 1 && c == '\'') {
        s.pending = 2;
        return;
      }
      if (s.pending == 3 && c == '{') {
        s.pending = 0, s.returns.push_back(Mode::istring), s.braces.push_back(0), s.mode = Mode::code;
        return;
      }
      if (s.pending == 3 && c == '$') {  // as in a "…" string, "$$" is text and "$${" opens nothing
        s.pending = 0;
        return;
      }
      s.pending = c == '\'' ? 1 : c == '$' ? 3 : 0;
      return;
    case Mode::line_comment:
      if (c == '\n') s.mode = Mode::code;
      return;
    case Mode::block_comment:
      if (s.pending == 1 && c == '/') {
        s.mode = Mode::code, s.pending = 0;
        return;
      }
      s.pending = c == '*' ? 1 : 0;
      return;
  }
}

void WordQuoter::feed(State& s, std::string_view text) {
  for (char c : text) step(s, c);
}

void WordQuoter::text(std::string_view s) {
  if (language_ == TextLanguage::nix) {
    feed(nix_, s);
    return;
  }
  size_t nl = s.rfind('\n');
  if (nl == std::string_view::npos)
    line_ += s;
  else
    line_ = std::string(s.substr(nl + 1));
}

std::optional<std::string> WordQuoter::word(std::string_view value) {
  std::string out;
  if (language_ == TextLanguage::nix) {
    switch (nix_.mode) {
      case Mode::code:
        if (!safe_code(value)) return std::nullopt;
        out = value;
        break;
      case Mode::dstring:
        // nix_string's escapes, and every $ escaped, so that no "{" after the word opens an interpolation.
        for (char c : value) {
          if (control(c) && c != '\n' && c != '\r' && c != '\t') return std::nullopt;
          std::string q = c == '$' ? std::string("\"\\$\"") : nix_string(std::string_view(&c, 1));
          out.append(q, 1, q.size() - 2);
        }
        break;
      case Mode::istring:
        for (char c : value) {
          if (control(c) && c != '\n' && c != '\t') return std::nullopt;
          if (c == '\'')
            out += "${\"'\"}";
          else if (c == '$')
            out += "''$";
          else
            out += c;
        }
        break;
      case Mode::line_comment: out = comment_text(value); break;
      case Mode::block_comment:
        for (char c : comment_text(value)) out += c == '*' ? std::string("* ") : std::string(1, c);
        break;
    }
    // The quoted text must leave the place as it found it.
    State after = nix_;
    feed(after, out);
    if (!(after == nix_)) return std::nullopt;
    return out;
  }
  if (language_ == TextLanguage::markdown) {
    bool row = line_.find_first_not_of(' ') != std::string::npos && line_[line_.find_first_not_of(' ')] == '|';
    bool code_span = std::count(line_.begin(), line_.end(), '`') % 2 == 1;
    if (code_span && value.find('`') != std::string_view::npos) return std::nullopt;
    out = row ? markdown_cell(value) : comment_text(value);
  } else {
    if (std::any_of(value.begin(), value.end(), [](char c) {
          return control(c) || std::string_view("\"'\\$`{}<>").find(c) != std::string_view::npos;
        }))
      return std::nullopt;
    out = value;
  }
  line_ += out;
  return out;
}

std::string WordQuoter::place() const {
  switch (language_) {
    case TextLanguage::markdown: return "Markdown";
    case TextLanguage::other: return "a file of no language tailor quotes for";
    case TextLanguage::nix: break;
  }
  switch (nix_.mode) {
    case Mode::code: return "Nix code";
    case Mode::dstring: return "a Nix string";
    case Mode::istring: return "a Nix indented string";
    case Mode::line_comment:
    case Mode::block_comment: return "a Nix comment";
  }
  return "Nix";
}

std::string quote_word(WordQuoter& q, std::string_view value, std::string_view what) {
  if (auto out = q.word(value)) return *out;
  Diagnostic d;
  d.message =
      fmt::format("{} lands in {}, where its value {} cannot be written safely", what, q.place(), toml_string(value));
  d.hint =
      "the value comes from the knowledge base or the spec's [layout]: correct it there, or put the word "
      "inside a string or a comment";
  throw DiagnosticError(d);
}

}  // namespace tailor
