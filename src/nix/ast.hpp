#pragma once
/// The surface syntax tree of a Nix file: what was written, with the exact
/// source span of every node, so tools can report precise diagnostics and
/// rewrite files with minimal edits. Nix's own desugarings (operators to
/// builtin calls, nested attribute paths to nested sets) happen later, in
/// lower.hpp; this tree keeps the source form.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nix/token.hpp"

namespace tailor::nix {

enum class ExprKind : uint8_t {
  int_lit,
  float_lit,
  string,
  ind_string,
  path,
  search_path,
  uri,
  var,
  cur_pos,
  select,
  has_attr,
  attrs,
  list,
  lambda,
  call,
  let,
  legacy_let,
  with,
  if_,
  assert_,
  unary,
  binary,
};

enum class UnaryOp : uint8_t { not_, negate };

enum class BinaryOp : uint8_t { eq, neq, lt, leq, gt, geq, and_, or_, impl, update, concat, add, sub, mul, div };

/// The operator's source spelling, e.g. "<=".
const char* binary_op_text(BinaryOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// Base of all nodes. `height` bounds the recursion of later passes.
struct Expr {
  explicit Expr(ExprKind k, Span s) : kind(k), span(s) {}
  virtual ~Expr() = default;
  /// Nodes come from a per-thread pool of fixed-size slots: a tree of
  /// hundreds of small nodes is made and freed per file, which costs
  /// malloc/free more than the parsing itself. (Plain new/delete under
  /// AddressSanitizer, so it still sees every node.)
  static void* operator new(size_t size);
  static void operator delete(void* p, size_t size) noexcept;
  ExprKind kind;
  Span span;
  int height = 1;  ///< 1 + the largest height of the children
};

/// A piece of a string, indented string or interpolated path.
struct StringPart {
  Span span;
  std::string text;              ///< the piece's value (strings: unescaped); empty for interpolations
  ExprPtr expr;                  ///< set for `${...}`
  bool has_indentation = false;  ///< indented strings: a literal piece, not an escape
};

/// One element of an attribute path: a name (`a`, `"a b"`, `or`) or a
/// dynamic `${e}` / `"…${e}…"` part.
struct AttrName {
  Span span;
  std::string name;  ///< the static name (when expr is null)
  ExprPtr expr;      ///< dynamic part: the expression (a string node for `"…${e}…"`)
};

struct IntLit : Expr {
  IntLit(Span s, int64_t v) : Expr(ExprKind::int_lit, s), value(v) {}
  int64_t value;
};
struct FloatLit : Expr {
  FloatLit(Span s, double v) : Expr(ExprKind::float_lit, s), value(v) {}
  double value;
};

/// "…" (kind string) or ''…'' (kind ind_string); parts as the lexer split them.
struct String : Expr {
  using Expr::Expr;
  std::vector<StringPart> parts;
};

/// A path literal: `first` is the literal head (./a, ~/x, /abs), `parts` any
/// interpolations and text after it.
struct Path : Expr {
  Path(Span s, std::string f, bool home) : Expr(ExprKind::path, s), first(std::move(f)), is_home(home) {}
  std::string first;
  bool is_home;
  std::vector<StringPart> parts;
};

/// `<nixpkgs/lib>` (name without brackets), a URI, a variable, `__curPos`.
struct Name : Expr {
  Name(ExprKind k, Span s, std::string n) : Expr(k, s), name(std::move(n)) {}
  std::string name;
};

/// `e.a.b or def` (select) and `e ? a.b` (has_attr).
struct Select : Expr {
  using Expr::Expr;
  ExprPtr subject;
  std::vector<AttrName> path;
  ExprPtr fallback;  ///< `or` default; select only, may be null
};

/// One binding inside `{ }`, `rec { }`, `let … in`: `path = value;` or
/// `inherit (from) names;`.
struct Binding {
  Span span;
  bool is_inherit = false;
  std::vector<AttrName> path;  ///< assignment path, or the inherited names
  ExprPtr value;               ///< assignment value
  ExprPtr from;                ///< `inherit (from)`; may be null
};

/// `{ … }` / `rec { … }` (attrs), `let … in body` (let), `let { … }` (legacy_let).
struct Attrs : Expr {
  using Expr::Expr;
  bool recursive = false;
  std::vector<Binding> bindings;
  ExprPtr body;  ///< let only
};

struct List : Expr {
  using Expr::Expr;
  std::vector<ExprPtr> elems;
};

struct Formal {
  Span span;
  std::string name;
  ExprPtr fallback;  ///< `? default`; may be null
};

/// `x: body`, `{ a, b ? 1, ... } @ x: body`.
struct Lambda : Expr {
  using Expr::Expr;
  std::string arg;  ///< empty: none
  Span arg_span;
  bool has_formals = false;
  bool ellipsis = false;
  std::vector<Formal> formals;  ///< in source order
  ExprPtr body;
};

/// Application `f a b` (flattened, as Nix does), or a desugared call built by
/// the parser for `e or` (the rarely used function named `or`).
struct Call : Expr {
  using Expr::Expr;
  ExprPtr fn;
  std::vector<ExprPtr> args;
  bool or_keyword = false;  ///< built for `fn or`; Nix never appends to it
};

/// `with e; body`, `assert e; body`, `if c then a else b` (third is else).
struct Ternary : Expr {
  using Expr::Expr;
  ExprPtr first, second, third;
};

struct Unary : Expr {
  Unary(Span s, UnaryOp o) : Expr(ExprKind::unary, s), op(o) {}
  UnaryOp op;
  ExprPtr operand;
};

struct Binary : Expr {
  Binary(Span s, BinaryOp o) : Expr(ExprKind::binary, s), op(o) {}
  BinaryOp op;
  Span op_span;
  ExprPtr lhs, rhs;
};

/// Recomputes `e.height` from its direct children (not recursive).
void update_height(Expr& e);

}  // namespace tailor::nix
