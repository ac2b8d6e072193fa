#include "import/builder_calls.hpp"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "util/version.hpp"

namespace tailor {

using nix::Evaluator;
using nix::Value;
using nix::ValueKind;
using nix::ValuePtr;

namespace {

// Built at first use, not at every start of the program: compiling a std::regex
// costs more than the rest of `tailor --version`.
// A fetch of nixpkgs as trees write it: github.com/NixOS/nixpkgs/archive/REV.tar.gz.
const std::regex& nixpkgs_url() {
  static const std::regex re(R"(^https://github\.com/NixOS/nixpkgs/archive/([0-9a-f]{40})\.tar\.gz$)");
  return re;
}
// Any GitHub tarball: its repository and revision.
const std::regex& github_tarball() {
  static const std::regex re(R"(^https://github\.com/([^/]+)/([^/]+)/archive/([^/]+)\.tar\.gz$)");
  return re;
}

// Everything the builder's result reaches: its sets, and the unknown values
// (fetches, imports, selects of pkgs) with their arguments. Lambdas met on the
// way (`overrideAttrs (old: { … })`, overlays) are applied to an unknown
// argument, so what they set is seen too. Bounded: the input is untrusted.
struct Walk {
  Evaluator& ev;
  int budget = 4000;
  // The least depth each value was met at: one met again nearer the result is walked again, or a
  // first meeting deep down a long path (cut at the depth limit) would hide what lies under it.
  std::map<const Value*, int> seen;
  std::vector<ValuePtr> sets, unknowns, strings;
  // Every value met is kept alive: a lambda's result made here and freed after its walk would let
  // the next one be allocated at the same address and be taken for seen (the second overlay of
  // `[ cudaOverlay ] ++ fixups.extraOverlays` was skipped so).
  std::vector<ValuePtr> alive;

  void go(const ValuePtr& v, int depth) {
    if (!v || depth > 24 || budget-- <= 0) return;
    auto [it, first] = seen.emplace(v.get(), depth);
    if (!first && it->second <= depth) return;
    it->second = depth;
    if (first) alive.push_back(v);
    // Met again nearer: walked again, but listed once.
    if (!first && (v->is(ValueKind::attrs) || v->is(ValueKind::unknown) || v->is(ValueKind::string))) {
      std::vector<ValuePtr>& list = v->is(ValueKind::attrs) ? sets : v->is(ValueKind::string) ? strings : unknowns;
      std::erase(list, v);
    }
    switch (v->kind) {
      case ValueKind::attrs:
        sets.push_back(v);
        for (const auto& [name, attr] : v->attrs) go(ev.force(attr.value), depth + 1);
        break;
      case ValueKind::list:
        for (const auto& t : v->list) go(ev.force(t), depth + 1);
        break;
      case ValueKind::lambda: {
        auto arg = std::make_shared<Value>();
        arg->text = "an argument the builder's caller gives";
        arg->name = v->lambda->arg.empty() ? "?" : v->lambda->arg;
        arg->where = v->where;
        go(ev.apply(v, Evaluator::ready(arg), v->where), depth + 1);
        break;
      }
      case ValueKind::unknown:
        unknowns.push_back(v);
        for (const auto& t : v->list) go(ev.force(t), depth + 1);
        go(v->base, depth + 1);
        break;
      case ValueKind::string: strings.push_back(v); break;
      default: break;
    }
  }
};

// What the builder sets that a spec does not hold, each once, at the place it is written.
std::vector<ReadFact> settings_of(Evaluator& ev, const Walk& w) {
  std::vector<ReadFact> out;
  std::set<std::string> seen;
  auto add = [&](std::string text, const nix::Where& where) {
    std::string at = ev.location(where);
    if (seen.insert(text + "@" + at).second) out.push_back(ReadFact{std::move(text), std::move(at), ""});
  };
  for (const auto& s : w.sets)
    for (const auto& [name, attr] : s->attrs) {
      if (name != "allowBroken" && name != "postPatch" && name != "patches") continue;
      ValuePtr v = ev.force(attr.value);
      if (name == "allowBroken" && v->is(ValueKind::boolean) && v->boolean)
        add("allowBroken = true", attr.name_at);
      else if (name == "patches" && v->is(ValueKind::list) && v->list.empty())
        add("patches = [ ] (the pin's patches dropped)", attr.name_at);
      else if (name == "postPatch" && !v->known())
        add(fmt::format("postPatch computed{}", v->name.empty() ? "" : " by " + v->name), attr.name_at);
    }
  // Build-version variables: `-DTORCH_BUILD_VERSION=0.25.0`, `export BUILD_VERSION=…`, version.txt.
  static const std::regex kBuildVersion(R"((-D)?[A-Z_]*BUILD_VERSION=[^ "'\n]*|version\.txt)");
  for (const auto& s : w.strings) {
    if (s->text.size() > 4096) continue;
    for (std::sregex_iterator m(s->text.begin(), s->text.end(), kBuildVersion), end; m != end; ++m)
      add(m->str(), s->where);
  }
  return out;
}

ReadFact fact_of(Evaluator& ev, const ValuePtr& v) {
  ReadFact f;
  if (!v) return f;
  f.at = ev.location(v->where);
  if (v->is(ValueKind::string))
    f.value = v->text;
  else
    f.why = v->known() ? fmt::format("it is {}, not a string", nix::kind_name(v->kind)) : v->text;
  return f;
}

ValuePtr first_arg(Evaluator& ev, const ValuePtr& call) {
  return call->list.empty() ? nullptr : ev.force(call->list.front());
}

// Whether \a v was made from \a from (a select, call or interpolation of it).
bool derived_from(const ValuePtr& v, const Value* from) {
  int n = 0;
  for (const Value* x = v.get(); x && n < 64; x = x->base.get(), ++n)
    if (x == from) return true;
  return false;
}

std::string last_segment(const std::string& name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

BuilderCalls::BuilderCalls(const lint::LintTree& tree)
    : ev_(tree.root, [this](const std::string& rel) -> std::optional<std::string> {
        auto it = files_.find(rel);  // read again only for the files evaluated (NixFile::text)
        if (it == files_.end()) return std::nullopt;
        return it->second->text();
      }) {
  for (const auto& f : tree.nix) files_[f.src.rel] = &f;
}

std::vector<std::string> BuilderCalls::stated_beside(const std::string& version) {
  std::vector<std::string> out;
  std::set<const Value*> seen;
  int budget = 20000;  // the tables are untrusted input
  std::function<void(const ValuePtr&, int)> look = [&](const ValuePtr& v, int depth) {
    if (!v || !v->is(ValueKind::attrs) || depth > 4 || budget <= 0 || !seen.insert(v.get()).second) return;
    std::vector<std::string> strings;
    int holds = 0;
    for (const auto& [name, attr] : v->attrs) {
      if (--budget <= 0) return;
      ValuePtr x = ev_.force(attr.value);
      if (x->is(ValueKind::string)) {
        if (x->text == version)
          ++holds;
        else if (Version::parse(x->text))
          strings.push_back(x->text);
      } else if (x->is(ValueKind::attrs)) {
        look(x, depth + 1);
      }
    }
    // A second attribute of the same version states it beside itself: torchaudio 2.10.0 pairs
    // with torch 2.10.0 (`{ taVersion = "2.10.0"; ptVersion = "2.10.0"; … }`).
    if (holds > 1) strings.push_back(version);
    if (holds > 0)
      for (const auto& x : strings)
        if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  };
  for (const auto& [name, value] : ev_.files_evaluated()) look(value, 0);
  return out;
}

const nix::Expr* BuilderCalls::body(const lint::NixFile& f) {
  ev_.reset_steps();
  ev_.file(f.src.rel);
  const nix::Expr* e = ev_.syntax(f.src.rel);
  // `{ pkgs ? import <nixpkgs> {} }: …`: Flox calls the file with arguments it never reads.
  if (e && e->kind == nix::ExprKind::lambda) e = static_cast<const nix::Lambda*>(e)->body.get();
  return e;
}

std::pair<const nix::Call*, ValuePtr> BuilderCalls::builder_call(const lint::NixFile& f) {
  const nix::Expr* e = body(f);
  if (!e || e->kind != nix::ExprKind::call) return {};
  auto call = static_cast<const nix::Call*>(e);
  if (call->fn->kind != nix::ExprKind::var || static_cast<const nix::Name*>(call->fn.get())->name != "import" ||
      call->args.size() != 2 || call->args[0]->kind != nix::ExprKind::path ||
      call->args[1]->kind != nix::ExprKind::attrs)
    return {};
  ValuePtr path = ev_.eval_in_file(call->args[0].get(), f.src.rel);
  if (!path->is(ValueKind::path) || !files_.count(path->text)) return {};
  return {call, path};
}

std::optional<BuilderCall> BuilderCalls::read(const lint::NixFile& f) {
  // `import ./lib/mkX.nix { … }`: the body is the call of a builder of the tree.
  auto [call, path] = builder_call(f);
  if (!call) return std::nullopt;

  BuilderCall out;
  out.file = f.src.rel;
  out.builder = path->text;
  ValuePtr args = ev_.eval_in_file(call->args[1].get(), f.src.rel);
  for (const auto& [name, attr] : args->attrs) {
    ValuePtr v = ev_.force(attr.value);
    if (v->is(ValueKind::string)) out.args[name] = fact_of(ev_, v);
  }
  read_result(out, ev_.eval_in_file(call, f.src.rel));
  return out;
}

std::optional<BuilderCall> BuilderCalls::read_recipe(const lint::NixFile& f) {
  if (builder_call(f).first) return std::nullopt;
  const nix::Expr* e = body(f);
  if (!e) return std::nullopt;
  BuilderCall out;
  out.file = out.builder = f.src.rel;
  read_result(out, ev_.eval_in_file(e, f.src.rel));
  return out;
}

void BuilderCalls::read_result(BuilderCall& out, const ValuePtr& result) {
  Walk w{ev_, 4000, {}, {}, {}, {}, {}};
  w.go(result, 0);

  // The set that names the package: pname and version.
  for (const auto& s : w.sets)
    if (ValuePtr p = ev_.get(s, "pname")) {
      out.pname = fact_of(ev_, p);
      if (ValuePtr v = ev_.get(s, "version")) out.version = fact_of(ev_, v);
      break;
    }
  if (!out.pname.known() && out.pname.why.empty())
    out.pname.why = fmt::format("the result of {} states no pname tailor can read", out.builder);
  if (!out.version.known() && out.version.why.empty())
    out.version.why =
        fmt::format("the result of {} states no version tailor can read, nor a source with a tag", out.builder);

  // Fetches: nixpkgs, other repositories; their imports; fetchFromGitHub.
  std::vector<std::pair<ValuePtr, ForeignRecipe>> tarballs;
  ValuePtr nixpkgs_fetch;  // what a package set imported from it is derived from
  out.nixpkgs_rev.why = fmt::format("{} fetches no nixpkgs tarball tailor can read", out.builder);
  for (const auto& u : w.unknowns) {
    const std::string seg = last_segment(u->name);
    if (u->name == "builtins.fetchTarball" && !u->list.empty()) {
      ValuePtr a = first_arg(ev_, u);
      ValuePtr url = a && a->is(ValueKind::string) ? a : ev_.get(a, "url");
      ValuePtr hash = ev_.get(a, "sha256");
      if (!hash) hash = ev_.get(a, "hash");
      ReadFact uf = fact_of(ev_, url);
      std::smatch m;
      if (uf.known() && std::regex_match(uf.value, m, nixpkgs_url())) {
        if (out.nixpkgs_rev.known() && out.nixpkgs_rev.value != m[1].str()) {
          out.nixpkgs_rev = ReadFact{
              "", uf.at,
              fmt::format("the builder fetches two nixpkgs revisions, {} and {}", out.nixpkgs_rev.value, m[1].str())};
          continue;
        }
        out.nixpkgs_rev = ReadFact{m[1].str(), uf.at, ""};
        nixpkgs_fetch = u;
        out.nixpkgs_hashed = hash && hash->is(ValueKind::string) && !hash->text.empty();
      } else if (uf.known()) {
        ForeignRecipe r;
        r.url = uf.value;
        r.at = ev_.location(u->where);
        if (std::regex_match(uf.value, m, github_tarball())) r.rev = m[3].str();
        if (hash && hash->is(ValueKind::string)) r.hash = hash->text;
        tarballs.emplace_back(u, std::move(r));
      } else if (!out.nixpkgs_rev.known()) {
        out.nixpkgs_rev.why =
            fmt::format("the URL of the tarball fetched at {} is unknown: {}", ev_.location(u->where), uf.why);
      }
    } else if (seg == "fetchFromGitHub" && !u->list.empty()) {
      ValuePtr a = first_arg(ev_, u);
      GitHubSource s;
      auto str = [&](const char* k) {
        ValuePtr v = ev_.get(a, k);
        return v && v->is(ValueKind::string) ? v->text : std::string();
      };
      s.owner = str("owner"), s.repo = str("repo"), s.rev = str("rev");
      s.hash = str("hash");
      if (s.hash.empty()) s.hash = str("sha256");
      // The hash was taken with the submodules: a source without them is another hash.
      ValuePtr sub = ev_.get(a, "fetchSubmodules");
      s.fetch_submodules = sub && sub->is(ValueKind::boolean) && sub->boolean;
      if (!s.owner.empty() && !s.repo.empty() && !s.rev.empty() && !out.source) {
        out.source = s;
        out.source_at = ev_.location(a->where);
      }
    }
  }
  // The imports of files inside those tarballs, and what they are called with.
  for (auto& [fetch, recipe] : tarballs) {
    for (const auto& u : w.unknowns) {
      if (u->name != "import" || u->list.empty() || !derived_from(u, fetch.get())) continue;
      ValuePtr a = first_arg(ev_, u);
      recipe.import_at = ev_.location(u->where);
      if (a && a->is(ValueKind::attrs))
        for (const auto& [name, attr] : a->attrs) {
          ValuePtr v = ev_.force(attr.value);
          if (v->is(ValueKind::string))
            recipe.args[name] = fact_of(ev_, v);
          else if (v->is(ValueKind::null))
            recipe.null_args.push_back(name);
          else if (nixpkgs_fetch && v->name == "import" && derived_from(v, nixpkgs_fetch.get()))
            recipe.pkgs_args.push_back(name);
          else
            recipe.other_args[name] = v->known() ? nix::kind_name(v->kind) : "unknown: " + v->text;
        }
      // The file imported: "${root}/recipes/torch.nix", as written.
      const Value* imported = u->base && u->base->name == "import" ? u->base->base.get() : nullptr;
      static const std::regex kInside(R"(^/(\.?[A-Za-z0-9_+-][A-Za-z0-9_.+-]*/)*\.?[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$)");
      if (imported && std::regex_match(imported->suffix, kInside)) {
        recipe.path = imported->suffix.substr(1);  // "${toString root}/.flox/pkgs/${name}.nix", evaluated
      } else if (imported && imported->where.file && files_.count(*imported->where.file)) {
        const std::string& text = files_.at(*imported->where.file)->text();
        const nix::Span& sp = imported->where.span;
        static const std::regex kRootSlashPath(R"re(^"\$\{[A-Za-z_][A-Za-z0-9_'-]*\}/([A-Za-z0-9_.+/-]+)"$)re");
        std::smatch pm;
        std::string written =
            sp.end <= text.size() && sp.begin < sp.end ? text.substr(sp.begin, sp.end - sp.begin) : "";
        if (std::regex_match(written, pm, kRootSlashPath)) recipe.path = pm[1];
      }
      // What it is passed as: an attribute whose value is the recipe's result.
      for (const auto& set : w.sets)
        for (const auto& [name, attr] : set->attrs)
          if (ValuePtr v = ev_.force(attr.value);
              v && derived_from(v, u.get()) && v->is(ValueKind::unknown) &&
              std::find(recipe.passed_as.begin(), recipe.passed_as.end(), name) == recipe.passed_as.end())
            recipe.passed_as.push_back(name);
      break;
    }
    // The version the call builds: stated, else the tag of its source ("v0.26.0").
    std::string built = out.version.value;
    if (built.empty() && out.source)
      built = out.source->rev.starts_with("v") ? out.source->rev.substr(1) : out.source->rev;
    if (Version::parse(built)) recipe.stated_versions = stated_beside(built);
    out.foreign.push_back(std::move(recipe));
  }
  out.settings = settings_of(ev_, w);
  // The CUDA package set the overlay selects: a select of a cudaPackages_* name.
  out.overlay.why = fmt::format("{} selects no CUDA package set tailor can read", out.builder);
  static const std::regex kCudaSet(R"(^cudaPackages(_[0-9]+)+$)");
  for (const auto& u : w.unknowns) {
    std::string seg = last_segment(u->name);
    if (std::regex_match(seg, kCudaSet) && u->base) {
      out.overlay = ReadFact{seg, ev_.location(u->where), ""};
      break;
    }
  }
}

}  // namespace tailor
