#pragma once
/// The one traversal of the Nix syntax tree: the only place that knows which
/// children each kind of node has. Every walk (recipe facts, pin and Python
/// sites, source overrides, node heights) visits children through it, so a
/// new node kind or field is handled once.

#include <string_view>

#include "nix/ast.hpp"

namespace tailor::nix {

/// Calls \a fn(child, binding) for each direct child of \a e, in source order.
/// \a binding names the binding a child is the value of (`pname = "x"` gives
/// "pname"). Elements of a list and operands of a binary operator are still
/// the value of \a e's own binding (`gpuTargets = [ a ] ++ [ b ]`), so they
/// get \a binding; every other child gets "".
template <class Fn>
void for_each_child(const Expr& e, std::string_view binding, Fn&& fn) {
  auto parts = [&](const std::vector<StringPart>& ps) {
    for (const auto& p : ps)
      if (p.expr) fn(*p.expr, std::string_view{});
  };
  auto names = [&](const std::vector<AttrName>& path) {
    for (const auto& a : path)
      if (a.expr) fn(*a.expr, std::string_view{});
  };
  switch (e.kind) {
    case ExprKind::string:
    case ExprKind::ind_string: parts(static_cast<const String&>(e).parts); break;
    case ExprKind::path: parts(static_cast<const Path&>(e).parts); break;
    case ExprKind::select:
    case ExprKind::has_attr: {
      const auto& s = static_cast<const Select&>(e);
      fn(*s.subject, std::string_view{});
      names(s.path);
      if (s.fallback) fn(*s.fallback, std::string_view{});
      break;
    }
    case ExprKind::attrs:
    case ExprKind::let:
    case ExprKind::legacy_let: {
      const auto& a = static_cast<const Attrs&>(e);
      for (const auto& b : a.bindings) {
        names(b.path);
        if (b.from) fn(*b.from, std::string_view{});
        if (b.value) fn(*b.value, b.path.empty() || b.path.back().expr ? std::string_view{} : b.path.back().name);
      }
      if (a.body) fn(*a.body, std::string_view{});
      break;
    }
    case ExprKind::list:
      for (const auto& x : static_cast<const List&>(e).elems) fn(*x, binding);
      break;
    case ExprKind::lambda: {
      const auto& l = static_cast<const Lambda&>(e);
      for (const auto& f : l.formals)
        if (f.fallback) fn(*f.fallback, std::string_view{});
      fn(*l.body, std::string_view{});
      break;
    }
    case ExprKind::call: {
      const auto& c = static_cast<const Call&>(e);
      fn(*c.fn, std::string_view{});
      for (const auto& x : c.args) fn(*x, std::string_view{});
      break;
    }
    case ExprKind::with:
    case ExprKind::assert_:
    case ExprKind::if_: {
      const auto& t = static_cast<const Ternary&>(e);
      for (const Expr* x : {t.first.get(), t.second.get(), t.third.get()})
        if (x) fn(*x, std::string_view{});
      break;
    }
    case ExprKind::unary: fn(*static_cast<const Unary&>(e).operand, std::string_view{}); break;
    case ExprKind::binary: {
      const auto& b = static_cast<const Binary&>(e);
      fn(*b.lhs, binding);
      fn(*b.rhs, binding);
      break;
    }
    default: break;  // literals, variables, lookup paths: no children
  }
}

/// Calls \a fn(node, binding) for \a root and every node below it, parents
/// before children (see for_each_child for \a binding). The parser bounds a
/// tree's height, so the recursion is bounded too.
template <class Fn>
void walk(const Expr& root, Fn&& fn, std::string_view binding = {}) {
  fn(root, binding);
  for_each_child(root, binding, [&](const Expr& child, std::string_view b) { walk(child, fn, b); });
}

}  // namespace tailor::nix
