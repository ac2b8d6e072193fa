#include "nix/scope.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "nix/builtin_names.hpp"

namespace tailor::nix {

namespace {

// A let's or rec set's names are looked up in its own map (hashed past a few dozen
// names): a let of 100k bindings searched linearly for each of its variables took 9 s,
// and a copy of its names searched by halves cost a cache miss per step.
struct Env {
  const Env* up = nullptr;
  bool is_with = false;
  std::vector<std::string_view> names;  // sorted: a function's arguments, the base environment
  const CoreAttrMap* attrs = nullptr;   // or a let's or rec set's names

  bool binds(std::string_view name) const {
    return attrs ? attrs->contains(name) : std::binary_search(names.begin(), names.end(), name);
  }
};

struct Unbound {
  const Core* var;
};

// Mirrors Nix 2.8's Expr::bindVars for each node kind. \a in_order: visit a set's
// attributes in name order, which decides the variable reported when several are
// unbound; without, in the order they were written (no set is sorted for it).
void bind(const Core& e, const Env& env, bool in_order) {
  switch (e.kind) {
    case CoreKind::var: {
      for (const Env* s = &env; s; s = s->up) {
        if (s->is_with) return;  // resolved dynamically from the `with`
        if (s->binds(e.text)) return;
      }
      throw Unbound{&e};
    }
    case CoreKind::select:
    case CoreKind::has_attr:
      for (const Core* k : e.kids) bind(*k, env, in_order);
      for (const auto& a : e.path)
        if (a.expr) bind(*a.expr, env, in_order);
      return;
    case CoreKind::attrs:
    case CoreKind::let: {
      const CoreAttrs& a = *e.attrs;
      const bool scoped = e.kind == CoreKind::let || a.recursive;
      Env inner{&env, false, {}, &a.attrs};
      const Env& own = scoped ? inner : env;
      auto visit = [&](const CoreAttrMap::value_type& d) {
        bind(*d.second.value, d.second.inherited ? env : own, in_order);
      };
      if (in_order)
        std::for_each(a.attrs.begin(), a.attrs.end(), visit);
      else
        std::for_each(a.attrs.unordered().begin(), a.attrs.unordered().end(), visit);
      for (const auto& d : a.dynamic) {
        bind(*d.name, own, in_order);
        bind(*d.value, own, in_order);
      }
      if (e.kind == CoreKind::let) bind(*e.kids[0], inner, in_order);
      return;
    }
    case CoreKind::lambda: {
      const CoreLambda& l = *e.lambda;
      Env inner{&env, false, {}};
      if (!l.arg.empty()) inner.names.push_back(l.arg);
      for (const auto& f : l.formals) inner.names.push_back(f.first);
      std::sort(inner.names.begin(), inner.names.end());
      for (const auto& f : l.formals)
        if (f.second) bind(*f.second, inner, in_order);
      bind(*e.kids[0], inner, in_order);
      return;
    }
    case CoreKind::with: {
      bind(*e.kids[0], env, in_order);
      Env inner{&env, true, {}};
      bind(*e.kids[1], inner, in_order);
      return;
    }
    default:
      for (const Core* k : e.kids) bind(*k, env, in_order);
      return;
  }
}

}  // namespace

std::optional<Diagnostic> check_scopes(const Core& root, std::string_view path, std::string_view text) {
  static const Env base = [] {
    Env b;
    b.names.assign(kGlobalNames.begin(), kGlobalNames.end());
    std::sort(b.names.begin(), b.names.end());
    return b;
  }();
  try {
    bind(root, base, false);
    return std::nullopt;
  } catch (const Unbound&) {}
  try {  // which one is reported: the first in name order, as ever
    bind(root, base, true);
  } catch (const Unbound& u) {
    return diagnostic_at(path, text, Pos{u.var->span.line, u.var->span.column},
                         "undefined variable '" + u.var->text + "'");
  }
  return std::nullopt;
}

}  // namespace tailor::nix
