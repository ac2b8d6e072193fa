#include "import/import_overrides.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/rules.hpp"
#include "nix/parser.hpp"
#include "nix/visit.hpp"
#include "recipe/node_values.hpp"
#include "recipe/recipe_facts.hpp"
#include "util/quote.hpp"
#include "util/version.hpp"

namespace tailor {

using lint::LintTree;
using lint::NixFile;
using recipe::SourceFile;

namespace {

using nix::Expr;
using nix::ExprKind;

constexpr int kMaxDepth = 32;  // variable chains followed; deeper is no readable value

/// The single-name bindings of a set or let, name -> value.
std::map<std::string, const Expr*, std::less<>> bindings_of(const nix::Attrs& a) {
  std::map<std::string, const Expr*, std::less<>> out;
  for (const auto& b : a.bindings)
    if (!b.is_inherit && b.path.size() == 1 && !b.path[0].expr && b.value) out.emplace(b.path[0].name, b.value.get());
  return out;
}

/// `FETCHCONTENT_SOURCE_DIR_ONNX=` at the end of \a literal: "onnx".
std::string fetch_content_name(std::string_view literal) {
  static constexpr std::string_view kKey = "FETCHCONTENT_SOURCE_DIR_";
  if (!literal.ends_with('=')) return "";
  size_t at = literal.rfind(kKey);
  if (at == std::string_view::npos) return "";
  std::string name(literal.substr(at + kKey.size(), literal.size() - at - kKey.size() - 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

/// Walks a recipe and records the overrides that set a version.
class OverrideReader {
 public:
  std::vector<RecipeOverride> found;

  void walk(const Expr& e) {
    if (e.kind == ExprKind::attrs || e.kind == ExprKind::let || e.kind == ExprKind::legacy_let)
      return attrs(static_cast<const nix::Attrs&>(e));
    if (e.kind == ExprKind::call) return call(static_cast<const nix::Call&>(e));
    nix::for_each_child(e, {}, [this](const Expr& c, std::string_view) { walk(c); });
  }

 private:
  void attrs(const nix::Attrs& a) {
    bool scoped = a.kind != ExprKind::attrs || a.recursive;
    if (scoped) scopes_.push_back(bindings_of(a));
    if (a.kind == ExprKind::attrs && !attribute_.empty()) override_set(a);
    if (a.kind == ExprKind::attrs) record_sources(a);
    nix::for_each_child(a, {}, [this](const Expr& c, std::string_view) { walk(c); });
    if (scoped) scopes_.pop_back();
  }

  // `(finalAttrs: old: { … })`: finalAttrs.version is the set's own.
  void call(const nix::Call& c) {
    walk(*c.fn);
    std::string attribute = attribute_, final = final_;
    if (auto a = recipe::overridden_attribute(*c.fn)) {
      attribute_ = *a;
      final_ = final_name(c);
    }
    for (const auto& x : c.args) walk(*x);
    attribute_ = std::move(attribute);
    final_ = std::move(final);
  }

  static std::string final_name(const nix::Call& c) {
    if (c.args.empty() || c.args[0]->kind != ExprKind::lambda) return "";
    const auto& l = static_cast<const nix::Lambda&>(*c.args[0]);
    return l.body->kind == ExprKind::lambda ? l.arg : "";
  }

  const Expr* lookup(std::string_view name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (auto it = s->find(name); it != s->end()) return it->second;
    return nullptr;
  }

  /// \a e with variables (and finalAttrs.x) replaced by what they are bound to.
  const Expr* deref(const Expr* e, int depth = 0) const {
    for (; e && depth < kMaxDepth; ++depth) {
      const Expr* next = nullptr;
      if (e->kind == ExprKind::var) next = lookup(static_cast<const nix::Name&>(*e).name);
      if (e->kind == ExprKind::select) next = own_attribute(static_cast<const nix::Select&>(*e));
      if (!next) return e;
      e = next;
    }
    return nullptr;
  }

  const Expr* own_attribute(const nix::Select& s) const {
    if (!self_ || final_.empty() || s.path.size() != 1 || s.path[0].expr || s.fallback) return nullptr;
    if (s.subject->kind != ExprKind::var || static_cast<const nix::Name&>(*s.subject).name != final_) return nullptr;
    auto own = bindings_of(*self_);
    auto it = own.find(s.path[0].name);
    return it == own.end() ? nullptr : it->second;
  }

  /// The text of a string whose interpolations are bound strings.
  std::optional<std::string> text(const Expr& e, int depth = 0) const {
    const Expr* d = deref(&e);
    if (d && d->kind == ExprKind::binary && static_cast<const nix::Binary&>(*d).op == nix::BinaryOp::add)
      return joined(static_cast<const nix::Binary&>(*d), depth);
    if (!d || depth > kMaxDepth || (d->kind != ExprKind::string && d->kind != ExprKind::ind_string))
      return std::nullopt;
    std::string out;
    for (const auto& p : static_cast<const nix::String&>(*d).parts) {
      if (!p.expr) {
        out += p.text;
        continue;
      }
      auto t = text(*p.expr, depth + 1);
      if (!t) return std::nullopt;
      out += *t;
    }
    return out;
  }

  /// `"v" + torchVersion`
  std::optional<std::string> joined(const nix::Binary& b, int depth) const {
    auto l = text(*b.lhs, depth + 1), r = text(*b.rhs, depth + 1);
    if (!l || !r) return std::nullopt;
    return *l + *r;
  }

  std::optional<bool> boolean(const Expr& e) const {
    const Expr* d = deref(&e);
    if (!d || d->kind != ExprKind::var) return std::nullopt;
    const std::string& n = static_cast<const nix::Name&>(*d).name;
    if (n == "true" || n == "false") return n == "true";
    return std::nullopt;
  }

  /// A fetchFromGitHub call with a set argument; null for anything else.
  const nix::Call* github_call(const Expr& e) const {
    const Expr* d = deref(&e);
    if (!d || d->kind != ExprKind::call) return nullptr;
    const auto& c = static_cast<const nix::Call&>(*d);
    auto callee = recipe::callee_name(*c.fn);
    if (!callee || callee->first != "fetchFromGitHub" || c.args.size() != 1) return nullptr;
    const Expr* arg = deref(c.args[0].get());
    return arg && arg->kind == ExprKind::attrs ? &c : nullptr;
  }

  GitHubSource github(const nix::Call& c, std::string& problem) const {
    return github(static_cast<const nix::Attrs&>(*deref(c.args[0].get())), problem);
  }

  GitHubSource github(const nix::Attrs& fetch, std::string& problem) const {
    auto own = bindings_of(fetch);
    auto field = [&](std::initializer_list<const char*> keys) -> std::string {
      for (const char* k : keys)
        if (auto it = own.find(k); it != own.end()) {
          if (auto t = text(*it->second)) return *t;
          if (problem.empty()) problem = fmt::format("its src's {} is no string the recipe spells out", k);
          return "";
        }
      if (problem.empty()) problem = fmt::format("its src has no {}", *keys.begin());
      return "";
    };
    GitHubSource s;
    s.owner = field({"owner"});
    s.repo = field({"repo"});
    s.rev = field({"rev", "tag"});
    s.hash = field({"hash", "sha256"});
    if (auto it = own.find("fetchSubmodules"); it != own.end())
      s.fetch_submodules = boolean(*it->second).value_or(false);
    if (problem.empty() && !is_nix_sha256(s.hash))
      problem = fmt::format("its src's hash '{}' is not a sha256 Nix accepts", s.hash);
    return s;
  }

  /// "fetchurl { … }", "a variable": what a src is, for messages.
  std::string what(const Expr& e) const {
    const Expr* d = deref(&e);
    if (d && d->kind == ExprKind::call)
      if (auto callee = recipe::callee_name(*static_cast<const nix::Call&>(*d).fn)) return callee->first + " { … }";
    return d && d->kind == ExprKind::var ? static_cast<const nix::Name&>(*d).name : "an expression";
  }

  void read_source(const Expr* src, RecipeOverride& o) const {
    const nix::Call* c = src ? github_call(*src) : nullptr;
    if (c) {
      o.fetch = github(*c, o.problem);
    } else if (o.problem.empty()) {
      o.problem =
          src ? fmt::format("its src is {}, not a fetchFromGitHub whose arguments the recipe spells out", what(*src))
              : "it gives a version without a src";
    }
  }

  void read_patches(const Expr* patches, RecipeOverride& o) const {
    if (!patches) return;
    const Expr* d = deref(patches);
    if (d && d->kind == ExprKind::list && static_cast<const nix::List&>(*d).elems.empty()) {
      o.clear_patches = true;
    } else if (o.problem.empty()) {
      o.problem = "it sets patches a spec cannot state (only `patches = [ ];`)";
    }
  }

  /// Sources handed to CMake's FetchContent in the set's strings; a source
  /// fetched any other way is a problem.
  void read_extras(const Expr& e, RecipeOverride& o, int depth = 0) const {
    const Expr* d = deref(&e);
    if (!d || depth > kMaxDepth) return;
    if (d->kind == ExprKind::string || d->kind == ExprKind::ind_string) return string_extras(*d, o, depth);
    if (github_call(*d)) {
      if (o.problem.empty())
        o.problem = "it fetches a further source a spec cannot pass on (only FETCHCONTENT_SOURCE_DIR_<NAME>)";
      return;
    }
    nix::for_each_child(*d, {}, [&](const Expr& c, std::string_view) { read_extras(c, o, depth + 1); });
  }

  void string_extras(const Expr& s, RecipeOverride& o, int depth) const {
    std::string before;
    for (const auto& p : static_cast<const nix::String&>(s).parts) {
      if (!p.expr) {
        before = p.text;
        continue;
      }
      const nix::Call* c = github_call(*p.expr);
      std::string name = fetch_content_name(before);
      if (c && !name.empty())
        o.extra_sources.push_back({name, github(*c, o.problem)});
      else
        read_extras(*p.expr, o, depth + 1);
      before.clear();
    }
  }

  /// The set's bindings with its inherits: `inherit (vllmSrc) version src;`
  /// reads vllmSrc's; what cannot be read stands as the set itself (no string).
  std::map<std::string, const Expr*, std::less<>> own_bindings(const nix::Attrs& a) const {
    auto out = bindings_of(a);
    for (const auto& b : a.bindings) {
      if (!b.is_inherit) continue;
      const Expr* from = b.from ? deref(b.from.get()) : nullptr;
      auto from_set = from && from->kind == ExprKind::attrs ? bindings_of(static_cast<const nix::Attrs&>(*from))
                                                            : std::map<std::string, const Expr*, std::less<>>{};
      for (const auto& n : b.path) {
        if (n.expr) continue;
        const Expr* v = b.from ? (from_set.count(n.name) ? from_set.at(n.name) : nullptr) : lookup(n.name);
        out.emplace(n.name, v ? v : &a);
      }
    }
    return out;
  }

  void override_set(const nix::Attrs& a) {
    auto own = own_bindings(a);
    auto version = own.find("version");
    if (version == own.end()) return;
    self_ = &a;
    RecipeOverride o;
    o.attribute = attribute_;
    if (auto v = text(*version->second)) o.version = *v;
    if (o.version.empty() || !Version::parse(o.version))
      o.problem = "its version is no version number the recipe spells out";
    auto at = [&](const char* k) { return own.count(k) ? own.at(k) : nullptr; };
    read_source(at("src"), o);
    read_patches(at("patches"), o);
    for (const auto& [k, v] : own)
      if (k != "src" && k != "version" && k != "patches") read_extras(*v, o);
    found.push_back(std::move(o));
    self_ = nullptr;
  }

  /// tailor's own variant records: `workarounds = { torchSource = { owner = …; version = …; }; clearPatches = true; }`.
  void record_sources(const nix::Attrs& a) {
    auto own = bindings_of(a);
    for (const auto& [key, value] : own) {
      if (key.size() <= 6 || !key.ends_with("Source") || value->kind != ExprKind::attrs) continue;
      const auto& fetch = static_cast<const nix::Attrs&>(*value);
      auto fields = bindings_of(fetch);
      if (!fields.count("owner") || !fields.count("version")) continue;
      RecipeOverride o;
      o.from_record = true;
      o.attribute = key.substr(0, key.size() - 6);
      o.version = text(*fields.at("version")).value_or("");
      if (o.version.empty() || !Version::parse(o.version))
        o.problem = "its version is no version number the recipe spells out";
      o.fetch = github(fetch, o.problem);
      if (auto c = own.find("clearPatches"); c != own.end()) o.clear_patches = boolean(*c->second).value_or(false);
      found.push_back(std::move(o));
    }
  }

  std::vector<std::map<std::string, const Expr*, std::less<>>> scopes_;
  std::string attribute_;  ///< the attribute whose override's arguments are walked
  std::string final_;      ///< the override function's finalAttrs argument
  const nix::Attrs* self_ = nullptr;
};

}  // namespace

bool RecipeOverride::same_build(const RecipeOverride& o) const {
  auto sorted = [](std::vector<ExtraSource> xs) {
    std::sort(xs.begin(), xs.end());
    return xs;
  };
  return attribute == o.attribute && version == o.version && fetch == o.fetch && clear_patches == o.clear_patches &&
         sorted(extra_sources) == sorted(o.extra_sources);
}

std::string RecipeOverride::describe() const {
  std::string v = version.empty() ? "another version" : version;
  if (fetch.owner.empty()) return fmt::format("{} {}", attribute, v);
  return fmt::format("{} {} from {}/{} {}", attribute, v, fetch.owner, fetch.repo, fetch.rev);
}

std::vector<RecipeOverride> read_recipe_overrides(std::string_view path, std::string_view text) {
  nix::SymbolTable symbols;
  nix::ParseResult r = nix::parse(path, text, symbols);
  if (!r.expr) return {};
  OverrideReader reader;
  reader.walk(*r.expr);
  // Nix strings hold any bytes; a spec is TOML, which holds UTF-8 text only.
  for (auto& o : reader.found) {
    std::vector<std::string_view> texts = {o.version, o.fetch.owner, o.fetch.repo, o.fetch.rev, o.fetch.hash};
    for (const auto& x : o.extra_sources)
      texts.insert(texts.end(), {x.name, x.fetch.owner, x.fetch.repo, x.fetch.rev, x.fetch.hash});
    if (o.problem.empty() && !std::all_of(texts.begin(), texts.end(), is_utf8))
      o.problem = "its source is not UTF-8 text, which a spec cannot hold";
  }
  return reader.found;
}

TreeOverrides::TreeOverrides(const LintTree& tree) : tree_(tree) {
  for (const auto& f : tree.nix) read_[&f] = read_recipe_overrides(f.display, f.text());
}

// A builder's version that is no string of its own is its parameter (tailor's
// own builders take it from the variant record): the recipe gives it, not the builder.
std::vector<RecipeOverride> TreeOverrides::of(const NixFile& recipe) const {
  std::vector<RecipeOverride> out;
  for (const NixFile* f : reached_from(tree_, recipe))
    if (auto it = read_.find(f); it != read_.end())
      for (const auto& o : it->second)
        if (f == &recipe || Version::parse(o.version)) out.push_back(o);
  return out;
}

namespace {

std::string shipped(const KnowledgeBase& kb, const std::string& pin, const std::string& attribute) {
  const NixpkgsPin* p = kb.pin(pin);
  const Version* v = p ? p->version(attribute) : nullptr;
  return v ? v->str() : "";
}

// Whether the sources disagree on the version of \a attribute the pin ships: an
// override of it is kept, never judged a no-op on the strength of one of them.
bool disputed(const KnowledgeBase& kb, const std::string& pin, const std::string& attribute) {
  const NixpkgsPin* p = kb.pin(pin);
  return p && p->version_dispute(attribute);
}

/// The recipe's override of \a attribute that changes what its pin ships; null: it builds the pin's.
const RecipeOverride* override_of(const RecipeSources& r, const std::string& attribute, const KnowledgeBase& kb) {
  for (const auto& o : r.overrides)
    if (o.attribute == attribute &&
        (!o.problem.empty() || o.version != shipped(kb, r.pin, attribute) || disputed(kb, r.pin, attribute)))
      return &o;
  return nullptr;
}

bool builds(const RecipeSources& r, const std::string& attribute, const KnowledgeBase& kb) {
  const PackageDef* p = kb.package(r.package);
  if (!p) return false;
  auto built = built_packages(*p, kb);
  return std::any_of(built.begin(), built.end(), [&](const PackageDef* b) { return b->attribute == attribute; });
}

// A recipe building the attribute, and its override (null: the pin's version).
struct Build {
  const RecipeSources* recipe;
  const RecipeOverride* o;
};

std::string spec_builds(const KnowledgeBase& kb, const RecipeSources& r, const std::string& attribute) {
  std::string v = shipped(kb, r.pin, attribute);
  return v.empty()
             ? fmt::format("the {} of nixpkgs {} (the knowledge base does not record its version)", attribute, r.pin)
             : fmt::format("{} {} (what nixpkgs {} ships)", attribute, v, r.pin);
}

std::string pin_ships(const KnowledgeBase& kb, const RecipeSources& r, const std::string& attribute) {
  std::string v = shipped(kb, r.pin, attribute);
  return v.empty() ? fmt::format("the knowledge base does not record which {} nixpkgs {} ships", attribute, r.pin)
                   : fmt::format("nixpkgs {} ships {} {}", r.pin, attribute, v);
}

/// Why \a b's override cannot be the spec's: its own problem, or another recipe building otherwise.
std::string why_not(const Build& b, const std::vector<Build>& all, const std::string& attribute,
                    const KnowledgeBase& kb) {
  if (!b.o->problem.empty()) return b.o->problem;
  for (const auto& other : all) {
    if (other.o && b.o->same_build(*other.o)) continue;
    std::string what =
        other.o ? other.o->describe() : "the pin's " + attribute + " " + shipped(kb, other.recipe->pin, attribute);
    return fmt::format("{} builds {}, and a spec builds one {} for every recipe", other.recipe->file, what, attribute);
  }
  return fmt::format("no family of the spec builds {}", attribute);
}

std::string fetch_toml(const GitHubSource& s) {
  std::string out = fmt::format("owner = {}\nrepo = {}\nrev = {}\nhash = {}\n", toml_string(s.owner),
                                toml_string(s.repo), toml_string(s.rev), toml_string(s.hash));
  return s.fetch_submodules ? out + "fetch_submodules = true\n" : out;
}

std::string override_toml(const RecipeOverride& o, const std::string& pins_ship) {
  std::string out = fmt::format(
      "\n# Read from the recipes: {}, where {}.\n[[source_override]]\nattribute = {}\nversion = {}\n",
      comment_text(o.describe()), comment_text(pins_ship), toml_string(o.attribute), toml_string(o.version));
  out += fetch_toml(o.fetch);
  if (o.clear_patches) out += "clear_patches = true\n";
  for (const auto& x : o.extra_sources)
    out += fmt::format("\n[[source_override.extra_source]]\nname = {}\n{}", toml_string(x.name), fetch_toml(x.fetch));
  return out;
}

bool decided(const RecipeSources& r, const std::string& attribute) {
  return std::find(r.decided.begin(), r.decided.end(), attribute) != r.decided.end();
}

std::vector<Build> builds_of(const std::vector<RecipeSources>& recipes, const std::string& attribute,
                             const KnowledgeBase& kb) {
  std::vector<Build> out;
  for (const auto& r : recipes)
    if (const RecipeOverride* o = override_of(r, attribute, kb);
        !decided(r, attribute) && (o || builds(r, attribute, kb)))
      out.push_back({&r, o});
  return out;
}

/// Whether \a o is what a generated tree's [branch] request ([branch] torch = "2.10.0") built:
/// read from tailor's variant records, and a workaround of the knowledge base fetches
/// that source on every recipe's pin. Hand-written recipes keep their explicit override.
bool workaround_builds(const std::vector<Build>& all, const RecipeOverride& o, const KnowledgeBase& kb) {
  if (!o.from_record) return false;
  auto same = [&](const Workaround& w, const std::string& pin) {
    const auto& s = w.source_override;
    return s && s->attribute == o.attribute && s->version == o.version && s->fetch == o.fetch &&
           std::find(w.pins.begin(), w.pins.end(), pin) != w.pins.end() &&
           std::find(w.requested.begin(), w.requested.end(), std::pair{o.attribute, o.version}) != w.requested.end();
  };
  return std::all_of(all.begin(), all.end(), [&](const Build& b) {
    return std::any_of(kb.workarounds.begin(), kb.workarounds.end(),
                       [&](const Workaround& w) { return same(w, b.recipe->pin); });
  });
}

void import_attribute(const std::vector<Build>& all, const std::string& attribute, const KnowledgeBase& kb,
                      ImportedOverrides& out) {
  bool known = std::any_of(all.begin(), all.end(), [&](const Build& b) { return builds(*b.recipe, attribute, kb); });
  bool agreed = known && std::all_of(all.begin(), all.end(), [&](const Build& b) {
                  return b.o && b.o->problem.empty() && b.o->same_build(*all.front().o);
                });
  if (agreed && workaround_builds(all, *all.front().o, kb)) {
    out.requested.emplace_back(attribute, all.front().o->version);
    return;
  }
  if (agreed) {
    std::set<std::string> ships;
    for (const auto& b : all) ships.insert(pin_ships(kb, *b.recipe, attribute));
    out.toml += override_toml(*all.front().o, fmt::format("{}", fmt::join(ships, "; ")));
    return;
  }
  for (const auto& b : all)
    if (b.o)
      out.refusals.push_back(fmt::format("{}: cannot reproduce: builds {}, but {}; the spec would build {}",
                                         b.recipe->file, b.o->describe(),
                                         known ? why_not(b, all, attribute, kb) : why_not(b, {}, attribute, kb),
                                         spec_builds(kb, *b.recipe, attribute)));
}

// Recipes that build \a attribute as their pin ships it, where the pin's sources
// disagree on that version: the version their headers state decides it.
void import_disputed(const std::vector<Build>& all, const std::string& attribute, const KnowledgeBase& kb,
                     ImportedOverrides& out) {
  const PackageDef* p = nullptr;
  for (const auto& d : kb.packages)
    if (d.attribute == attribute && d.version_in_pins) p = &d;
  if (!p || all.empty()) return;
  std::set<std::string> stated;
  const NixpkgsPin* pin = nullptr;
  const FactEvidence* dispute = nullptr;
  for (const auto& b : all) {
    if (b.o) return;  // built from a source: import_attribute speaks for it
    const NixpkgsPin* k = kb.pin(b.recipe->pin);
    const FactEvidence* d = k ? k->version_dispute(attribute) : nullptr;
    if (!d) continue;
    pin = k;
    dispute = d;
    stated.merge(stated_claims(b.recipe->header, p->display, *d));
  }
  if (!dispute) return;
  if (stated.size() == 1) {
    out.requested.emplace_back(attribute, *stated.begin());
    return;
  }
  out.refusals.push_back(dispute_warning(
      *pin, *dispute,
      stated.empty()
          ? fmt::format("the recipes do not say which {} they build, so the spec cannot decide it", attribute)
          : fmt::format("the recipes say {} {}, so the spec cannot decide it", attribute, fmt::join(stated, " and "))));
}

}  // namespace

std::set<std::string> stated_claims(const std::vector<std::string>& header, const std::string& display,
                                    const FactEvidence& dispute) {
  // "PyTorch 2.9.1" in a line, the version not running on into more digits ("PyTorch 2.9.10").
  auto states = [&](const std::string& line, const std::string& version) {
    std::string want = display + " " + version;
    for (size_t k = line.find(want); k != std::string::npos; k = line.find(want, k + 1)) {
      size_t e = k + want.size();
      if (e == line.size() || !(std::isdigit(static_cast<unsigned char>(line[e])) || line[e] == '.')) return true;
    }
    return false;
  };
  std::set<std::string> out;
  for (const auto& c : dispute.claims)
    for (const auto& line : header)
      if (states(line, c.value)) out.insert(c.value);
  return out;
}

ImportedOverrides import_overrides(const std::vector<RecipeSources>& recipes, const KnowledgeBase& kb) {
  std::set<std::string> attributes;
  for (const auto& r : recipes)
    for (const auto& o : r.overrides)
      if (!decided(r, o.attribute) && override_of(r, o.attribute, kb)) attributes.insert(o.attribute);
  ImportedOverrides out;
  for (const auto& a : attributes) import_attribute(builds_of(recipes, a, kb), a, kb, out);
  for (const auto& p : kb.packages)  // versions the recipes leave to a pin whose sources disagree on them
    if (p.version_in_pins && !attributes.count(p.attribute) &&
        std::none_of(out.requested.begin(), out.requested.end(), [&](const auto& r) { return r.first == p.attribute; }))
      import_disputed(builds_of(recipes, p.attribute, kb), p.attribute, kb, out);
  return out;
}

}  // namespace tailor
