#include "migrate/nix_walk.hpp"

namespace tailor::migrate {

namespace {

using nix::Expr;
using nix::ExprKind;
using Fn = std::function<void(const Expr&, const std::string&)>;

void walk(const Expr& e, const std::string& binding, const Fn& fn) {
  fn(e, binding);
  switch (e.kind) {
    case ExprKind::string:
    case ExprKind::ind_string:
      for (const auto& p : static_cast<const nix::String&>(e).parts)
        if (p.expr) walk(*p.expr, "", fn);
      break;
    case ExprKind::path:
      for (const auto& p : static_cast<const nix::Path&>(e).parts)
        if (p.expr) walk(*p.expr, "", fn);
      break;
    case ExprKind::select:
    case ExprKind::has_attr: {
      const auto& s = static_cast<const nix::Select&>(e);
      walk(*s.subject, "", fn);
      for (const auto& a : s.path)
        if (a.expr) walk(*a.expr, "", fn);
      if (s.fallback) walk(*s.fallback, "", fn);
      break;
    }
    case ExprKind::attrs:
    case ExprKind::let:
    case ExprKind::legacy_let: {
      const auto& a = static_cast<const nix::Attrs&>(e);
      for (const auto& b : a.bindings) {
        for (const auto& n : b.path)
          if (n.expr) walk(*n.expr, "", fn);
        if (b.from) walk(*b.from, "", fn);
        if (b.value) walk(*b.value, b.path.empty() || b.path.back().expr ? "" : b.path.back().name, fn);
      }
      if (a.body) walk(*a.body, "", fn);
      break;
    }
    case ExprKind::list:
      for (const auto& x : static_cast<const nix::List&>(e).elems) walk(*x, binding, fn);
      break;
    case ExprKind::lambda: {
      const auto& l = static_cast<const nix::Lambda&>(e);
      for (const auto& f : l.formals)
        if (f.fallback) walk(*f.fallback, "", fn);
      walk(*l.body, "", fn);
      break;
    }
    case ExprKind::call: {
      const auto& c = static_cast<const nix::Call&>(e);
      walk(*c.fn, "", fn);
      for (const auto& x : c.args) walk(*x, "", fn);
      break;
    }
    case ExprKind::with:
    case ExprKind::assert_:
    case ExprKind::if_: {
      const auto& t = static_cast<const nix::Ternary&>(e);
      for (const Expr* x : {t.first.get(), t.second.get(), t.third.get()})
        if (x) walk(*x, "", fn);
      break;
    }
    case ExprKind::unary: walk(*static_cast<const nix::Unary&>(e).operand, "", fn); break;
    case ExprKind::binary: {
      const auto& b = static_cast<const nix::Binary&>(e);
      walk(*b.lhs, "", fn);
      walk(*b.rhs, "", fn);
      break;
    }
    default: break;
  }
}

}  // namespace

void walk_nix(const Expr& root, const Fn& fn) { walk(root, "", fn); }

}  // namespace tailor::migrate
