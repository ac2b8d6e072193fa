#include "nix/lexer.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tailor::nix {

namespace {

// Character classes of lexer.l, one table lookup each.
enum : uint8_t { kAlpha = 1, kDigit = 2, kPathChar = 4, kIdChar = 8, kUriChar = 16, kSchemeChar = 32 };

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    uint8_t k = 0;
    if (alpha) k |= kAlpha;
    if (digit) k |= kDigit;
    if (alpha || digit || c == '.' || c == '_' || c == '-' || c == '+') k |= kPathChar;
    if (alpha || digit || c == '_' || c == '\'' || c == '-') k |= kIdChar;
    if (alpha || digit || std::string_view("%/?:@&=+$,-_.!~*'").find(static_cast<char>(c)) != std::string_view::npos)
      k |= kUriChar;
    if (alpha || digit || c == '+' || c == '-' || c == '.') k |= kSchemeChar;
    t[static_cast<size_t>(c)] = k;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

inline bool has(char c, uint8_t k) { return (kClasses[static_cast<unsigned char>(c)] & k) != 0; }
inline bool is_alpha(char c) { return has(c, kAlpha); }
inline bool is_digit(char c) { return has(c, kDigit); }
inline bool is_path_char(char c) { return has(c, kPathChar); }
inline bool is_id_char(char c) { return has(c, kIdChar); }
inline bool is_uri_char(char c) { return has(c, kUriChar); }

// Each matcher returns the length of the longest match at s[p...], 0 if none.
inline size_t match_id(std::string_view s, size_t p) {
  if (p >= s.size() || !(is_alpha(s[p]) || s[p] == '_')) return 0;
  size_t i = p + 1;
  while (i < s.size() && is_id_char(s[i])) ++i;
  return i - p;
}

size_t match_digits(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && is_digit(s[j])) ++j;
  return j - i;
}

size_t match_float(std::string_view s, size_t p) {
  size_t best = 0;
  // [1-9][0-9]*\.[0-9]*
  if (p < s.size() && s[p] >= '1' && s[p] <= '9') {
    size_t i = p + 1 + match_digits(s, p + 1);
    if (i < s.size() && s[i] == '.') best = i + 1 + match_digits(s, i + 1) - p;
  }
  // 0?\.[0-9]+
  for (size_t i : {p, p + 1}) {
    if (i == p + 1 && !(p < s.size() && s[p] == '0')) continue;
    if (i < s.size() && s[i] == '.') {
      size_t d = match_digits(s, i + 1);
      if (d > 0) best = std::max(best, i + 1 + d - p);
    }
  }
  if (best == 0) return 0;
  size_t i = p + best;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    size_t d = match_digits(s, j);
    if (d > 0) best = j + d - p;
  }
  return best;
}

// (\/{PATH_CHAR}+)+\/?  starting at i; returns the end, or npos without a segment.
size_t match_segments(std::string_view s, size_t i) {
  int segments = 0;
  while (i + 1 < s.size() && s[i] == '/' && is_path_char(s[i + 1])) {
    i += 2;
    while (i < s.size() && is_path_char(s[i])) ++i;
    ++segments;
  }
  if (segments == 0) return std::string_view::npos;
  if (i < s.size() && s[i] == '/') ++i;
  return i;
}

size_t match_path(std::string_view s, size_t p) {
  size_t i = p;
  while (i < s.size() && is_path_char(s[i])) ++i;
  size_t e = match_segments(s, i);
  return e == std::string_view::npos ? 0 : e - p;
}

size_t match_hpath(std::string_view s, size_t p) {
  if (p >= s.size() || s[p] != '~') return 0;
  size_t e = match_segments(s, p + 1);
  return e == std::string_view::npos ? 0 : e - p;
}

// {PATH_CHAR}*\/ ; returns the length including the slash.
size_t match_path_seg(std::string_view s, size_t p) {
  size_t i = p;
  while (i < s.size() && is_path_char(s[i])) ++i;
  return i < s.size() && s[i] == '/' ? i + 1 - p : 0;
}

size_t match_spath(std::string_view s, size_t p) {
  if (p >= s.size() || s[p] != '<') return 0;
  size_t i = p + 1;
  size_t start = i;
  while (i < s.size() && is_path_char(s[i])) ++i;
  if (i == start) return 0;
  while (i + 1 < s.size() && s[i] == '/' && is_path_char(s[i + 1])) {
    i += 2;
    while (i < s.size() && is_path_char(s[i])) ++i;
  }
  return i < s.size() && s[i] == '>' ? i + 1 - p : 0;
}

size_t match_uri(std::string_view s, size_t p) {
  if (p >= s.size() || !is_alpha(s[p])) return 0;
  size_t i = p + 1;
  while (i < s.size() && (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')) ++i;
  if (i >= s.size() || s[i] != ':') return 0;
  size_t j = i + 1;
  while (j < s.size() && is_uri_char(s[j])) ++j;
  return j > i + 1 ? j - p : 0;
}

// Nix's unescapeStr: \n \r \t, any other escaped byte stands for itself,
// CR and CR LF become LF, and (as in C) a NUL byte ends the string.
std::string unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    // Copy the run of ordinary bytes in one go.
    size_t run = i;
    while (run < s.size() && s[run] != '\\' && s[run] != '\r' && s[run] != '\0') ++run;
    out.append(s.data() + i, run - i);
    i = run;
    if (i >= s.size()) break;
    char c = s[i];
    if (c == '\0') break;
    if (c == '\\') {
      if (++i >= s.size()) break;
      c = s[i];
      out += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
    } else if (c == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      out += c;
    }
  }
  return out;
}

struct Operator {
  std::string_view text;
  Tok kind;
};
constexpr Operator kOperators[] = {
    {"...", Tok::ellipsis}, {"==", Tok::eq},     {"!=", Tok::neq},          {"<=", Tok::leq},
    {">=", Tok::geq},       {"&&", Tok::and_},   {"||", Tok::or_},          {"->", Tok::impl},
    {"//", Tok::update},    {"++", Tok::concat}, {"${", Tok::dollar_curly},
};

// The keyword spelt \a s, or Tok::id.
Tok keyword(std::string_view s) {
  switch (s.size()) {
    case 2: return s == "if" ? Tok::kw_if : s == "in" ? Tok::kw_in : s == "or" ? Tok::kw_or : Tok::id;
    case 3: return s == "let" ? Tok::kw_let : s == "rec" ? Tok::kw_rec : Tok::id;
    case 4: return s == "then" ? Tok::kw_then : s == "else" ? Tok::kw_else : s == "with" ? Tok::kw_with : Tok::id;
    case 6: return s == "assert" ? Tok::kw_assert : Tok::id;
    case 7: return s == "inherit" ? Tok::kw_inherit : Tok::id;
    default: return Tok::id;
  }
}

Tok single_char(char c) {
  switch (c) {
    case '[': return Tok::lbracket;
    case ']': return Tok::rbracket;
    case '(': return Tok::lparen;
    case ')': return Tok::rparen;
    case ';': return Tok::semicolon;
    case ':': return Tok::colon;
    case ',': return Tok::comma;
    case '@': return Tok::at;
    case '.': return Tok::dot;
    case '?': return Tok::question;
    case '=': return Tok::assign;
    case '<': return Tok::lt;
    case '>': return Tok::gt;
    case '+': return Tok::plus;
    case '-': return Tok::minus;
    case '*': return Tok::star;
    case '/': return Tok::slash;
    case '!': return Tok::bang;
    default: return Tok::other;
  }
}

}  // namespace

Lexer::Lexer(std::string_view text) : text_(text) {
  line_starts_.reserve(text.size() / 16 + 8);  // a guess that saves most regrowths
  line_starts_.push_back(0);
  for (const char *p = text.data(), *end = p + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))) != nullptr;)
    line_starts_.push_back(static_cast<uint32_t>(++p - text.data()));
}

Span Lexer::span_at(uint32_t offset, uint32_t end) const {
  // Tokens come in order: step forward from the last line found before
  // falling back to a binary search.
  size_t line = last_line_;
  if (line == 0 || offset < line_starts_[line - 1]) {
    line =
        static_cast<size_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - line_starts_.begin());
  } else {
    while (line < line_starts_.size() && line_starts_[line] <= offset) ++line;
  }
  last_line_ = line;
  return Span{offset, end, static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1] + 1)};
}

Token Lexer::make(Tok kind, size_t begin, size_t end, std::string_view value) {
  seen_token_ = true;
  Token t;
  t.kind = kind;
  t.span = span_at(static_cast<uint32_t>(begin), static_cast<uint32_t>(end));
  t.value = value;
  return t;
}

void Lexer::lex_to_end() {
  // Every token but the end and an error consumes input or leaves a path state;
  // the bound is a guard, not a limit any file reaches.
  for (size_t n = 0; n <= 2 * text_.size() + 8; ++n) {
    Tok k = next().kind;
    if (k == Tok::end || k == Tok::error) return;
  }
}

std::vector<Region> Lexer::regions() {
  assert(count_ == 0);  // each token's state is the one it is read in: none peeked before
  std::vector<Region> out;
  for (size_t n = 0; n <= 2 * text_.size() + 8; ++n) {  // as lex_to_end: a guard, not a limit
    const State state = states_.back();
    const auto depth = static_cast<uint32_t>(states_.size());
    const size_t comments = comments_.size();
    const Token t = lex();
    for (size_t c = comments; c < comments_.size(); ++c)
      out.push_back({comments_[c].begin, comments_[c].end,
                     comments_[c].block ? Region::In::block_comment : Region::In::line_comment, Tok::end, depth});
    Region::In in = Region::In::code;
    if (state == State::string) in = Region::In::string;
    if (state == State::ind_string) in = Region::In::ind_string;
    if (state == State::in_path || state == State::in_path_slash) in = Region::In::path;
    out.push_back({t.span.begin, t.span.end, in, t.kind, depth});
    if (t.kind == Tok::end || t.kind == Tok::error) break;
  }
  return out;
}

void Lexer::pop() {
  // `}` at the bottom of the stack must not pop the marker state (lexer.l).
  if (states_.size() > 1) states_.pop_back();
}

const Token& Lexer::peek_slow(size_t k) {
  assert(k < kAhead);
  while (count_ <= k) {
    ahead_[(head_ + count_) % kAhead] = lex();
    ++count_;
  }
  return ahead_[(head_ + k) % kAhead];
}

Token Lexer::lex() {
  switch (states_.back()) {
    case State::initial:
    case State::normal: return lex_normal();
    case State::string: return lex_string();
    case State::ind_string: return lex_ind_string();
    case State::in_path: return lex_in_path(false);
    case State::in_path_slash: return lex_in_path(true);
  }
  return make(Tok::end, pos_, pos_);
}

void Lexer::skip_blanks() {
  const std::string_view s = text_;
  while (pos_ < s.size()) {
    char c = s[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++pos_;
    } else if (c == '#') {
      size_t begin = ++pos_;
      while (pos_ < s.size() && s[pos_] != '\n' && s[pos_] != '\r') ++pos_;
      comments_.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_), false, !seen_token_});
    } else if (c == '/' && pos_ + 1 < s.size() && s[pos_ + 1] == '*') {
      size_t close = s.find("*/", pos_ + 2);
      if (close == std::string_view::npos) return;  // not a comment: '/' then '*'
      comments_.push_back({static_cast<uint32_t>(pos_ + 2), static_cast<uint32_t>(close), true, !seen_token_});
      pos_ = close + 2;
    } else {
      return;
    }
  }
}

size_t Lexer::run_end(size_t p, uint8_t cls) {
  Run& run = cls == kPathChar ? path_run_ : scheme_run_;
  if (p >= run.begin && p < run.end) return run.end;
  size_t e = p;
  while (e < text_.size() && has(text_[e], cls)) ++e;
  run = {p, e};
  return e;
}

Token Lexer::lex_normal() {
  skip_blanks();
  const std::string_view s = text_;
  const size_t p = pos_;
  if (p >= s.size()) return make(Tok::end, p, p);
  // flex semantics: the longest match wins, ties go to the earlier rule.
  enum Rule { none, keyword_or_id, op, number_int, number_float, path_seg, path, hpath_seg, hpath, spath, uri };
  Rule rule = none;
  size_t len = 0;
  auto consider = [&](Rule r, size_t l) {
    if (l > len) rule = r, len = l;
  };
  // Fast path for punctuation that starts no longer rule.
  switch (s[p]) {
    case '=':
      if (p + 1 < s.size() && s[p + 1] == '=') break;
      [[fallthrough]];
    case ';':
    case '(':
    case ')':
    case '[':
    case ']':
    case ',':
    case '@':
    case '?':
    case ':': pos_ = p + 1; return make(single_char(s[p]), p, p + 1, s.substr(p, 1));
    case '{':
      pos_ = p + 1;
      states_.push_back(State::normal);
      return make(Tok::lbrace, p, p + 1);
    case '}':
      pos_ = p + 1;
      pop();
      return make(Tok::rbrace, p, p + 1);
    case '"':
      pos_ = p + 1;
      states_.push_back(State::string);
      return make(Tok::dquote, p, p + 1);
    case '.': {
      // A select's dot, unless "...", a float (.5) or a path (./a, .a/b).
      if (p + 1 < s.size() && (s[p + 1] == '.' || is_digit(s[p + 1]))) break;
      size_t e = run_end(p, kPathChar);
      if (e < s.size() && s[e] == '/') break;
      pos_ = p + 1;
      return make(Tok::dot, p, p + 1, ".");
    }
    default: break;
  }
  // Fast path for the commonest token: an identifier or keyword that no
  // path (needs a '/' after path characters) or URI (needs a ':' after the
  // scheme) could outmatch. Scheme characters are path characters.
  if (is_alpha(s[p]) || s[p] == '_') {
    size_t id = match_id(s, p);
    // Only '.', '+' (path characters that are no identifier characters),
    // '/' or ':' right after the identifier can start a longer match.
    const char after = p + id < s.size() ? s[p + id] : '\0';
    bool plain = after != '.' && after != '+' && after != '/' && after != ':';
    if (!plain) {
      size_t e = run_end(p, kPathChar);
      size_t scheme = run_end(p, kSchemeChar);
      plain = (e >= s.size() || s[e] != '/') && (scheme >= s.size() || s[scheme] != ':');
    }
    if (plain) {
      std::string_view text = s.substr(p, id);
      pos_ += id;
      if (Tok k = keyword(text); k != Tok::id) return make(k, p, p + id);
      return make(Tok::id, p, p + id, text);
    }
  }
  size_t op_len = 0;
  Tok op_kind = Tok::other;
  for (const auto& o : kOperators)
    if (o.text[0] == s[p] && s.substr(p, o.text.size()) == o.text) {
      op_len = o.text.size(), op_kind = o.kind;
      break;
    }
  consider(op, op_len);
  consider(keyword_or_id, match_id(s, p));
  consider(number_int, match_digits(s, p));
  consider(number_float, match_float(s, p));
  if (size_t seg = match_path_seg(s, p); seg && s.substr(p + seg, 2) == "${") consider(path_seg, seg + 2);
  consider(path, match_path(s, p));
  if (s.substr(p, 4) == "~/${") consider(hpath_seg, 4);
  consider(hpath, match_hpath(s, p));
  consider(spath, match_spath(s, p));
  consider(uri, match_uri(s, p));

  std::string_view text = s.substr(p, len);
  switch (rule) {
    case keyword_or_id: {
      pos_ += len;
      if (Tok k = keyword(text); k != Tok::id) return make(k, p, p + len);
      return make(Tok::id, p, p + len, text);
    }
    case op:
      pos_ += len;
      if (op_kind == Tok::dollar_curly) states_.push_back(State::normal);
      return make(op_kind, p, p + len);
    case number_int: {
      pos_ += len;
      int64_t v = 0;
      auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (r.ec != std::errc()) return make(Tok::error, p, p + len, own("invalid integer '" + std::string(text) + "'"));
      return make(Tok::int_lit, p, p + len, text);
    }
    case number_float: {
      pos_ += len;
      std::string copy(text);
      errno = 0;
      double v = std::strtod(copy.c_str(), nullptr);
      if (errno != 0) return make(Tok::error, p, p + len, own("invalid float '" + copy + "'"));
      (void)v;
      return make(Tok::float_lit, p, p + len, text);
    }
    case path_seg:
    case hpath_seg: {
      size_t seg = len - 2;
      pos_ += seg;
      states_.push_back(State::in_path_slash);
      return make(rule == path_seg ? Tok::path : Tok::hpath, p, p + seg, s.substr(p, seg));
    }
    case path:
    case hpath:
      pos_ += len;
      states_.push_back(text.back() == '/' ? State::in_path_slash : State::in_path);
      return make(rule == path ? Tok::path : Tok::hpath, p, p + len, text);
    case spath: pos_ += len; return make(Tok::spath, p, p + len, text);
    case uri: pos_ += len; return make(Tok::uri, p, p + len, text);
    case none: break;
  }
  char c = s[p];
  if (s.substr(p, 2) == "''") {
    size_t i = p + 2;
    while (i < s.size() && s[i] == ' ') ++i;
    pos_ = (i < s.size() && s[i] == '\n') ? i + 1 : p + 2;
    states_.push_back(State::ind_string);
    return make(Tok::ind_open, p, pos_);
  }
  pos_ = p + 1;
  switch (c) {
    case '{': states_.push_back(State::normal); return make(Tok::lbrace, p, p + 1);
    case '}': pop(); return make(Tok::rbrace, p, p + 1);
    case '"': states_.push_back(State::string); return make(Tok::dquote, p, p + 1);
    case '\0': pos_ = p; return make(Tok::end, p, p);  // flex returns 0 for NUL: bison's end of input
    default: return make(single_char(c), p, p + 1, s.substr(p, 1));
  }
}

Token Lexer::lex_string() {
  const std::string_view s = text_;
  const size_t p = pos_;
  if (p >= s.size()) return make(Tok::end, p, p);
  if (s.substr(p, 2) == "${") {
    pos_ += 2;
    states_.push_back(State::normal);
    return make(Tok::dollar_curly, p, p + 2);
  }
  if (s[p] == '"') {
    pos_ += 1;
    pop();
    return make(Tok::dquote, p, p + 1);
  }
  size_t i = p;
  while (i < s.size()) {
    char c = s[i];
    if (c == '"') break;
    if (c == '\\') {
      if (i + 1 >= s.size()) break;
      i += 2;
    } else if (c == '$') {
      if (i + 1 >= s.size()) break;
      char d = s[i + 1];
      if (d != '{' && d != '"' && d != '\\')
        i += 2;
      else if (d == '\\' && i + 2 < s.size())
        i += 3;
      else
        break;
    } else {
      ++i;
    }
  }
  // A '$' right before the closing quote belongs to the text; at the end of
  // input a lone '$', '\' or '$\' is text too (the parser then reports EOF).
  if (i < s.size() && s[i] == '$' && i + 1 < s.size() && s[i + 1] == '"') ++i;
  if (i == p) i = std::min(s.size(), p + (s.substr(p, 2) == "$\\" ? 2 : 1));
  pos_ = i;
  // Most pieces have nothing to unescape: their value is their text.
  const std::string_view raw = s.substr(p, i - p);
  for (char c : raw)
    if (c == '\\' || c == '\r' || c == '\0') return make(Tok::str, p, i, own(unescape(raw)));
  return make(Tok::str, p, i, raw);
}

Token Lexer::lex_ind_string() {
  const std::string_view s = text_;
  const size_t p = pos_;
  if (p >= s.size()) return make(Tok::end, p, p);
  if (s.substr(p, 2) == "''") {
    if (p + 3 < s.size() + 0 && s[p + 2] == '\\') {
      pos_ = p + 4;
      return make(Tok::ind_str, p, p + 4, own(unescape(s.substr(p + 2, 2))));
    }
    if (p + 2 < s.size() && s[p + 2] == '\'') {
      pos_ = p + 3;
      return make(Tok::ind_str, p, p + 3, "''");
    }
    if (p + 2 < s.size() && s[p + 2] == '$') {
      pos_ = p + 3;
      return make(Tok::ind_str, p, p + 3, "$");
    }
    pos_ = p + 2;
    pop();
    return make(Tok::ind_close, p, p + 2);
  }
  if (s.substr(p, 2) == "${") {
    pos_ += 2;
    states_.push_back(State::normal);
    return make(Tok::dollar_curly, p, p + 2);
  }
  size_t i = p;
  while (i < s.size()) {
    char c = s[i];
    if (c == '$' || c == '\'') {
      if (i + 1 >= s.size()) break;
      char d = s[i + 1];
      if (c == '$' && d != '{' && d != '\'')
        i += 2;
      else if (c == '\'' && d != '\'' && d != '$')
        i += 2;
      else
        break;
    } else {
      ++i;
    }
  }
  if (i == p) {  // a lone '$' or '\'' that the run rule cannot take
    pos_ = p + 1;
    return make(Tok::ind_str, p, p + 1, s.substr(p, 1));
  }
  pos_ = i;
  Token t = make(Tok::ind_str, p, i, s.substr(p, i - p));
  t.has_indentation = true;
  return t;
}

Token Lexer::lex_in_path(bool after_slash) {
  const std::string_view s = text_;
  const size_t p = pos_;
  if (s.substr(p, 2) == "${") {
    pos_ += 2;
    states_.back() = State::in_path;
    states_.push_back(State::normal);
    return make(Tok::dollar_curly, p, p + 2);
  }
  size_t chars = 0;
  while (p + chars < s.size() && is_path_char(s[p + chars])) ++chars;
  size_t len = std::max({match_path(s, p), match_path_seg(s, p), chars});
  if (len > 0) {
    pos_ += len;
    states_.back() = s[p + len - 1] == '/' ? State::in_path_slash : State::in_path;
    return make(Tok::str, p, p + len, s.substr(p, len));
  }
  if (after_slash) {
    size_t e = std::min(s.size(), p + 1);
    pos_ = e;
    return make(Tok::error, p, e, "path has a trailing slash");
  }
  pop();
  return make(Tok::path_end, p, p);
}

}  // namespace tailor::nix
