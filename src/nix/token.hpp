#pragma once
/// Tokens of the Nix language, as Nix 2.8's flex lexer produces them.

#include <cstdint>
#include <string>
#include <string_view>

namespace tailor::nix {

/// A byte range of a source file with the line and column of its start.
struct Span {
  uint32_t begin = 0;  ///< byte offset of the first byte
  uint32_t end = 0;    ///< byte offset one past the last byte
  int line = 0;        ///< 1-based line of `begin`
  int column = 0;      ///< 1-based byte column of `begin`
};

/// The token kinds; names follow Nix's grammar (parser.y).
enum class Tok : uint8_t {
  end,           ///< end of input
  error,         ///< a lexical error; Token::value holds the message
  id,            ///< identifier
  int_lit,       ///< integer literal
  float_lit,     ///< floating-point literal
  path,          ///< ./a, /a, a/b (first segment of an interpolated path)
  hpath,         ///< ~/a
  spath,         ///< <nixpkgs>
  uri,           ///< http://example.org
  str,           ///< a piece of a "string" or of an interpolated path (unescaped)
  ind_str,       ///< a piece of an ''indented string''
  path_end,      ///< end of a path (emitted after path pieces)
  dquote,        ///< "
  ind_open,      ///< ''  (opening)
  ind_close,     ///< ''  (closing)
  dollar_curly,  ///< ${
  kw_if,
  kw_then,
  kw_else,
  kw_assert,
  kw_with,
  kw_let,
  kw_in,
  kw_rec,
  kw_inherit,
  kw_or,
  ellipsis,  ///< ...
  eq,
  neq,
  leq,
  geq,
  and_,
  or_,
  impl,
  update,
  concat,  ///< == != <= >= && || -> // ++
  lbrace,
  rbrace,
  lbracket,
  rbracket,
  lparen,
  rparen,
  semicolon,
  colon,
  comma,
  at,
  dot,
  question,
  assign,  ///< ; : , @ . ? =
  lt,
  gt,
  plus,
  minus,
  star,
  slash,
  bang,   ///< < > + - * / !
  other,  ///< any other single byte
};

/// One token. `value` holds the token's meaning: mostly a view of its
/// source text; unescaped string pieces and error messages live in the
/// lexer, so a token is valid as long as its Lexer (and the source text).
struct Token {
  Tok kind = Tok::end;
  Span span;
  std::string_view value;
  bool has_indentation = false;  ///< ind_str: a literal piece (not an escape)
};

/// The name used in diagnostics: "'}'", "identifier", "end of file".
std::string token_name(const Token& t);

/// The name of a token kind, for "expected X".
std::string_view kind_name(Tok kind);

}  // namespace tailor::nix
