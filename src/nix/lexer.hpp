#pragma once
/// A hand-written lexer that reproduces Nix 2.8's flex scanner (lexer.l):
/// the same longest-match rules, the same state stack for strings,
/// indented strings and interpolated paths. Tokens are produced on demand
/// and can be peeked ahead without consuming them.

#include <string_view>
#include <vector>

#include "nix/token.hpp"

namespace tailor::nix {

class Lexer {
 public:
  /// \a text must outlive the lexer.
  explicit Lexer(std::string_view text);

  /// Consumes and returns the next token.
  Token next();

  /// The token \a k places ahead (0: the next one, at most 3), without consuming it.
  const Token& peek(size_t k = 0);

  /// 1-based line and column of byte offset \a offset.
  Span span_at(uint32_t offset, uint32_t end) const;

  std::string_view text() const { return text_; }

 private:
  enum class State : uint8_t { initial, normal, string, ind_string, in_path, in_path_slash };

  Token lex();
  Token lex_normal();
  Token lex_string();
  Token lex_ind_string();
  Token lex_in_path(bool after_slash);
  Token make(Tok kind, size_t begin, size_t end, std::string value = {});
  void skip_blanks();
  void pop();

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<State> states_{State::initial};
  std::vector<uint32_t> line_starts_;
  mutable size_t last_line_ = 0;  ///< span_at's last answer (1-based), a hint for the next
  // Tokens peeked but not consumed: a ring, as the parser looks at most
  // three tokens ahead.
  static constexpr size_t kAhead = 4;
  Token ahead_[kAhead];
  size_t head_ = 0, count_ = 0;
};

}  // namespace tailor::nix
