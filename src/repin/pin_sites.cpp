#include "repin/pin_sites.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <regex>

#include "nix/visit.hpp"
#include "recipe/line_index.hpp"
#include "recipe/node_values.hpp"
#include "recipe/recipe_facts.hpp"

namespace tailor::repin {

namespace {

using nix::Expr;
using nix::ExprKind;

bool is_hex(std::string_view s) {
  return s.size() >= 7 && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// A string's content range when the node is a one-piece literal whose source bytes are its value.
std::optional<std::pair<size_t, size_t>> literal_range(std::string_view text, const Expr& e) {
  if (e.kind != ExprKind::string && e.kind != ExprKind::ind_string) return std::nullopt;
  const auto& parts = static_cast<const nix::String&>(e).parts;
  if (parts.empty()) {  // "": the content is empty, right after the opening quote
    size_t open = e.kind == ExprKind::string ? 1 : 2;
    return std::make_pair(e.span.begin + open, e.span.begin + open);
  }
  if (parts.size() != 1 || parts[0].expr) return std::nullopt;
  const auto& p = parts[0];
  if (p.span.end > text.size() || text.substr(p.span.begin, p.span.end - p.span.begin) != p.text) return std::nullopt;
  return std::make_pair(size_t{p.span.begin}, size_t{p.span.end});
}

class Finder {
 public:
  Finder(std::string_view text, std::deque<PinSite>& out) : text_(text), lines_(text), out_(out) {}

  void collect_bindings(const Expr& root) {
    nix::walk(root, [&](const Expr& e, std::string_view) {
      if (e.kind != ExprKind::let && e.kind != ExprKind::attrs && e.kind != ExprKind::legacy_let) return;
      for (const auto& b : static_cast<const nix::Attrs&>(e).bindings)
        if (!b.is_inherit && b.path.size() == 1 && !b.path[0].expr && b.value && literal_range(text_, *b.value))
          strings_.emplace(b.path[0].name, b.value.get());
    });
  }

  void run(const Expr& root) {
    nix::walk(root, [&](const Expr& e, std::string_view binding) {
      if (e.kind == ExprKind::attrs || e.kind == ExprKind::let || e.kind == ExprKind::legacy_let)
        attrs(static_cast<const nix::Attrs&>(e), binding);
      else if (e.kind == ExprKind::string || e.kind == ExprKind::ind_string)
        string_urls(e, "string");
    });
  }

 private:
  /// The literal string bound to the variable \a e, if it is one.
  const Expr* bound_literal(const Expr& e) const {
    if (e.kind != ExprKind::var) return nullptr;
    auto it = strings_.find(static_cast<const nix::Name&>(e).name);
    return it == strings_.end() ? nullptr : it->second;
  }

  PinSite* add(PinSite s) {
    for (auto& x : out_)
      if (x.begin == s.begin) return nullptr;  // seen through its attribute set already
    s.span = lines_.span(s.begin, s.end);
    out_.push_back(std::move(s));
    return &out_.back();
  }

  /// Revisions inside the literal pieces of a url string: archive tarballs and flake urls.
  std::vector<PinSite*> string_urls(const Expr& e, const std::string& form) {
    static const std::regex archive(R"(github\.com/[Nn]ix[Oo][Ss]/nixpkgs/archive/([0-9a-f]{7,40})\.tar\.gz)");
    static const std::regex flake(R"(github:[Nn]ix[Oo][Ss]/nixpkgs/([0-9a-f]{7,40})(?![0-9a-zA-Z]))");
    std::vector<PinSite*> found;
    for (const auto& p : static_cast<const nix::String&>(e).parts) {
      if (p.expr || p.text.size() > recipe::kMaxRegexLine) continue;
      std::string_view src = text_.substr(p.span.begin, p.span.end - p.span.begin);
      if (src.find("nixpkgs") == std::string_view::npos) continue;
      for (const auto* re : {&archive, &flake}) {
        for (auto it = std::sregex_iterator(p.text.begin(), p.text.end(), *re); it != std::sregex_iterator(); ++it) {
          std::string rev = (*it).str(1);
          // Escapes cannot occur inside a revision: find it in the source bytes.
          size_t k = src.find((*it).str(0).substr(0, (*it).position(1) - (*it).position(0)) + rev);
          if (k == std::string_view::npos) continue;
          size_t b = p.span.begin + k + ((*it).position(1) - (*it).position(0));
          PinSite s;
          s.rev = rev;
          s.begin = b;
          s.end = b + rev.size();
          s.form = re == &flake ? "flake url" : form;
          if (PinSite* added = add(std::move(s))) found.push_back(added);
        }
      }
    }
    return found;
  }

  /// `url = ".../archive/${rev}.tar.gz"`: the literal bound to `rev`.
  std::vector<PinSite*> interpolated_url(const Expr& url, const std::string& form) {
    std::vector<PinSite*> found;
    if (url.kind != ExprKind::string) return found;
    const auto& parts = static_cast<const nix::String&>(url).parts;
    for (size_t i = 1; i + 1 < parts.size(); ++i) {
      if (!parts[i].expr || parts[i - 1].expr || parts[i + 1].expr) continue;
      if (!parts[i - 1].text.ends_with("nixpkgs/archive/") || !parts[i + 1].text.starts_with(".tar.gz")) continue;
      if (const Expr* lit = bound_literal(*parts[i].expr))
        if (PinSite* added = literal_site(*lit, form, true)) found.push_back(added);
    }
    return found;
  }

  /// `rev = "…"` or `rev = someBinding`.
  PinSite* rev_value(const Expr& v, const std::string& form) {
    const Expr* lit = literal_range(text_, v) ? &v : bound_literal(v);
    return lit ? literal_site(*lit, form, lit != &v) : nullptr;
  }

  /// The pin written in the string literal \a lit, if it reads a revision.
  PinSite* literal_site(const Expr& lit, const std::string& form, bool via_binding) {
    auto range = literal_range(text_, lit);
    std::string rev = *recipe::static_string(lit);
    if (!is_hex(rev)) return nullptr;
    PinSite s;
    s.rev = rev;
    s.begin = range->first;
    s.end = range->second;
    s.form = form;
    s.via_binding = via_binding;
    return add(std::move(s));
  }

  std::optional<HashSite> hash_of(const nix::Attrs& a) {
    for (const auto& b : a.bindings) {
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
      const std::string& k = b.path[0].name;
      if (k != "sha256" && k != "hash" && k != "narHash" && k != "outputHash") continue;
      HashSite h;
      h.attr = k;
      const Expr* v = b.value.get();
      if (v->kind == ExprKind::var && static_cast<const nix::Name&>(*v).name == "null") {
        h.is_null = true;
        h.begin = v->span.begin;
        h.end = v->span.end;
      } else if (const Expr* lit = literal_range(text_, *v) ? v : bound_literal(*v)) {
        auto r = literal_range(text_, *lit);
        h.begin = r->first;
        h.end = r->second;
        h.value = *recipe::static_string(*lit);
        h.literal = true;
      } else {
        h.begin = v->span.begin;
        h.end = v->span.end;
      }
      h.span = lines_.span(v->span.begin, v->span.end);
      return h;
    }
    return std::nullopt;
  }

  /// Where a hash binding goes: after \a b, on its own line when \a b has one.
  void insertion(PinSite& s, const nix::Binding& b, std::string attr) {
    s.insert_attr = std::move(attr);
    s.insert_at = b.span.end;
    size_t line_start = text_.rfind('\n', b.span.begin == 0 ? 0 : b.span.begin - 1);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view indent = text_.substr(line_start, b.span.begin - line_start);
    size_t eol = text_.find('\n', b.span.end);
    std::string_view rest = text_.substr(b.span.end, (eol == std::string_view::npos ? text_.size() : eol) - b.span.end);
    bool own_line = indent.find_first_not_of(" \t") == std::string_view::npos &&
                    rest.find_first_not_of(" \t\r") == std::string_view::npos;
    s.insert_prefix = own_line ? "\n" + std::string(indent) : " ";
  }

  void attrs(const nix::Attrs& a, std::string_view parent) {
    std::map<std::string, const nix::Binding*> b;
    for (const auto& x : a.bindings)
      if (!x.is_inherit && x.path.size() == 1 && !x.path[0].expr && x.value) b[x.path[0].name] = &x;
    auto value = [&](const char* k) -> const Expr* {
      auto it = b.find(k);
      return it == b.end() ? nullptr : it->second->value.get();
    };
    auto str = [&](const char* k) -> std::string {
      const Expr* v = value(k);
      auto s = v ? recipe::static_string(*v) : std::nullopt;
      return s ? *s : "";
    };
    std::vector<PinSite*> sites;
    std::string hash_attr;
    const nix::Binding* anchor = nullptr;
    std::string url = str("url");
    bool github_nixpkgs = str("repo") == "nixpkgs" && (str("owner") == "NixOS" || str("owner") == "nixos");
    bool git_nixpkgs = url.find("NixOS/nixpkgs") != std::string::npos && url.find("/archive/") == std::string::npos;
    if (const Expr* u = value("url"); u && (u->kind == ExprKind::string || u->kind == ExprKind::ind_string)) {
      for (PinSite* s : string_urls(*u, "fetchTarball url")) sites.push_back(s);
      for (PinSite* s : interpolated_url(*u, "fetchTarball url")) sites.push_back(s);
      if (!sites.empty()) {
        hash_attr = "sha256";
        anchor = b["url"];
      }
    }
    if (const Expr* r = value("rev"); r && (github_nixpkgs || git_nixpkgs || parent == "nixpkgs")) {
      std::string form = github_nixpkgs ? "fetchFromGitHub rev" : git_nixpkgs ? "fetchGit rev" : "nixpkgs record";
      if (PinSite* s = rev_value(*r, form)) {
        sites.push_back(s);
        hash_attr = github_nixpkgs ? "hash" : git_nixpkgs ? "" : "sha256";
        anchor = b["rev"];
      }
    }
    if (sites.empty()) return;
    auto hash = hash_of(a);
    for (PinSite* s : sites) {
      s->hash = hash;
      if (!hash && !hash_attr.empty() && anchor) insertion(*s, *anchor, hash_attr);
    }
  }

  std::string_view text_;
  recipe::LineIndex lines_;
  std::deque<PinSite>& out_;  // stable addresses while one attribute set is read
  std::map<std::string, const Expr*> strings_;
};

}  // namespace

std::vector<PinSite> find_pins(std::string_view text, const Expr& root) {
  std::deque<PinSite> found;
  Finder f(text, found);
  f.collect_bindings(root);
  f.run(root);
  std::vector<PinSite> out(found.begin(), found.end());
  std::sort(out.begin(), out.end(), [](const PinSite& a, const PinSite& b) { return a.begin < b.begin; });
  return out;
}

std::vector<PinSite> find_rev_literals(std::string_view text, const Expr& root, std::string_view rev,
                                       const std::vector<PinSite>& sites) {
  std::vector<PinSite> out;
  recipe::LineIndex lines(text);
  nix::walk(root, [&](const Expr& e, std::string_view) {
    auto r = literal_range(text, e);
    if (!r || text.substr(r->first, r->second - r->first) != rev) return;
    for (const auto& s : sites)
      if (s.begin == r->first) return;
    PinSite s;
    s.rev = std::string(rev);
    s.begin = r->first;
    s.end = r->second;
    s.span = lines.span(s.begin, s.end);
    s.form = "string";
    s.via_binding = true;
    out.push_back(std::move(s));
  });
  return out;
}

}  // namespace tailor::repin
