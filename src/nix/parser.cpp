#include "nix/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>

#include "nix/lexer.hpp"

namespace tailor::nix {

namespace {

// Thrown inside this file only; parse() turns it into a Diagnostic.
struct Failure {
  Span where;
  std::string message;
};

struct OpInfo {
  int prec = -1;  // Nix's bison precedences, low to high; -1: not a binary operator
  enum Assoc { left, right, nonassoc } assoc = left;
  BinaryOp op = BinaryOp::add;
};

constexpr int kNotPrec = 7;
constexpr int kNegatePrec = 12;
constexpr int kHasAttrPrec = 11;

OpInfo op_info(Tok t) {
  switch (t) {
    case Tok::impl: return {1, OpInfo::right, BinaryOp::impl};
    case Tok::or_: return {2, OpInfo::left, BinaryOp::or_};
    case Tok::and_: return {3, OpInfo::left, BinaryOp::and_};
    case Tok::eq: return {4, OpInfo::nonassoc, BinaryOp::eq};
    case Tok::neq: return {4, OpInfo::nonassoc, BinaryOp::neq};
    case Tok::lt: return {5, OpInfo::nonassoc, BinaryOp::lt};
    case Tok::gt: return {5, OpInfo::nonassoc, BinaryOp::gt};
    case Tok::leq: return {5, OpInfo::nonassoc, BinaryOp::leq};
    case Tok::geq: return {5, OpInfo::nonassoc, BinaryOp::geq};
    case Tok::update: return {6, OpInfo::right, BinaryOp::update};
    case Tok::plus: return {8, OpInfo::left, BinaryOp::add};
    case Tok::minus: return {8, OpInfo::left, BinaryOp::sub};
    case Tok::star: return {9, OpInfo::left, BinaryOp::mul};
    case Tok::slash: return {9, OpInfo::left, BinaryOp::div};
    case Tok::concat: return {10, OpInfo::right, BinaryOp::concat};
    case Tok::question: return {kHasAttrPrec, OpInfo::nonassoc, BinaryOp::add};
    default: return {};
  }
}

class Parser {
 public:
  Parser(std::string_view text, SymbolTable& symbols) : lex_(text), symbols_(symbols) {}

  Lexer& lexer() { return lex_; }

  ExprPtr parse_file() {
    ExprPtr e = parse_expr();
    const Token& t = lex_.peek();
    if (t.kind != Tok::end) fail_at(t, "expected end of file");
    return e;
  }

 private:
  struct Nest {
    explicit Nest(Parser& p) : p(p) {
      if (++p.depth_ > kMaxNesting)
        throw Failure{p.lex_.peek().span,
                      "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)"};
    }
    ~Nest() { --p.depth_; }
    Parser& p;
  };

  [[noreturn]] void fail_at(const Token& t, std::string_view expected) {
    if (t.kind == Tok::error) throw Failure{t.span, std::string(t.value)};
    throw Failure{t.span, std::string(expected) + ", got " + token_name(t)};
  }

  Token expect(Tok kind) {
    if (lex_.peek().kind != kind) fail_at(lex_.peek(), "expected " + std::string(kind_name(kind)));
    return lex_.next();
  }

  bool at(Tok kind, size_t k = 0) { return lex_.peek(k).kind == kind; }

  Span join(const Span& a, const Span& b) { return Span{a.begin, std::max(a.end, b.end), a.line, a.column}; }
  Span join(const Span& a, const Expr& b) { return join(a, b.span); }

  template <class T>
  std::unique_ptr<T> finish(std::unique_ptr<T> e) {
    update_height(*e);
    if (e->height > 2 * kMaxNesting)
      throw Failure{e->span, "expression nested too deeply (more than " + std::to_string(2 * kMaxNesting) + " levels)"};
    return e;
  }

  ExprPtr parse_expr() {
    Nest guard(*this);
    const Token& t = lex_.peek();
    switch (t.kind) {
      case Tok::id:
        if (at(Tok::colon, 1) || at(Tok::at, 1)) return parse_lambda();
        break;
      case Tok::lbrace:
        if (formals_ahead()) return parse_lambda();
        break;
      case Tok::kw_assert:
      case Tok::kw_with: {
        Token kw = lex_.next();
        auto n = std::make_unique<Ternary>(kw.kind == Tok::kw_with ? ExprKind::with : ExprKind::assert_, kw.span);
        n->first = parse_expr();
        expect(Tok::semicolon);
        n->second = parse_expr();
        n->span = join(kw.span, *n->second);
        return finish(std::move(n));
      }
      case Tok::kw_let:
        if (!at(Tok::lbrace, 1)) return parse_let();
        break;
      case Tok::kw_if: {
        Token kw = lex_.next();
        auto n = std::make_unique<Ternary>(ExprKind::if_, kw.span);
        n->first = parse_expr();
        expect(Tok::kw_then);
        n->second = parse_expr();
        expect(Tok::kw_else);
        n->third = parse_expr();
        n->span = join(kw.span, *n->third);
        return finish(std::move(n));
      }
      default: break;
    }
    return parse_op(0);
  }

  // After '{': does a formal parameter set follow (rather than attributes)?
  bool formals_ahead() {
    const Token& t1 = lex_.peek(1);
    if (t1.kind == Tok::ellipsis) return true;
    if (t1.kind == Tok::rbrace) return at(Tok::colon, 2) || at(Tok::at, 2);
    if (t1.kind == Tok::id) return at(Tok::comma, 2) || at(Tok::question, 2) || at(Tok::rbrace, 2);
    return false;
  }

  ExprPtr parse_lambda() {
    Span start = lex_.peek().span;
    auto n = std::make_unique<Lambda>(ExprKind::lambda, start);
    if (at(Tok::id)) {
      Token arg = lex_.next();
      n->arg = arg.value;
      n->arg_span = arg.span;
      if (lex_.next().kind == Tok::at)
        parse_formals(*n);  // else it was ':'
      else
        return finish_lambda(std::move(n), start);
    } else {
      parse_formals(*n);
      if (at(Tok::at)) {
        lex_.next();
        Token arg = expect(Tok::id);
        n->arg = arg.value;
        n->arg_span = arg.span;
      }
    }
    expect(Tok::colon);
    return finish_lambda(std::move(n), start);
  }

  ExprPtr finish_lambda(std::unique_ptr<Lambda> n, Span start) {
    n->body = parse_expr();
    // Nix interns the argument name when it reduces the whole function.
    if (!n->arg.empty()) symbols_.intern(n->arg);
    if (n->has_formals) {
      for (const auto& f : n->formals)
        if (f.name == n->arg) throw Failure{n->arg_span, "duplicate formal function argument '" + f.name + "'"};
    }
    n->span = join(start, *n->body);
    return finish(std::move(n));
  }

  void parse_formals(Lambda& n) {
    expect(Tok::lbrace);
    n.has_formals = true;
    while (!at(Tok::rbrace)) {
      if (at(Tok::ellipsis)) {
        lex_.next();
        n.ellipsis = true;
        break;
      }
      Token name = expect(Tok::id);
      Formal f{name.span, std::string(name.value), nullptr};
      if (at(Tok::question)) {
        lex_.next();
        f.fallback = parse_expr();
        f.span = join(name.span, *f.fallback);
      }
      symbols_.intern(f.name);
      for (const auto& g : n.formals)
        if (g.name == f.name) throw Failure{f.span, "duplicate formal function argument '" + f.name + "'"};
      n.formals.push_back(std::move(f));
      if (!at(Tok::comma)) break;
      lex_.next();
    }
    expect(Tok::rbrace);
  }

  ExprPtr parse_let() {
    Token kw = lex_.next();
    auto n = std::make_unique<Attrs>(ExprKind::let, kw.span);
    parse_bindings(*n, Tok::kw_in);
    expect(Tok::kw_in);
    n->body = parse_expr();
    n->span = join(kw.span, *n->body);
    return finish(std::move(n));
  }

  ExprPtr parse_op(int min_prec) {
    Nest guard(*this);
    ExprPtr lhs;
    const Token& t = lex_.peek();
    if (t.kind == Tok::bang || t.kind == Tok::minus) {
      Token op = lex_.next();
      auto u = std::make_unique<Unary>(op.span, op.kind == Tok::bang ? UnaryOp::not_ : UnaryOp::negate);
      u->operand = parse_op(op.kind == Tok::bang ? kNotPrec + 1 : kNegatePrec + 1);
      u->span = join(op.span, *u->operand);
      lhs = finish(std::move(u));
    } else {
      lhs = parse_app();
    }
    int last_nonassoc = -1;
    for (;;) {
      OpInfo info = op_info(lex_.peek().kind);
      if (info.prec < min_prec || info.prec < 0) break;
      if (info.prec == last_nonassoc)
        throw Failure{lex_.peek().span,
                      token_name(lex_.peek()) + " cannot follow another comparison directly; add parentheses"};
      Token op = lex_.next();
      if (op.kind == Tok::question) {
        auto s = std::make_unique<Select>(ExprKind::has_attr, lhs->span);
        s->path = parse_attrpath();
        s->span = join(lhs->span, s->path.back().span);
        s->subject = std::move(lhs);
        lhs = finish(std::move(s));
      } else {
        auto b = std::make_unique<Binary>(lhs->span, info.op);
        b->op_span = op.span;
        b->rhs = parse_op(info.assoc == OpInfo::right ? info.prec : info.prec + 1);
        b->span = join(lhs->span, *b->rhs);
        b->lhs = std::move(lhs);
        lhs = finish(std::move(b));
      }
      last_nonassoc = info.assoc == OpInfo::nonassoc ? info.prec : -1;
    }
    return lhs;
  }

  bool starts_select() {
    switch (lex_.peek().kind) {
      case Tok::id:
      case Tok::int_lit:
      case Tok::float_lit:
      case Tok::dquote:
      case Tok::ind_open:
      case Tok::path:
      case Tok::hpath:
      case Tok::spath:
      case Tok::uri:
      case Tok::lparen:
      case Tok::lbrace:
      case Tok::lbracket:
      case Tok::kw_rec: return true;
      case Tok::kw_let: return at(Tok::lbrace, 1);
      default: return false;
    }
  }

  ExprPtr parse_app() {
    ExprPtr fn = parse_select();
    if (!starts_select()) return fn;
    auto c = std::make_unique<Call>(ExprKind::call, fn->span);
    c->fn = std::move(fn);
    while (starts_select()) {
      c->args.push_back(parse_select());
      c->span = join(c->span, *c->args.back());
      update_height(*c);
      if (c->height > 2 * kMaxNesting) c = finish(std::move(c));
    }
    return finish(std::move(c));
  }

  ExprPtr parse_select() {
    Nest guard(*this);
    ExprPtr subject = parse_simple();
    if (at(Tok::dot)) {
      lex_.next();
      auto s = std::make_unique<Select>(ExprKind::select, subject->span);
      s->path = parse_attrpath();
      s->span = join(subject->span, s->path.back().span);
      s->subject = std::move(subject);
      if (at(Tok::kw_or)) {
        lex_.next();
        s->fallback = parse_select();
        s->span = join(s->span, *s->fallback);
      }
      return finish(std::move(s));
    }
    if (at(Tok::kw_or)) {
      // Nixpkgs once had a function named `or`: `f or` applies f to it.
      Token kw = lex_.next();
      symbols_.intern("or");
      auto c = std::make_unique<Call>(ExprKind::call, join(subject->span, kw.span));
      c->fn = std::move(subject);
      c->or_keyword = true;
      c->args.push_back(std::make_unique<Name>(ExprKind::var, kw.span, "or"));
      return finish(std::move(c));
    }
    return subject;
  }

  // One element of an attribute path; static names are interned here.
  AttrName parse_attr(bool in_inherit) {
    const Token& t = lex_.peek();
    AttrName a;
    a.span = t.span;
    if (t.kind == Tok::id || t.kind == Tok::kw_or) {
      Token name = lex_.next();  // t refers to the look-ahead: taken from here on
      a.name = name.kind == Tok::id ? name.value : std::string_view("or");
    } else if (t.kind == Tok::dquote) {
      auto s = parse_string_literal();
      a.span = s->span;
      if (s->parts.size() > 1 || (s->parts.size() == 1 && s->parts[0].expr)) {
        if (in_inherit) throw Failure{a.span, "dynamic attributes are not allowed in 'inherit'"};
        a.expr = std::move(s);
        return a;
      }
      a.name = s->parts.empty() ? std::string() : s->parts[0].text;
    } else if (t.kind == Tok::dollar_curly) {
      // `${"a"}` names the attribute a; lower.cpp decides, as Nix does.
      Token open = lex_.next();
      a.expr = parse_expr();
      Token close = expect(Tok::rbrace);
      a.span = join(open.span, close.span);
      return a;
    } else {
      fail_at(t, "expected an attribute name");
    }
    symbols_.intern(a.name);
    return a;
  }

  std::vector<AttrName> parse_attrpath() {
    std::vector<AttrName> path;
    path.push_back(parse_attr(false));
    while (at(Tok::dot)) {
      lex_.next();
      path.push_back(parse_attr(false));
    }
    return path;
  }

  void parse_bindings(Attrs& n, Tok end) {
    while (!at(end)) {
      Binding b;
      b.span = lex_.peek().span;
      if (at(Tok::kw_inherit)) {
        lex_.next();
        b.is_inherit = true;
        if (at(Tok::lparen)) {
          lex_.next();
          b.from = parse_expr();
          expect(Tok::rparen);
        }
        while (at(Tok::id) || at(Tok::kw_or) || at(Tok::dquote) || at(Tok::dollar_curly))
          b.path.push_back(parse_attr(true));
      } else {
        if (at(Tok::end) || at(Tok::error) ||
            (!at(Tok::id) && !at(Tok::kw_or) && !at(Tok::dquote) && !at(Tok::dollar_curly)))
          fail_at(lex_.peek(), end == Tok::kw_in ? "expected a binding or 'in'" : "expected a binding or '}'");
        b.path = parse_attrpath();
        expect(Tok::assign);
        b.value = parse_expr();
      }
      Token semi = expect(Tok::semicolon);
      b.span = join(b.span, semi.span);
      n.bindings.push_back(std::move(b));
    }
  }

  std::unique_ptr<String> parse_string_literal() {
    Token open = lex_.next();  // '"'
    auto s = std::make_unique<String>(ExprKind::string, open.span);
    for (;;) {
      const Token& t = lex_.peek();
      if (t.kind == Tok::dquote) break;
      if (t.kind == Tok::str) {
        Token piece = lex_.next();
        s->parts.push_back(StringPart{piece.span, std::string(piece.value), nullptr, false});
      } else if (t.kind == Tok::dollar_curly) {
        s->parts.push_back(parse_interpolation());
      } else {
        fail_at(t, "expected '\"' to end the string");
      }
    }
    Token close = lex_.next();
    s->span = join(open.span, close.span);
    return finish(std::move(s));
  }

  StringPart parse_interpolation() {
    Token open = lex_.next();  // '${'
    StringPart p;
    p.expr = parse_expr();
    Token close = expect(Tok::rbrace);
    p.span = join(open.span, close.span);
    return p;
  }

  ExprPtr parse_simple() {
    const Token& t = lex_.peek();
    switch (t.kind) {
      case Tok::id: {
        Token id = lex_.next();
        if (id.value == "__curPos") return std::make_unique<Name>(ExprKind::cur_pos, id.span, std::string(id.value));
        symbols_.intern(id.value);
        return std::make_unique<Name>(ExprKind::var, id.span, std::string(id.value));
      }
      case Tok::int_lit: {
        Token n = lex_.next();
        int64_t v = 0;  // the lexer checked the range
        std::from_chars(n.value.data(), n.value.data() + n.value.size(), v);
        return std::make_unique<IntLit>(n.span, v);
      }
      case Tok::float_lit: {
        Token n = lex_.next();
        return std::make_unique<FloatLit>(n.span, std::strtod(std::string(n.value).c_str(), nullptr));
      }
      case Tok::dquote: return parse_string_literal();
      case Tok::ind_open: {
        Token open = lex_.next();
        auto s = std::make_unique<String>(ExprKind::ind_string, open.span);
        for (;;) {
          const Token& p = lex_.peek();
          if (p.kind == Tok::ind_close) break;
          if (p.kind == Tok::ind_str) {
            Token piece = lex_.next();
            s->parts.push_back(StringPart{piece.span, std::string(piece.value), nullptr, piece.has_indentation});
          } else if (p.kind == Tok::dollar_curly) {
            s->parts.push_back(parse_interpolation());
          } else {
            fail_at(p, "expected \"''\" to end the indented string");
          }
        }
        Token close = lex_.next();
        s->span = join(open.span, close.span);
        return finish(std::move(s));
      }
      case Tok::path:
      case Tok::hpath: {
        Token head = lex_.next();
        auto p = std::make_unique<Path>(head.span, std::string(head.value), head.kind == Tok::hpath);
        for (;;) {
          const Token& x = lex_.peek();
          if (x.kind == Tok::path_end) break;
          if (x.kind == Tok::str) {
            Token piece = lex_.next();
            p->parts.push_back(StringPart{piece.span, std::string(piece.value), nullptr, false});
          } else if (x.kind == Tok::dollar_curly) {
            p->parts.push_back(parse_interpolation());
          } else {
            fail_at(x, "expected the rest of the path");
          }
        }
        // Nix's grammar only allows text after the head around an interpolation.
        if (!p->parts.empty() &&
            std::none_of(p->parts.begin(), p->parts.end(), [](const StringPart& x) { return x.expr != nullptr; }))
          throw Failure{p->parts.front().span, "path text after the first segment needs an interpolation '${...}'"};
        Token end = lex_.next();
        p->span = join(head.span, end.span);
        return finish(std::move(p));
      }
      case Tok::spath: {
        Token sp = lex_.next();
        return std::make_unique<Name>(ExprKind::search_path, sp.span,
                                      std::string(sp.value.substr(1, sp.value.size() - 2)));
      }
      case Tok::uri: {
        Token u = lex_.next();
        return std::make_unique<Name>(ExprKind::uri, u.span, std::string(u.value));
      }
      case Tok::lparen: {
        lex_.next();
        ExprPtr e = parse_expr();
        expect(Tok::rparen);
        return e;
      }
      case Tok::kw_let:
      case Tok::kw_rec:
      case Tok::lbrace: {
        Token first = lex_.next();
        ExprKind kind = first.kind == Tok::kw_let ? ExprKind::legacy_let : ExprKind::attrs;
        auto n = std::make_unique<Attrs>(kind, first.span);
        n->recursive = first.kind != Tok::lbrace;
        if (first.kind != Tok::lbrace) expect(Tok::lbrace);
        parse_bindings(*n, Tok::rbrace);
        Token close = lex_.next();
        if (kind == ExprKind::legacy_let) symbols_.intern("body");
        n->span = join(first.span, close.span);
        return finish(std::move(n));
      }
      case Tok::lbracket: {
        Token open = lex_.next();
        auto l = std::make_unique<List>(ExprKind::list, open.span);
        while (!at(Tok::rbracket)) {
          if (!starts_select()) fail_at(lex_.peek(), "expected a list element or ']'");
          l->elems.push_back(parse_select());
        }
        Token close = lex_.next();
        l->span = join(open.span, close.span);
        return finish(std::move(l));
      }
      default: fail_at(t, "expected an expression");
    }
  }

  Lexer lex_;
  SymbolTable& symbols_;
  int depth_ = 0;
};

}  // namespace

ParseResult parse(std::string_view path, std::string_view text, SymbolTable& symbols) {
  ParseResult r;
  Parser p(text, symbols);
  try {
    r.expr = p.parse_file();
  } catch (const Failure& f) {
    r.error = diagnostic_at(path, text, Pos{f.where.line, f.where.column}, f.message);
    p.lexer().lex_to_end();
  }
  r.comments = p.lexer().take_comments();
  r.line_starts = p.lexer().take_line_starts();
  return r;
}

}  // namespace tailor::nix
