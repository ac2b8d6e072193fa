#include "nix/token.hpp"

#include <charconv>

namespace tailor::nix {

std::string_view kind_name(Tok kind) {
  // One table, so "expected X, got Y" reads the same everywhere (ninja's habit).
  switch (kind) {
    case Tok::end: return "end of file";
    case Tok::error: return "invalid token";
    case Tok::id: return "identifier";
    case Tok::int_lit: return "integer";
    case Tok::float_lit: return "float";
    case Tok::path: return "path";
    case Tok::hpath: return "home path";
    case Tok::spath: return "search path";
    case Tok::uri: return "URI";
    case Tok::str: return "string text";
    case Tok::ind_str: return "indented string text";
    case Tok::path_end: return "end of path";
    case Tok::dquote: return "'\"'";
    case Tok::ind_open: return "''''' (indented string)";
    case Tok::ind_close: return "'''' (end of indented string)";
    case Tok::dollar_curly: return "'${'";
    case Tok::kw_if: return "'if'";
    case Tok::kw_then: return "'then'";
    case Tok::kw_else: return "'else'";
    case Tok::kw_assert: return "'assert'";
    case Tok::kw_with: return "'with'";
    case Tok::kw_let: return "'let'";
    case Tok::kw_in: return "'in'";
    case Tok::kw_rec: return "'rec'";
    case Tok::kw_inherit: return "'inherit'";
    case Tok::kw_or: return "'or'";
    case Tok::ellipsis: return "'...'";
    case Tok::eq: return "'=='";
    case Tok::neq: return "'!='";
    case Tok::leq: return "'<='";
    case Tok::geq: return "'>='";
    case Tok::and_: return "'&&'";
    case Tok::or_: return "'||'";
    case Tok::impl: return "'->'";
    case Tok::update: return "'//'";
    case Tok::concat: return "'++'";
    case Tok::lbrace: return "'{'";
    case Tok::rbrace: return "'}'";
    case Tok::lbracket: return "'['";
    case Tok::rbracket: return "']'";
    case Tok::lparen: return "'('";
    case Tok::rparen: return "')'";
    case Tok::semicolon: return "';'";
    case Tok::colon: return "':'";
    case Tok::comma: return "','";
    case Tok::at: return "'@'";
    case Tok::dot: return "'.'";
    case Tok::question: return "'?'";
    case Tok::assign: return "'='";
    case Tok::lt: return "'<'";
    case Tok::gt: return "'>'";
    case Tok::plus: return "'+'";
    case Tok::minus: return "'-'";
    case Tok::star: return "'*'";
    case Tok::slash: return "'/'";
    case Tok::bang: return "'!'";
    case Tok::other: return "character";
  }
  return "token";
}

std::string token_name(const Token& t) {
  switch (t.kind) {
    case Tok::id: return "identifier '" + std::string(t.value) + "'";
    case Tok::int_lit: {
      int64_t v = 0;  // printed as a number: 007 is "integer 7"
      std::from_chars(t.value.data(), t.value.data() + t.value.size(), v);
      return "integer " + std::to_string(v);
    }
    case Tok::float_lit: return "float " + std::string(t.value);
    case Tok::other: {
      unsigned char c = t.value.empty() ? 0 : static_cast<unsigned char>(t.value[0]);
      if (c >= 0x20 && c < 0x7f) return "'" + std::string(t.value) + "'";
      static const char* hex = "0123456789abcdef";
      return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
    }
    default: return std::string(kind_name(t.kind));
  }
}

}  // namespace tailor::nix
