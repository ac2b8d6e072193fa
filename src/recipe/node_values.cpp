#include "recipe/node_values.hpp"

namespace tailor::recipe {

std::optional<std::string> static_string(const nix::Expr& e) {
  if (e.kind != nix::ExprKind::string && e.kind != nix::ExprKind::ind_string) return std::nullopt;
  std::string out;
  for (const auto& p : static_cast<const nix::String&>(e).parts) {
    if (p.expr) return std::nullopt;
    out += p.text;
  }
  return out;
}

/// The attribute an override call replaces: torch of `ps.torch.overrideAttrs`,
/// `(ps.torch.override { … }).overrideAttrs` or `torch.overridePythonAttrs`.
std::optional<std::string> overridden_attribute(const nix::Expr& fn) {
  auto callee = callee_name(fn);
  if (!callee || !callee->first.starts_with("override")) return std::nullopt;
  const nix::Expr* e = &fn;
  while (true) {
    if (e->kind == nix::ExprKind::var) return static_cast<const nix::Name&>(*e).name;
    if (e->kind == nix::ExprKind::call) {
      e = static_cast<const nix::Call&>(*e).fn.get();
      continue;
    }
    if (e->kind != nix::ExprKind::select) return std::nullopt;
    const auto& s = static_cast<const nix::Select&>(*e);
    // Past the override functions (…override, …overrideAttrs) to the attribute they belong to.
    size_t n = s.path.size();
    while (n > 0 && !s.path[n - 1].expr && s.path[n - 1].name.starts_with("override")) --n;
    if (n > 0) return s.path[n - 1].expr ? std::nullopt : std::optional<std::string>(s.path[n - 1].name);
    e = s.subject.get();
  }
}

/// The function's name as written last (`builtins.fetchTarball` -> fetchTarball) and its span.
std::optional<std::pair<std::string, nix::Span>> callee_name(const nix::Expr& fn) {
  if (fn.kind == nix::ExprKind::var) return std::make_pair(static_cast<const nix::Name&>(fn).name, fn.span);
  if (fn.kind != nix::ExprKind::select) return std::nullopt;
  const auto& s = static_cast<const nix::Select&>(fn);
  if (s.path.empty() || s.path.back().expr) return std::nullopt;
  return std::make_pair(s.path.back().name, s.path.back().span);
}

}  // namespace tailor::recipe
