#include "repin/python_sites.hpp"

#include <algorithm>

#include "nix/visit.hpp"
#include "recipe/line_index.hpp"
#include "recipe/recipe_facts.hpp"
#include "repin/pin_args.hpp"

namespace tailor::repin {

namespace {

using nix::Expr;
using nix::ExprKind;

class Finder {
 public:
  Finder(std::string_view text, std::vector<NameSite>& out) : text_(text), lines_(text), out_(out) {}

  /// An identifier of \a name starting at \a begin, if the source spells it bare there.
  void ident(std::string_view name, size_t begin, const char* role) {
    if (!python_name(name) || begin + name.size() > text_.size() || text_.substr(begin, name.size()) != name) return;
    out_.push_back({std::string(name), begin, begin + name.size(), lines_.span(begin, begin + name.size()), role});
  }

  void node(const Expr& e, std::string_view binding) {
    switch (e.kind) {
      case ExprKind::var: {
        const auto& n = static_cast<const nix::Name&>(e);
        ident(n.name, e.span.begin, "use");
        break;
      }
      case ExprKind::select:
      case ExprKind::has_attr:
        for (const auto& a : static_cast<const nix::Select&>(e).path)
          if (!a.expr) ident(a.name, a.span.begin, "attribute");
        break;
      case ExprKind::lambda: {
        const auto& l = static_cast<const nix::Lambda&>(e);
        if (!l.arg.empty()) ident(l.arg, l.arg_span.begin, "formal");
        for (const auto& f : l.formals) ident(f.name, f.span.begin, "formal");
        break;
      }
      case ExprKind::attrs:
      case ExprKind::let:
      case ExprKind::legacy_let:
        for (const auto& b : static_cast<const nix::Attrs&>(e).bindings)
          for (const auto& a : b.path)
            if (!a.expr) ident(a.name, a.span.begin, b.is_inherit ? "inherit" : "binding");
        break;
      case ExprKind::string:
      case ExprKind::ind_string: {
        // Generated-style records: pythonPackages = "python313Packages";
        if (binding != "pythonPackages" && binding != "python") break;
        const auto& parts = static_cast<const nix::String&>(e).parts;
        if (parts.size() == 1 && !parts[0].expr) ident(parts[0].text, parts[0].span.begin, "string");
        break;
      }
      default: break;
    }
  }

 private:
  std::string_view text_;
  recipe::LineIndex lines_;
  std::vector<NameSite>& out_;
};

}  // namespace

std::vector<NameSite> find_python_names(std::string_view text, const Expr& root) {
  std::vector<NameSite> out;
  Finder f(text, out);
  nix::walk(root, [&](const Expr& e, std::string_view binding) { f.node(e, binding); });
  std::sort(out.begin(), out.end(), [](const NameSite& a, const NameSite& b) { return a.begin < b.begin; });
  out.erase(
      std::unique(out.begin(), out.end(), [](const NameSite& a, const NameSite& b) { return a.begin == b.begin; }),
      out.end());
  return out;
}

}  // namespace tailor::repin
