#include "recipe/recipe_facts.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "nix/visit.hpp"
#include "recipe/comments.hpp"
#include "recipe/line_index.hpp"
#include "recipe/node_values.hpp"
#include "recipe/python_names.hpp"

namespace tailor::recipe {

namespace {

using nix::Expr;
using nix::ExprKind;

// Name patterns are checked by hand: every identifier and string of every file
// passes here, and std::regex costs microseconds a call.

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// cudaPackages_12_9 (cudaPackages_\d+_\d+).
bool is_cuda_set(std::string_view n) {
  if (!n.starts_with("cudaPackages_")) return false;
  std::string_view rest = n.substr(13);
  size_t u = rest.find('_');
  return u != std::string_view::npos && all_digits(rest.substr(0, u)) && all_digits(rest.substr(u + 1));
}

/// A git revision as written in pins: [0-9a-f]{7,40}.
bool is_hex_rev(std::string_view s) {
  return s.size() >= 7 && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_env_char(char c) { return is_upper(c) || (c >= '0' && c <= '9') || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/// An environment variable name: [A-Z][A-Z0-9_]*.
bool is_env_name(std::string_view s) {
  return !s.empty() && is_upper(s[0]) && std::all_of(s.begin(), s.end(), is_env_char);
}

/// The settings of one line of shell text, as the regular expression
/// (?:^|[\s"'])(?:-D)?([A-Z][A-Z0-9_]*[A-Z0-9])=([^\s"';]*) finds them, left to
/// right without overlap: `export USE_CUDNN=0`, `-DUSE_FBGEMM=OFF`, `CXXFLAGS="…`.
/// Calls \a found(name_offset, name, value).
template <class F>
void scan_settings(std::string_view line, F&& found) {
  size_t from = 0;  // where the previous match ended
  for (size_t eq = line.find('='); eq != std::string_view::npos; eq = line.find('=', eq + 1)) {
    if (eq < from) continue;
    size_t r = eq;
    while (r > from && is_env_char(line[r - 1])) --r;
    // The name's start: the run itself after a boundary, or after "-D" that follows one.
    auto boundary_before = [&](size_t at) {
      return at == 0 || (at - 1 >= from && (is_space(line[at - 1]) || line[at - 1] == '"' || line[at - 1] == '\''));
    };
    auto valid = [&](size_t b) { return eq - b >= 2 && is_upper(line[b]) && line[eq - 1] != '_'; };
    size_t name = std::string_view::npos;
    if (r >= 1 && line[r - 1] == '-' && line[r] == 'D' && r + 1 < eq && valid(r + 1) && boundary_before(r - 1))
      name = r + 1;
    else if (r < eq && valid(r) && boundary_before(r))
      name = r;
    if (name == std::string_view::npos) continue;
    size_t v = eq + 1;
    while (v < line.size() && !is_space(line[v]) && line[v] != '"' && line[v] != '\'' && line[v] != ';') ++v;
    found(name, line.substr(name, eq - name), line.substr(eq + 1, v - eq - 1));
    from = v;
  }
}

/// The revisions of nixpkgs tarball urls in \a text, as
/// github\.com/[Nn]ix[Oo][Ss]/nixpkgs/archive/([0-9a-f]{7,40})\.tar\.gz finds them:
/// calls \a found(offset, rev) for each.
template <class F>
void for_each_pin_url(std::string_view text, F&& found) {
  static constexpr std::string_view kArchive = "/nixpkgs/archive/", kHost = "github.com/";
  for (size_t p = text.find(kArchive); p != std::string_view::npos; p = text.find(kArchive, p + 1)) {
    if (p < kHost.size() + 5 || text.substr(p - 5 - kHost.size(), kHost.size()) != kHost) continue;
    std::string_view owner = text.substr(p - 5, 5);
    if ((owner[0] != 'N' && owner[0] != 'n') || owner[1] != 'i' || owner[2] != 'x' ||
        (owner[3] != 'O' && owner[3] != 'o') || (owner[4] != 'S' && owner[4] != 's'))
      continue;
    size_t q = p + kArchive.size(), e = q;
    while (e < text.size() && ((text[e] >= '0' && text[e] <= '9') || (text[e] >= 'a' && text[e] <= 'f'))) ++e;
    if (e - q < 7 || e - q > 40 || text.substr(e, 7) != ".tar.gz") continue;
    found(q, text.substr(q, e - q));
  }
}

PinFact pin_at(std::string rev, nix::Span span) {
  PinFact p;
  p.rev = std::move(rev);
  p.span = span;
  return p;
}

/// A literal piece of a string and where its text starts. `exact`: the
/// source bytes equal the text, so offsets inside it map 1:1.
struct Piece {
  std::string_view text;
  size_t begin;
  bool exact;
};

class Extractor {
 public:
  Extractor(std::string_view text, LineIndex lines, RecipeFacts& f) : text_(text), lines_(std::move(lines)), f_(f) {}
  const LineIndex& lines() const { return lines_; }

  /// The static string bindings of one attribute set or let, registered
  /// before its values are walked: variables resolve to the bindings of
  /// enclosing lets and rec sets (and, through `with`, of sets walked before).
  void register_strings(const nix::Attrs& a) {
    for (const auto& b : a.bindings) {
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
      // `allCapabilities = [ "7.5" … ];` then `gpuTargets = allCapabilities;`: the list is the targets.
      if (b.value->kind == ExprKind::list) lists_.emplace(b.path[0].name, b.value.get());
      if (b.value->kind != ExprKind::string && b.value->kind != ExprKind::ind_string) continue;
      const auto& parts = static_cast<const nix::String&>(*b.value).parts;
      if (std::any_of(parts.begin(), parts.end(), [](const nix::StringPart& p) { return p.expr != nullptr; })) continue;
      // The first binding of a name wins; its text is copied when a variable needs it.
      strings_.emplace(b.path[0].name, b.value.get());
    }
  }

  // `python3Packages = nixpkgs.python313Packages;` in a let: its uses name the
  // set it selects (recorded at the selection), not the pin's default Python.
  void register_python_aliases(const nix::Attrs& a) {
    if (a.kind == ExprKind::attrs) return;
    for (const auto& b : a.bindings) {
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value || b.value->kind != ExprKind::select)
        continue;
      const auto& path = static_cast<const nix::Select&>(*b.value).path;
      if (!path.empty() && !path.back().expr && is_python_set(path.back().name) && is_python_set(b.path[0].name))
        python_aliases_.insert(b.path[0].name);
    }
  }

  /// Reads the facts of \a e, then of its children (nix/visit.hpp); \a parent
  /// is the binding \a e is the value of.
  void walk(const Expr& e, std::string_view parent) {
    switch (e.kind) {
      case ExprKind::string:
      case ExprKind::ind_string: string_facts(static_cast<const nix::String&>(e), parent); break;
      case ExprKind::var: {
        const std::string& n = static_cast<const nix::Name&>(e).name;
        if (!python_aliases_.count(n)) name_use(n, e.span);
        if (strings_.count(n)) ++f_.string_var_uses[n];
        break;
      }
      case ExprKind::search_path:
        f_.search_paths.push_back(
            {in_unused_default(e.span) ? "unused-default" : "", static_cast<const nix::Name&>(e).name, e.span});
        break;
      case ExprKind::select: {
        const auto& s = static_cast<const nix::Select&>(e);
        table_pick(s);
        for (const auto& a : s.path)
          if (!a.expr) name_use(a.name, a.span);
        break;
      }
      case ExprKind::attrs:
      case ExprKind::let:
      case ExprKind::legacy_let: return attrs(static_cast<const nix::Attrs&>(e), parent);
      case ExprKind::lambda: lambda_binders(static_cast<const nix::Lambda&>(e)); break;
      case ExprKind::call: return call(static_cast<const nix::Call&>(e), parent);
      default: break;
    }
    children(e, parent);
  }

 private:
  void children(const Expr& e, std::string_view parent) {
    nix::for_each_child(e, parent, [this](const Expr& c, std::string_view b) { walk(c, b); });
  }

  void string_facts(const nix::String& s, std::string_view parent) {
    for (const auto& p : s.parts)
      if (!p.expr) scan_piece(piece(p));
    if (auto v = static_string(s)) {
      if (is_cuda_set(*v)) f_.cuda_overlays.push_back({std::string(parent), *v, s.span});
      if ((parent == "pythonPackages" || parent == "python") && is_python_set(*v))
        f_.python_sets.push_back({std::string(parent), *v, s.span});
    }
  }

  void attrs(const nix::Attrs& a, std::string_view parent) {
    register_strings(a);
    register_python_aliases(a);
    attrs_facts(a, parent);
    if (a.kind == ExprKind::attrs) source_version(a);
    if (a.kind == ExprKind::attrs) record_override(a);
    for (const auto& b : a.bindings) {
      binding_names(a, b);
      if (!b.value) continue;
      bool named = !b.path.empty() && !b.path.back().expr;
      binding(named ? std::string_view(b.path.back().name) : std::string_view{}, *b.value, parent);
    }
    // A let value is not the result: a pname there names an inner derivation.
    bool inner = a.kind != ExprKind::attrs;
    nix::for_each_child(a, parent, [&](const Expr& c, std::string_view b) {
      bool value = inner && &c != a.body.get();
      in_let_value_ += value;
      walk(c, b);
      in_let_value_ -= value;
    });
  }

  /// Python set names bound or inherited by \a b (for --fix), and inherited string variables.
  void binding_names(const nix::Attrs& a, const nix::Binding& b) {
    if (!b.path.empty() && !b.path[0].expr && is_python_name(b.path[0].name)) {
      if (b.is_inherit || a.kind == ExprKind::attrs || b.path.size() > 1)
        f_.python_rename_unsafe = true;
      else
        f_.python_binders.push_back({"let", b.path[0].name, b.path[0].span});
    }
    if (!b.is_inherit) return;
    for (const auto& n : b.path) {
      if (!n.expr && is_python_name(n.name)) f_.python_rename_unsafe = true;
      if (!n.expr && !b.from && strings_.count(n.name)) ++f_.string_var_uses[n.name];
    }
  }

  /// Whether \a s lies in the default of a formal nothing reads (see unused_defaults).
  bool in_unused_default(const nix::Span& s) const {
    return std::any_of(unused_defaults_.begin(), unused_defaults_.end(),
                       [&](const nix::Span& d) { return s.begin >= d.begin && s.end <= d.end; });
  }

  /// The defaults of \a l's formals that no evaluation can reach. Nix evaluates a
  /// default only when its variable is read, and the `@args` set holds only what
  /// the caller passed: a formal that neither the body nor the default of a
  /// formal that is read names never evaluates its default, whoever calls the
  /// function (`{ pkgs ? import <nixpkgs> {} }: import ./lib/mk.nix { … }`, a
  /// wrapper Flox calls with its own pkgs, and nix-build with none). A name read
  /// anywhere counts, shadowed or not: a default that might be evaluated is kept.
  void unused_defaults(const nix::Lambda& l) {
    // Only lookup paths are judged by it: a function without one in a default costs no scan of its body.
    if (std::none_of(l.formals.begin(), l.formals.end(),
                     [](const nix::Formal& fm) { return fm.fallback && has_search_path(*fm.fallback); }))
      return;
    std::set<std::string_view> read;
    std::set<const nix::Formal*> scanned;
    names_read(*l.body, read);
    for (bool grew = true; grew;) {  // a default read through another formal's default
      grew = false;
      for (const auto& fm : l.formals)
        if (fm.fallback && read.count(fm.name) && scanned.insert(&fm).second) {
          size_t before = read.size();
          names_read(*fm.fallback, read);
          grew = grew || read.size() != before;
        }
    }
    for (const auto& fm : l.formals)
      if (fm.fallback && !read.count(fm.name)) unused_defaults_.push_back(fm.fallback->span);
  }

  static bool has_search_path(const Expr& e) {
    bool found = e.kind == ExprKind::search_path;
    if (!found)
      nix::for_each_child(e, "", [&](const Expr& c, std::string_view) { found = found || has_search_path(c); });
    return found;
  }

  /// Every variable \a e reads, `inherit x;` included.
  static void names_read(const Expr& e, std::set<std::string_view>& out) {
    if (e.kind == ExprKind::var) out.insert(static_cast<const nix::Name&>(e).name);
    if (e.kind == ExprKind::attrs || e.kind == ExprKind::let || e.kind == ExprKind::legacy_let)
      for (const auto& b : static_cast<const nix::Attrs&>(e).bindings)
        if (b.is_inherit && !b.from)
          for (const auto& n : b.path)
            if (!n.expr) out.insert(n.name);
    nix::for_each_child(e, "", [&](const Expr& c, std::string_view) { names_read(c, out); });
  }

  void lambda_binders(const nix::Lambda& l) {
    unused_defaults(l);
    if (is_python_name(l.arg)) f_.python_binders.push_back({"argument", l.arg, l.arg_span});
    for (const auto& fm : l.formals)
      if (is_python_name(fm.name)) {
        nix::Span sp = fm.span;
        sp.end = sp.begin + static_cast<uint32_t>(fm.name.size());
        f_.python_binders.push_back({"formal", fm.name, sp});
      }
  }

  // The arguments of `torch.overrideAttrs (…)` are walked knowing the attribute they override.
  void call(const nix::Call& c, std::string_view parent) {
    call_facts(c);
    std::string outer = override_attr_;
    auto attr = overridden_attribute(*c.fn);
    if (attr && in_let_value_) f_.inner_overrides.push_back({"override", *attr, c.span});
    override_arguments(c, attr);
    nix::for_each_child(c, parent, [&](const Expr& x, std::string_view b) {
      walk(x, b);
      if (&x == c.fn.get() && attr) override_attr_ = *attr;
    });
    override_attr_ = std::move(outer);
  }

  // A generated variant record: `package = "pytorch"; override = { … };`, whose
  // builder passes `override` to the package's .override (key "package:pytorch").
  void record_override(const nix::Attrs& a) {
    std::optional<std::string> package;
    const nix::Attrs* args = nullptr;
    for (const auto& b : a.bindings) {
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
      if (b.path[0].name == "package") package = static_string(*b.value);
      if (b.path[0].name == "override" && b.value->kind == ExprKind::attrs)
        args = static_cast<const nix::Attrs*>(b.value.get());
    }
    if (!package || !args) return;
    for (const auto& b : args->bindings)
      if (!b.is_inherit && !b.path.empty() && !b.path.front().expr)
        f_.override_args.push_back({"package:" + *package, b.path.front().name, b.path.front().span});
  }

  // `torch.override { cudaSupport = true; inherit magma; }`: the names it passes
  // (a function argument to .override is not read: its names are not static).
  void override_arguments(const nix::Call& c, const std::optional<std::string>& attr) {
    auto callee = callee_name(*c.fn);
    if (!attr || !callee || callee->first != "override" || c.args.empty()) return;
    const Expr& a = *c.args.front();
    if (a.kind != nix::ExprKind::attrs) return;
    const auto& set = static_cast<const nix::Attrs&>(a);
    if (set.recursive) return;
    for (const auto& b : set.bindings)
      if (!b.path.empty() && !b.path.front().expr) {
        if (b.is_inherit)
          for (const auto& n : b.path) f_.override_args.push_back({*attr, n.name, n.span});
        else
          f_.override_args.push_back({*attr, b.path.front().name, b.path.front().span});
      }
  }

  Piece piece(const nix::StringPart& p) const {
    bool exact = p.span.end <= text_.size() && text_.substr(p.span.begin, p.span.end - p.span.begin) == p.text;
    return {p.text, p.span.begin, exact};
  }

  nix::Span at(const Piece& p, size_t offset, size_t length) const {
    if (!p.exact) return lines_.span(p.begin, p.begin + p.text.size());
    return lines_.span(p.begin + offset, p.begin + offset + length);
  }

  /// The value of a string without interpolations; null otherwise.
  /// A string's literal text with `${…}` for interpolations.
  static std::string loose_string(const Expr& e) {
    std::string out;
    for (const auto& p : static_cast<const nix::String&>(e).parts) out += p.expr ? "${…}" : p.text;
    return out;
  }

  /// A string value, directly or through a let/attribute binding of a variable.
  std::optional<Fact> resolve_string(const Expr& e) const {
    if (auto s = static_string(e)) return Fact{"", *s, e.span};
    if (e.kind == ExprKind::var) {
      const std::string& n = static_cast<const nix::Name&>(e).name;
      auto it = strings_.find(n);
      if (it == strings_.end()) return std::nullopt;
      if (auto s = static_string(*it->second)) return Fact{n, *s, it->second->span};
    }
    return std::nullopt;
  }

  void scan_piece(const Piece& p) {
    const std::string_view s = p.text;
    // Compiler flags: whitespace-separated words starting with -m (most strings have none).
    for (size_t i = s.find("-m") == std::string_view::npos ? s.size() : 0; i < s.size();) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i && s.substr(i, j - i).find("-m") != std::string_view::npos) {
        std::string_view w = s.substr(i, j - i);
        // The flag may follow CXXFLAGS=" or a quote: -mavx2 in CXXFLAGS="-mavx2.
        size_t lead = 0;
        for (size_t k = 0; k + 1 < w.size(); ++k)
          if (w[k] == '-' && w[k + 1] == 'm' &&
              (k == 0 || std::string_view("\"'=(").find(w[k - 1]) != std::string_view::npos)) {
            lead = k;
            break;
          }
        w = w.substr(lead);
        while (!w.empty() && std::string_view("\"';),").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
        if (w.size() > 2 && w.starts_with("-m") && std::isalpha(static_cast<unsigned char>(w[2])))
          f_.cpu_flags.push_back({"", std::string(w), at(p, i + lead, w.size())});
      }
      i = j;
    }
    // Settings and urls sit on one line: match line by line, skipping monster lines.
    for (size_t start = 0; start < s.size();) {
      size_t end = s.find('\n', start);
      if (end == std::string::npos) end = s.size();
      if (end - start <= kMaxRegexLine) {
        const std::string_view line = s.substr(start, end - start);
        scan_settings(line, [&](size_t offset, std::string_view name, std::string_view value) {
          f_.env.push_back({std::string(name), std::string(value), at(p, start + offset, name.size())});
        });
        for_each_pin_url(line, [&](size_t offset, std::string_view rev) {
          add_pin(pin_at(std::string(rev), at(p, start + offset, rev.size())));
        });
      }
      start = end + 1;
    }
  }

  /// One fact per written revision: a url string is seen both on its own and
  /// with its sibling sha256, in either order.
  void add_pin(const PinFact& pin) {
    auto [it, fresh] = pin_index_.emplace(pin.span.begin, f_.pins.size());
    if (fresh) {
      f_.pins.push_back(pin);
      return;
    }
    PinFact& p = f_.pins[it->second];
    if (pin.sha256_written) {
      p.sha256_written = true;
      p.sha256_null = pin.sha256_null;
      p.sha256 = pin.sha256;
    }
  }

  static bool is_python_name(const std::string& n) { return is_python_set(n); }

  void name_use(const std::string& n, nix::Span span) {
    // Every identifier passes here: a cheap prefix test before any regex.
    if (is_python_set(n))
      f_.python_sets.push_back({"", n, span});
    else if (is_cuda_set(n))
      f_.cuda_overlays.push_back({"", n, span});
  }

  void add_name(std::string_view key, const Expr& value, bool inner_record = false) {
    auto s = resolve_string(value);
    if (!s) return;
    // A generated record's `variant = { name = …; }` is bound in let but names the result.
    // So does a generated `torchVariant = { name = …; }`: the record of a torch built inline.
    const bool inner = in_let_value_ && (key == "pname" || inner_record);
    auto& into = inner ? f_.inner_names : f_.names;
    if (!(inner ? inner_name_at_ : name_at_).insert(s->span.begin).second) return;
    into.push_back({std::string(key), s->text, s->span});
  }

  void string_list(const Expr& value, std::vector<Fact>& out, std::string_view key) {
    if (value.kind == ExprKind::var)
      if (auto it = lists_.find(static_cast<const nix::Name&>(value).name); it != lists_.end()) {
        string_list(*it->second, out, key);
        return;
      }
    if (value.kind != ExprKind::list) {
      if (auto s = resolve_string(value)) {
        out.push_back({std::string(key), s->text, s->span});
        if (&out == &f_.gpu_targets)
          f_.gpu_target_vars.push_back(value.kind == ExprKind::var ? static_cast<const nix::Name&>(value).name : "");
      }
      return;
    }
    for (const auto& x : static_cast<const nix::List&>(value).elems) {
      if (auto s = resolve_string(*x)) {
        out.push_back({std::string(key), s->text, s->span});
        if (&out == &f_.gpu_targets)
          f_.gpu_target_vars.push_back(x->kind == ExprKind::var ? static_cast<const nix::Name&>(*x).name : "");
      } else if (&out == &f_.gpu_targets && x->kind == ExprKind::var)
        f_.gpu_target_params.push_back({std::string(key), static_cast<const nix::Name&>(*x).name, x->span});
    }
  }

  void binding(std::string_view key, const Expr& value, std::string_view parent) {
    if (key == "pname" || key == "variantName" || (key == "name" && parent == "variant"))
      add_name(key, value);
    else if (key == "name" && in_let_value_ && parent.ends_with("Variant"))
      add_name(key, value, true);
    else if (key == "preConfigure")
      pre_configure(value);
    else if (key == "gpuTargets") {
      if (!f_.has_gpu_targets) f_.gpu_targets_span = value.span;
      f_.has_gpu_targets = true;
      string_list(value, f_.gpu_targets, key);
    } else if (key == "cudaCapabilities") {
      f_.has_cuda_capabilities = true;
      string_list(value, f_.cuda_capabilities, key);
    } else if (key == "cudaArches") {
      string_list(value, f_.cuda_arches, key);
    } else if (key == "platforms" || key == "platform") {
      string_list(value, f_.platforms, key);
    } else if (key == "description" && (value.kind == ExprKind::string || value.kind == ExprKind::ind_string)) {
      // A one-piece string points at its text, so positions inside it are exact.
      const auto& parts = static_cast<const nix::String&>(value).parts;
      nix::Span sp = value.span;
      if (parts.size() == 1 && !parts[0].expr && piece(parts[0]).exact)
        sp = lines_.span(parts[0].span.begin, parts[0].span.end);
      f_.descriptions.push_back({std::string(key), loose_string(value), sp});
    } else if (key == "longDescription" && (value.kind == ExprKind::string || value.kind == ExprKind::ind_string)) {
      long_description(static_cast<const nix::String&>(value));
    } else if (parent == "workarounds" && key.size() > 6 && key.ends_with("Source") && value.kind == ExprKind::attrs) {
      record_version(key.substr(0, key.size() - 6), static_cast<const nix::Attrs&>(value));
    } else if ((key == "torchVariant" || key == "magmaVariant") && static_string(value)) {
      f_.imports.push_back({std::string(key), "./" + *static_string(value) + ".nix", value.span});
    } else if (!key.empty() && std::isupper(static_cast<unsigned char>(key[0])) && key.find('_') != std::string::npos) {
      // USE_CUDNN = "0"; as an attribute of overrideAttrs (an environment variable).
      bool upper = std::all_of(key.begin(), key.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
      });
      if (upper) {
        if (auto s = static_string(value))
          f_.env.push_back({std::string(key), *s, value.span});
        else if (value.kind == ExprKind::int_lit)
          f_.env.push_back(
              {std::string(key), std::to_string(static_cast<const nix::IntLit&>(value).value), value.span});
      }
    }
  }

  /// `preConfigure = ''…'';` or `… + ''…'';` whose closing '' stands on its own line.
  void pre_configure(const Expr& value) {
    if (f_.pre_configure_insert) return;
    const Expr* e = &value;
    while (e->kind == ExprKind::binary && static_cast<const nix::Binary&>(*e).op == nix::BinaryOp::add)
      e = static_cast<const nix::Binary&>(*e).rhs.get();
    if (e->kind != ExprKind::ind_string || e->span.end < e->span.begin + 4 || e->span.end > text_.size()) return;
    std::string_view src = text_.substr(e->span.begin, e->span.end - e->span.begin);
    size_t close = src.size() - 2;
    size_t line_start = src.rfind('\n', close - 1);
    if (line_start == std::string_view::npos || line_start < 2) return;
    ++line_start;
    if (src.substr(line_start, close - line_start).find_first_not_of(" \t") != std::string_view::npos) return;
    // The indentation of the string's first non-blank line.
    std::string indent;
    for (size_t at = src.find('\n') + 1; at < line_start;) {
      size_t nl = src.find('\n', at);
      std::string_view line = src.substr(at, nl - at);
      size_t lead = line.find_first_not_of(" \t");
      if (lead != std::string_view::npos) {
        indent = std::string(line.substr(0, lead));
        break;
      }
      at = nl + 1;
    }
    if (indent.empty()) indent = std::string(src.substr(line_start, close - line_start)) + "  ";
    f_.pre_configure_insert = e->span.begin + static_cast<uint32_t>(line_start);
    f_.pre_configure_indent = indent;
  }

  void long_description(const nix::String& s) {
    for (const auto& p : s.parts) {
      if (p.expr) continue;
      Piece pc = piece(p);
      size_t start = 0;
      for (size_t k = 0; k <= pc.text.size(); ++k) {
        if (k == pc.text.size() || pc.text[k] == '\n') {
          std::string_view line = pc.text.substr(start, k - start);
          size_t lead = line.find_first_not_of(" \t");
          if (lead != std::string_view::npos)
            f_.descriptions.push_back(
                {"longDescription", std::string(line.substr(lead)), at(pc, start + lead, line.size() - lead)});
          start = k + 1;
        }
      }
    }
  }

  /// Facts that need the sibling bindings of one attribute set: a pin's url
  /// and sha256, a `nixpkgs = { rev; sha256; }` record, an env entry
  /// `{ name = "USE_CUDNN"; value = "0"; }`.
  void attrs_facts(const nix::Attrs& a, std::string_view parent) {
    // The few keys read here, found in one pass (every attribute set of every file comes here).
    enum Key { url, rev, repo, sha256, hash, name, value, kKeys };
    static constexpr std::string_view kNames[kKeys] = {"url", "rev", "repo", "sha256", "hash", "name", "value"};
    const Expr* k[kKeys] = {};
    size_t simple = 0;
    for (const auto& x : a.bindings) {
      if (x.is_inherit || x.path.size() != 1 || x.path[0].expr || !x.value) continue;
      ++simple;
      for (int i = 0; i < kKeys; ++i)
        if (x.path[0].name == kNames[i]) k[i] = x.value.get();
    }
    if (!k[url] && !k[rev] && !(k[name] && k[value])) return;
    auto sha = [&](PinFact& pin) {
      for (Key key : {sha256, hash}) {
        if (!k[key]) continue;
        pin.sha256_written = true;
        const Expr& v = *k[key];
        if (v.kind == ExprKind::var && static_cast<const nix::Name&>(v).name == "null") pin.sha256_null = true;
        if (auto s = resolve_string(v)) pin.sha256 = s->text;
      }
    };
    if (k[url]) {
      if (auto pin = url_pin(*k[url])) {
        sha(*pin);
        add_pin(*pin);
      }
    }
    if (k[rev]) {
      bool nixpkgs = parent == "nixpkgs" || (k[repo] && static_string(*k[repo]) == "nixpkgs");
      auto rev_fact = resolve_string(*k[rev]);
      if (nixpkgs && rev_fact && is_hex_rev(rev_fact->text)) {
        PinFact pin = pin_at(rev_fact->text, rev_fact->span);
        sha(pin);
        add_pin(pin);
      }
    }
    if (simple == 2 && k[name] && k[value]) {
      auto n = static_string(*k[name]), v = static_string(*k[value]);
      if (n && v && is_env_name(*n)) f_.env.push_back({*n, *v, k[name]->span});
    }
  }

  /// ".../nixpkgs/archive/REV.tar.gz", literally or with REV interpolated from a binding.
  std::optional<PinFact> url_pin(const Expr& url) {
    if (auto s = resolve_string(url)) {
      std::optional<PinFact> pin;
      for_each_pin_url(s->text, [&](size_t, std::string_view rev) {
        if (pin) return;
        nix::Span sp = s->span;
        // Point at the revision inside the string's source text.
        std::string_view src = text_.substr(sp.begin, sp.end - sp.begin);
        if (size_t k = src.find(rev); k != std::string_view::npos)
          sp = lines_.span(sp.begin + k, sp.begin + k + rev.size());
        pin = pin_at(std::string(rev), sp);
      });
      return pin;
    }
    if (url.kind != ExprKind::string) return std::nullopt;
    const auto& parts = static_cast<const nix::String&>(url).parts;
    for (size_t i = 1; i + 1 < parts.size(); ++i) {
      if (!parts[i].expr || parts[i - 1].expr || parts[i + 1].expr) continue;
      if (!parts[i - 1].text.ends_with("nixpkgs/archive/") || !parts[i + 1].text.starts_with(".tar.gz")) continue;
      if (parts[i - 1].text.find("ithub.com/") == std::string::npos) continue;
      if (auto rev = resolve_string(*parts[i].expr); rev && is_hex_rev(rev->text)) return pin_at(rev->text, rev->span);
    }
    return std::nullopt;
  }

  /// `version = …` beside `src = …`: what a source override builds.
  void source_version(const nix::Attrs& a) {
    const Expr* version = nullptr;
    const nix::AttrName* inherited = nullptr;  // `inherit version src;` from the let around it
    bool src = false;
    for (const auto& b : a.bindings) {
      if (b.is_inherit && !b.from) {
        for (const auto& n : b.path) {
          if (n.expr) continue;
          if (n.name == "version") inherited = &n;
          src = src || n.name == "src";
        }
      }
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
      if (b.path[0].name == "version") version = b.value.get();
      src = src || b.path[0].name == "src";
    }
    if ((!version && !inherited) || !src) return;
    if (!version) return inherited_version(*inherited);
    auto v = resolve_string(*version);
    f_.versions.push_back({override_attr_, v ? v->text : "", v ? v->span : version->span});
  }

  /// A generated record's `torchSource = { owner = …; version = …; }`: the version its builder fetches.
  void record_version(std::string_view attribute, const nix::Attrs& source) {
    const Expr* version = nullptr;
    bool owner = false;
    for (const auto& b : source.bindings) {
      if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
      if (b.path[0].name == "version") version = b.value.get();
      owner = owner || b.path[0].name == "owner";
    }
    if (!version || !owner) return;
    auto v = resolve_string(*version);
    f_.record_versions.push_back({std::string(attribute), v ? v->text : "", v ? v->span : version->span});
  }

  void inherited_version(const nix::AttrName& n) {
    auto it = strings_.find(n.name);
    auto v = it == strings_.end() ? std::nullopt : static_string(*it->second);
    f_.versions.push_back({override_attr_, v ? *v : "", v ? it->second->span : n.span});
  }

  static bool is_fetcher(std::string_view n) {
    return n == "fetchTarball" || n == "fetchurl" || n == "fetchzip" || n == "fetchFromGitHub" ||
           n == "fetchFromGitLab" || n == "fetchgit" || n == "fetchGit" || n == "fetchPypi";
  }

  void fetch_facts(const std::string& fetcher, nix::Span span, const Expr& arg) {
    FetchFact f{fetcher, span, false, false, false, {}, {}};
    std::string owner, repo;
    auto nixpkgs_url = [](std::string_view u) { return u.find("/nixpkgs/archive/") != std::string_view::npos; };
    if (arg.kind == ExprKind::string) {
      f.nixpkgs = nixpkgs_url(loose_string(arg));
      f.rev_read = url_pin(arg).has_value();
    } else if (arg.kind == ExprKind::attrs) {
      auto hash_key = [](std::string_view k) {
        return k == "sha256" || k == "hash" || k == "narHash" || k == "outputHash";
      };
      for (const auto& b : static_cast<const nix::Attrs&>(arg).bindings) {
        if (b.is_inherit)  // inherit (src) owner repo rev hash;
          for (const auto& n : b.path) f.hashed = f.hashed || (!n.expr && hash_key(n.name));
        if (b.is_inherit || b.path.size() != 1 || b.path[0].expr || !b.value) continue;
        const std::string& k = b.path[0].name;
        if (hash_key(k)) f.hashed = true;
        // A full commit id pins a git checkout's content as a hash does.
        if (k == "rev" && fetcher == "fetchGit")
          if (auto r = resolve_string(*b.value); r && r->text.size() == 40 && is_hex_rev(r->text)) f.hashed = true;
        if (k == "url" && b.value->kind == ExprKind::string) {
          f.nixpkgs = f.nixpkgs || nixpkgs_url(loose_string(*b.value));
          f.rev_read = f.rev_read || url_pin(*b.value).has_value();
        }
        if (k == "repo") f.nixpkgs = f.nixpkgs || static_string(*b.value) == "nixpkgs";
        if (k == "rev")
          if (auto r = resolve_string(*b.value); r && is_hex_rev(r->text)) f.rev_read = true;
        if (k == "owner" || k == "repo")
          if (auto v = resolve_string(*b.value)) (k == "owner" ? owner : repo) = v->text;
        if (k == "rev" || k == "tag")
          if (auto r = resolve_string(*b.value)) f.rev = {k, r->text, r->span};
      }
      if ((fetcher == "fetchFromGitHub" || fetcher == "fetchFromGitLab") && !owner.empty() && !repo.empty())
        f.source = owner + "/" + repo;
    } else {
      return;  // a variable or call: the arguments are elsewhere
    }
    f_.fetches.push_back(std::move(f));
  }

  void table_pick(const nix::Select& s) {
    if (s.subject->kind != ExprKind::call || s.path.empty() || s.path[0].expr) return;
    const auto& c = static_cast<const nix::Call&>(*s.subject);
    auto callee = callee_name(*c.fn);
    if (!callee || callee->first != "import" || c.args.size() != 1) return;
    if (auto p = static_path(*c.args[0])) f_.table_picks.push_back({*p, s.path[0].name, s.path[0].span});
  }

  void call_facts(const nix::Call& c) {
    auto callee = callee_name(*c.fn);
    if (!callee || c.args.empty()) return;
    const std::string& n = callee->first;
    if (is_fetcher(n)) fetch_facts(n, callee->second, *c.args[0]);
    bool importer = n == "import" || n == "callPackage";
    if (!importer) return;
    if (c.args[0]->kind == ExprKind::path) {
      const auto& p = static_cast<const nix::Path&>(*c.args[0]);
      if (p.is_home || p.first.starts_with("/")) f_.absolute_imports.push_back({"import", p.first, c.args[0]->span});
    }
    auto p = static_path(*c.args[0]);
    if (!p) return;
    f_.imports.push_back({"import", *p, c.args[0]->span});
    if (c.args.size() < 2 || c.args[1]->kind != ExprKind::attrs) return;
    CallFact call{*p, {}, {}};
    for (const auto& b : static_cast<const nix::Attrs&>(*c.args[1]).bindings) {
      if (b.is_inherit) {
        for (const auto& n : b.path)
          if (!n.expr) call.names.push_back({"", n.name, n.span});
        continue;
      }
      if (b.path.empty() || b.path[0].expr) continue;
      call.names.push_back({"", b.path[0].name, b.path[0].span});
      if (b.path.size() != 1 || !b.value) continue;
      if (auto s = resolve_string(*b.value)) call.args.push_back({b.path[0].name, s->text, s->span});
    }
    if (!call.args.empty() || !call.names.empty()) f_.calls.push_back(std::move(call));
  }

  /// `./x.nix`, or `./. + "/x.nix"`.
  static std::optional<std::string> static_path(const Expr& e) {
    if (e.kind == ExprKind::path) {
      const auto& p = static_cast<const nix::Path&>(e);
      if (p.is_home || !p.parts.empty() || !p.first.starts_with(".")) return std::nullopt;
      return p.first;
    }
    if (e.kind == ExprKind::binary) {
      const auto& b = static_cast<const nix::Binary&>(e);
      if (b.op != nix::BinaryOp::add) return std::nullopt;
      auto l = static_path(*b.lhs);
      auto r = static_string(*b.rhs);
      if (l && r) return *l + *r;
    }
    return std::nullopt;
  }

  std::string_view text_;
  LineIndex lines_;
  RecipeFacts& f_;
  /// String bindings by name (views of the syntax tree's names, which outlive the walk).
  std::unordered_map<std::string_view, const Expr*> strings_;
  std::unordered_map<std::string_view, const Expr*> lists_;  ///< let/set bindings whose value is a list literal
  std::set<std::string, std::less<>> python_aliases_;        ///< let-bound aliases of a selected Python set
  int in_let_value_ = 0;                                     ///< > 0 while walking the value of a let binding
  std::vector<nix::Span> unused_defaults_;                   ///< defaults of formals nothing reads
  std::string override_attr_;  ///< the attribute whose override's arguments are being walked
  // Where the facts already recorded start, so a fact seen twice is found without a scan of all of them.
  std::unordered_map<uint32_t, size_t> pin_index_;        ///< span.begin -> index in f_.pins
  std::unordered_set<uint32_t> name_at_, inner_name_at_;  ///< span.begin of f_.names, f_.inner_names
};

}  // namespace

bool sets_from_caller(const RecipeFacts& f, std::string_view set) {
  if (!f.pins.empty()) return false;
  for (const auto& s : f.search_paths)
    if (s.text == "nixpkgs") return false;
  return std::any_of(f.python_binders.begin(), f.python_binders.end(),
                     [&](const Fact& b) { return b.key == "formal" && (set.empty() || b.text == set); });
}

RecipeFacts extract_facts(std::string_view text, const nix::Expr& root, const std::vector<nix::Comment>& comments) {
  return extract_facts(text, root, comments, LineIndex(text));
}

RecipeFacts extract_facts(std::string_view text, const nix::Expr& root, const std::vector<nix::Comment>& comments,
                          LineIndex lines) {
  RecipeFacts f;
  Extractor x(text, std::move(lines), f);
  x.walk(root, "");
  if (root.kind == nix::ExprKind::lambda) {
    const auto& l = static_cast<const nix::Lambda&>(root);
    f.takes_set = l.has_formals && !l.ellipsis;
    if (f.takes_set)
      for (const auto& fm : l.formals) f.closed_formals.push_back({"formal", fm.name, fm.span});
  }
  f.comments = comment_lines(comments, text, x.lines());
  f.prune_sm_lists = prune_sm_lists(text, x.lines());
  return f;
}

}  // namespace tailor::recipe
