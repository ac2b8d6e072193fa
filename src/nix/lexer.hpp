#pragma once
/// A hand-written lexer that reproduces Nix 2.8's flex scanner (lexer.l):
/// the same longest-match rules, the same state stack for strings,
/// indented strings and interpolated paths. Tokens are produced on demand
/// and can be peeked ahead without consuming them.

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nix/token.hpp"

namespace tailor::nix {

/// A comment the lexer skipped: the bytes after `#` up to the line's end, or
/// between `/*` and `*/`. Recorded so that nobody scans the text a second time.
struct Comment {
  uint32_t begin = 0, end = 0;
  bool block = false;   ///< `/* … */`
  bool header = false;  ///< before the file's first token
};

/// One token or comment of a text and the state the lexer read it in: how Nix
/// itself reads each byte. A template's words are placed by it
/// (matrix/word_quoting), so that no second reader of Nix strings exists.
struct Region {
  enum class In : uint8_t { code, string, ind_string, path, line_comment, block_comment };
  uint32_t begin = 0, end = 0;
  In in = In::code;     ///< the state it was read in; a comment's kind
  Tok kind = Tok::end;  ///< the token; Tok::end for a comment
  uint32_t depth = 0;   ///< the state stack's depth it was read at (1: the file's top level)
  bool operator==(const Region&) const = default;
};

class Lexer {
 public:
  /// \a text must outlive the lexer.
  explicit Lexer(std::string_view text);

  /// Consumes and returns the next token.
  Token next() {
    if (count_ == 0) return lex();
    const Token& t = ahead_[head_];
    head_ = (head_ + 1) % kAhead;
    --count_;
    return t;
  }

  /// The token \a k places ahead (0: the next one, at most 3), without consuming it.
  const Token& peek(size_t k = 0) {
    if (k < count_) return ahead_[(head_ + k) % kAhead];  // inline: the parser peeks at every step
    return peek_slow(k);
  }

  /// 1-based line and column of byte offset \a offset.
  Span span_at(uint32_t offset, uint32_t end) const;

  std::string_view text() const { return text_; }

  /// The comments lexed so far, in source order.
  const std::vector<Comment>& comments() const { return comments_; }
  std::vector<Comment> take_comments() { return std::move(comments_); }
  /// The offset of each line's first byte (line 1 at 0), found once for the token positions.
  std::vector<uint32_t> take_line_starts() { return std::move(line_starts_); }
  /// Lexes the rest of the text for its comments (after a parse error), up to
  /// the end or a lexical error.
  void lex_to_end();
  /// The tokens and comments of the text, in source order, up to its end (the
  /// end token included) or its first lexical error (included). Call it on a
  /// lexer that has read nothing yet.
  std::vector<Region> regions();

 private:
  enum class State : uint8_t { initial, normal, string, ind_string, in_path, in_path_slash };

  const Token& peek_slow(size_t k);
  Token lex();
  Token lex_normal();
  Token lex_string();
  Token lex_ind_string();
  Token lex_in_path(bool after_slash);
  Token make(Tok kind, size_t begin, size_t end, std::string_view value = {});
  /// Keeps \a s for the lexer's lifetime (unescaped text, error messages).
  std::string_view own(std::string s) { return owned_.emplace_back(std::move(s)); }
  void skip_blanks();
  void pop();
  /// Where the run of characters of class \a cls that holds \a p ends. Every
  /// token of `a.a.a…` asks this of the same run: it is scanned once, so a
  /// chain lexes in linear time, not quadratic.
  size_t run_end(size_t p, uint8_t cls);

  struct Run {
    size_t begin = 0, end = 0;  ///< [begin, end): all of the class
  };

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<State> states_{State::initial};
  std::vector<uint32_t> line_starts_;
  Run path_run_, scheme_run_;
  std::vector<Comment> comments_;
  bool seen_token_ = false;        ///< a token was made: later comments are not the header
  std::deque<std::string> owned_;  ///< what tokens' values view besides the text
  mutable size_t last_line_ = 0;   ///< span_at's last answer (1-based), a hint for the next
  // Tokens peeked but not consumed: a ring, as the parser looks at most
  // three tokens ahead.
  static constexpr size_t kAhead = 4;
  Token ahead_[kAhead];
  size_t head_ = 0, count_ = 0;
};

}  // namespace tailor::nix
