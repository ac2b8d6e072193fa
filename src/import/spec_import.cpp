#include "import/spec_import.hpp"
#include "import/isa_rules.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/builder_calls.hpp"
#include "import/import_builder_calls.hpp"
#include "import/import_overrides.hpp"
#include "import/import_versions.hpp"
#include "import/layout_note.hpp"
#include "kb/platform.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "matrix/variant.hpp"
#include "util/quote.hpp"

namespace tailor {

using lint::LintTree;
using lint::NixFile;
using lint::Problem;
using recipe::Fact;
using recipe::SourceFile;

namespace {

std::string toml_str(const std::string& s) { return toml_string(s); }

std::string toml_list(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& s : v) q.push_back(toml_str(s));
  return v.size() == 1 ? q[0] : fmt::format("[{}]", fmt::join(q, ", "));
}

template <class T>
std::string majority(const std::map<std::string, T>& counts) {
  std::string best;
  for (const auto& [k, n] : counts)
    if (best.empty() || n > counts.at(best)) best = k;
  return best;
}

/// KB order (capability order for SMs, file order for ISAs), not string order.
std::vector<std::string> ordered(const std::set<std::string>& values, const std::vector<std::string>& order) {
  std::vector<std::string> out;
  for (const auto& o : order)
    if (values.count(o)) out.push_back(o);
  return out;
}

struct Key {
  std::string package, backend, cuda, pin, python, spelling;
  bool versioned = false;  ///< names carry a version word: the versions name their pins
  std::string sm_set;      ///< a set variant's set ("all=7.5,8.0"): each set its own family, single SMs apart
  /// What a version word adds after its digits ("-pt212" of torchaudio211-pt212): such a version
  /// is its own family, as an exclude names a version and cannot tell two pairings of one version apart.
  std::string word_tail;
  std::string external;  ///< the [family.external] table its recipes take their base from; empty: none
  auto operator<=>(const Key&) const = default;
};

// "-pt212" of the word torchaudio211-pt212: what follows the package and its version digits.
std::string word_tail(const Variant& v) {
  const std::string& w = v.package_word;
  if (!w.starts_with(v.package)) return "";
  size_t end = w.find_first_not_of("0123456789", v.package.size());
  return end == std::string::npos ? "" : w.substr(end);
}

// One recipe read back: its variant, its pin and how its name is spelled.
struct Read {
  Variant v;
  std::string pin;
  std::map<std::string, std::string> spelling;
  const NixFile* file = nullptr;
  std::optional<RecipeVersion> version;       ///< of a name with a version word, when it can be told
  std::optional<RecipeVersion> from_builder;  ///< its version, read from the builder call it makes
  /// A name without a version word whose base another repository's recipe builds: its family's [family.external].
  std::optional<ImportedExternal> external;
};

// The first pin of the knowledge base that \a f names, or the builders it calls do.
std::string known_pin(const LintTree& t, const NixFile& f, const KnowledgeBase& kb) {
  for (const NixFile* g : reached_from(t, f))
    for (const auto& p : g->facts.pins)
      if (const NixpkgsPin* k = kb.pin(p.rev.substr(0, 7))) return k->short_rev;
  return "";
}

std::string spelling_text(const std::map<std::string, std::string>& spelling) {
  std::vector<std::string> items;
  for (const auto& [k, v] : spelling) items.push_back(fmt::format("{} = {}", toml_key(k), toml_str(v)));
  return items.empty() ? "" : fmt::format("{{ {} }}", fmt::join(items, ", "));
}

// The facts a pin's record lacks but the tree uses, pin -> values. Lists that
// are complete (measured) are not claimed: the variant is then impossible.
struct Claims {
  std::map<std::string, std::set<std::string>> cuda, python;

  void note(const Variant& v, const NixpkgsPin& pin) {
    if (!v.cuda.empty() && !pin.provides_cuda(v.cuda) && !pin.is_complete("cuda")) cuda[pin.short_rev].insert(v.cuda);
    if (!v.python.empty() && !pin.provides_python(v.python) && !pin.is_complete("python"))
      python[pin.short_rev].insert(v.python);
  }

  std::string toml(std::vector<std::string>& messages, const KnowledgeBase& kb) const {
    std::set<std::string> pins;
    for (const auto& [p, _] : cuda) pins.insert(p);
    for (const auto& [p, _] : python) pins.insert(p);
    std::string out;
    for (const auto& p : pins) {
      std::vector<std::string> attrs, cs, ps;
      if (cuda.count(p))
        for (const auto& c : cuda.at(p)) cs.push_back(c), attrs.push_back(kb.cuda(c)->nixpkgs_attr());
      if (python.count(p))
        for (const auto& y : python.at(p)) ps.push_back(y), attrs.push_back(kb.python(y)->packages_attr());
      for (const auto& a : attrs)
        messages.push_back(fmt::format("the knowledge base does not record {} on {}; the tree uses it", a, p));
      out += fmt::format("\n[[claim]]\npin = {}\n", toml_str(p));
      if (!cs.empty()) out += fmt::format("cuda = {}\n", toml_list(cs));
      if (!ps.empty()) out += fmt::format("python = {}\n", toml_list(ps));
      out += fmt::format("reason = {}\n",
                         toml_str(fmt::format("the imported tree builds with {} on this pin", fmt::join(attrs, ", "))));
    }
    return out;
  }
};

// Standalone companion repositories (a torchvision repository): the package
// the companions are built against has no recipe of its own, and each
// companion recipe builds it inside (an inner pname). The family then says
// `inline = [...]`; empty when it does not apply.
// Whether \a f builds its own \a base inside: an inner pname, or the base's attribute (or the
// package's own name, nixpkgs' old alias `pytorch`) overridden in a let (build-torchvision main:
// `customPytorch = (pkgs.torch.override { … }).overrideAttrs …`).
bool builds_inside(const NixFile& f, const PackageDef& base) {
  return !f.facts.inner_names.empty() ||
         std::any_of(f.facts.inner_overrides.begin(), f.facts.inner_overrides.end(),
                     [&](const recipe::Fact& o) { return o.text == base.attribute || o.text == base.name; });
}

// The base \a f (a companion recipe whose name carries no version word) is built against, taken from
// another repository's recipe outside a builder call (`src = builtins.fetchTarball { … }; torch =
// import "${src}/PATH" { … }` passed as the base's attribute): its family's [family.external]
// table, or nullopt with why a spec cannot say it in \a why (empty when it fetches no other repository).
std::optional<ImportedExternal> external_base(BuilderCalls& calls, const NixFile& f, const PackageDef& base,
                                              std::string& why) {
  std::optional<BuilderCall> read = calls.read_recipe(f);
  if (!read) return std::nullopt;
  for (const ForeignRecipe& r : read->foreign) {
    if (std::find(r.passed_as.begin(), r.passed_as.end(), base.attribute) == r.passed_as.end()) continue;
    if (!f.variant->package_word.empty()) {
      why = fmt::format(
          "it is built against the {} of {} ({}), outside a builder call, and its name carries a version word: "
          "[family.version.external.{}] needs the {} version that recipe builds, which the recipe does not state",
          base.attribute, r.url, r.at, base.attribute, base.attribute);
      return std::nullopt;
    }
    std::optional<ImportedExternal> e = external_from(r, base.attribute, base.attribute, *f.variant, why);
    if (e) e->recipe.family_level = true;
    return e;
  }
  return std::nullopt;
}

// The companion recipes whose base is neither a variant of the tree nor built inside, in a tree
// whose other recipes of that package build it inside: each is left out with what it does
// instead (a fetch of another repository, where it is written), so the rest loads as `inline`;
// unless it takes its base from another repository's recipe as [family.external] says it (\a externals).
std::map<std::string, std::string> companions_without_base(const LintTree& t, const KnowledgeBase& kb,
                                                           BuilderCalls& calls,
                                                           std::map<std::string, ImportedExternal>& externals) {
  std::map<std::string, std::string> out;  // file -> why
  std::set<std::string> in_tree, inside;   // packages: variants of the tree; built inside by some recipe
  for (const auto& f : t.nix)
    if (f.variant) in_tree.insert(f.variant->package);
  for (const auto& f : t.nix)
    if (f.variant)
      if (const PackageDef* base = kb.needed(*kb.package(f.variant->package), NeedStrategy::companion_of);
          base && builds_inside(f, *base))
        inside.insert(f.variant->package);
  for (const auto& f : t.nix) {
    if (!f.variant || f.helper || !f.parsed) continue;
    const PackageDef* base = kb.needed(*kb.package(f.variant->package), NeedStrategy::companion_of);
    if (!base || in_tree.count(base->name) || builds_inside(f, *base)) continue;
    std::string unread;
    if (std::optional<ImportedExternal> e = external_base(calls, f, *base, unread)) {
      externals.emplace(f.src.rel, std::move(*e));
      continue;
    }
    if (!inside.count(f.variant->package)) continue;  // no recipe builds it inside: the matrix says what is missing
    std::string how =
        fmt::format("it builds no {} of its own (no override of {} in a let)", base->name, base->attribute);
    for (const auto& x : f.facts.fetches)
      if (!x.nixpkgs && x.fetcher == "fetchTarball") {
        how = fmt::format(
            "its {} comes from a tarball of another repository (fetchTarball at {}:{}:{}), which "
            "import cannot read: {}",
            base->name, f.src.rel, x.span.line, x.span.column,
            unread.empty() ? fmt::format("no recipe of it is passed as {}", base->attribute) : unread);
        break;
      }
    out[f.src.rel] = how;
  }
  return out;
}

std::string inline_line(const std::vector<const Variant*>& vs, const LintTree& t, const KnowledgeBase& kb,
                        std::set<std::string> inner) {
  const PackageDef* base = kb.needed(*kb.package(vs.front()->package), NeedStrategy::companion_of);
  if (!base) return {};
  for (const auto& f : t.nix) {
    if (f.variant && f.variant->package == base->name) return {};
    if (f.variant && builds_inside(f, *base)) inner.insert(f.variant->name);
  }
  for (const Variant* v : vs)
    if (!inner.count(v->name)) return {};
  return fmt::format("inline = [{}]\n", toml_str(base->name));
}

// SM sets the recipes of one family target (an "all" word where the SM goes):
// their names, in the order first met, and the family's `sm_sets` line; a set
// whose recipes disagree on its SMs cannot be one spec set (the proof below says so).
struct ImportedSets {
  std::vector<std::string> names;
  std::string line;
};
ImportedSets sm_sets_of(const std::vector<const Variant*>& vs) {
  ImportedSets out;
  std::map<std::string, std::vector<std::string>> sets;
  for (const Variant* v : vs)
    if (!v->sm_set.empty() && sets.emplace(v->sm, v->sm_set).second) out.names.push_back(v->sm);
  if (sets.empty()) return out;
  std::vector<std::string> items;
  for (const auto& n : out.names) {
    std::vector<std::string> q;
    for (const auto& sm : sets.at(n)) q.push_back(toml_str(sm));
    items.push_back(fmt::format("{} = [{}]", toml_key(n), fmt::join(q, ", ")));
  }
  out.line = fmt::format("sm_sets = {{ {} }}\n", fmt::join(items, ", "));
  return out;
}

void note_package(std::vector<std::string>& packages, const std::string& p) {
  if (std::find(packages.begin(), packages.end(), p) == packages.end()) packages.push_back(p);
}

// The product a tree is, "build-" and its main package: one that builds
// others into its Python set (vLLM's custom torch), else the headline package
// (packages.toml) where the tree builds it or its companions, else the first.
std::string product_of(const std::vector<std::string>& packages, const KnowledgeBase& kb) {
  if (packages.empty()) return "build-" + kb.headline;
  for (const auto& p : packages)
    if (kb.package(p)->need(NeedStrategy::python_set_substitution)) return "build-" + p;
  for (const auto& p : packages) {
    const PackageDef& def = *kb.package(p);
    const PackageNeed* companion = def.need(NeedStrategy::companion_of);
    if (p == kb.headline || (companion && companion->package == kb.headline)) return "build-" + kb.headline;
  }
  return "build-" + packages.front();
}

// Generated recipes that run tailor prune carry where tailor comes from
// (`tailor = { source = …; }`) and the CUDA libraries they prune
// (`pruneCudaLibraries`): the spec's [tailor] and [build] tables.
std::string pruning_tables(const LintTree& t) {
  static const std::regex pinned(
      R"re(tailor = \{\n\s*source = "pinned";\n\s*owner = "([^"\\]*)";\n\s*repo = "([^"\\]*)";)re"
      R"re(\n\s*rev = "([^"\\]*)";\n\s*hash = "([^"\\]*)";)re");
  std::string tailor, build;
  for (const auto& f : t.nix) {
    if (f.helper) continue;  // lib/common.nix defaults them
    const std::string& text = f.text();
    if (tailor.empty() && text.find("tailor = { source = \"catalog\"; package = tailor; };") != std::string::npos)
      tailor = "\n[tailor]\nsource = \"catalog\"\n";
    std::smatch m;
    if (tailor.empty() && text.find("source = \"pinned\";") != std::string::npos && std::regex_search(text, m, pinned))
      tailor = fmt::format("\n[tailor]\nsource = \"pinned\"\nowner = {}\nrepo = {}\nrev = {}\nhash = {}\n",
                           toml_str(m[1]), toml_str(m[2]), toml_str(m[3]), toml_str(m[4]));
    if (build.empty() && text.find("    pruneCudaLibraries = [ \"") != std::string::npos)
      build = "\n[build]\nprune_cuda_libraries = true\n";
  }
  return tailor + build;
}

// Arguments a recipe passes another repository's recipe as null (`sm = if
// isCuda then sm else null`): the template the other recipes of the tree give
// the same argument, where it yields null for this one (a word a CPU build
// lacks). A null no template explains is left out of the spec, with a warning.
void resolve_external_nulls(std::vector<Read>& variants, std::vector<std::string>& warnings) {
  struct Slot {  // one recipe's table: version-level with its version's words, or its family's
    ImportedExternal* e;
    Variant words;
    const std::string* file;
  };
  std::vector<Slot> slots;
  for (auto& read : variants) {
    if (read.version && read.version->external) {
      Variant words = read.v;
      words.version = read.version->version;
      words.paired = read.version->paired;
      slots.push_back({&*read.version->external, std::move(words), &read.version->file});
    }
    if (read.external) slots.push_back({&*read.external, read.v, &read.file->src.rel});
  }
  std::map<std::string, std::map<std::string, std::string>> templates;  // recipe -> argument -> template
  for (const Slot& s : slots)
    for (const auto& [name, t] : s.e->recipe.args)
      templates[s.e->recipe.tarball_url() + s.e->recipe.path].emplace(name, t);
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> unresolved;
  for (const Slot& s : slots) {
    ExternalRecipe& e = s.e->recipe;
    const auto& known = templates[e.tarball_url() + e.path];
    for (const auto& name : s.e->nulls) {
      auto it = known.find(name);
      ExternalRecipe one;
      if (it != known.end()) one.args = {{name, it->second}};
      if (it != known.end() && !external_args(one, s.words).front().value) {
        e.args.emplace_back(name, it->second);
        continue;
      }
      auto& [text, files] = unresolved["null " + name + " " + e.describe()];
      text = fmt::format(
          "cannot reproduce {} = null in the call of {}: no recipe of the tree gives {} a word that a "
          "{} build lacks; the spec leaves {} out",
          name, e.describe(), name, s.words.backend, name);
      files.push_back(*s.file);
    }
    std::sort(e.args.begin(), e.args.end());
  }
  for (const auto& [key, item] : unresolved) {
    const auto& [text, files] = item;
    warnings.push_back(files.size() == 1 ? fmt::format("{}: {}", files.front(), text)
                                         : fmt::format("{} recipes ({}, …): {}", files.size(), files.front(), text));
  }
}

}  // namespace

ImportResult import_spec(const std::string& branch, std::vector<SourceFile> files, const KnowledgeBase& kb,
                         const ImportOptions& options) {
  ImportResult r;
  std::vector<Problem> syntax;  // TLR001: a file that does not parse says nothing a spec can reproduce
  LintTree t = lint::make_tree(branch, std::move(files), kb, syntax);
  std::map<std::string, int> pins, pythons;
  std::vector<Read> variants;
  std::vector<RecipeSources> sources;  // what each recipe builds from source
  TreeOverrides tree_overrides(t);
  std::vector<std::string> catalog;        // recipes that take their packages from the Flox catalog
  std::vector<std::string> tree_packages;  // in file order, each once
  BuilderCalls calls(t);
  // Remarks on builder calls, one warning per fact however many files it reaches.
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> remarks, kept;
  // By URL: the recipe, the attribute it builds, the files built against it, whether their family's
  // table says it ([family.external], names without a version word) or their versions'.
  std::map<std::string, std::tuple<ForeignRecipe, std::string, std::vector<std::string>, bool>> foreign;
  std::string pinned_at;                                   // where a recipe names its pin, for --pin
  std::map<std::string, ImportedExternal> external_bases;  // file -> its family's [family.external]
  const std::map<std::string, std::string> without_base = companions_without_base(t, kb, calls, external_bases);
  for (const auto& f : t.nix) {
    if (f.helper) continue;
    if (auto it = without_base.find(f.src.rel); it != without_base.end()) {
      r.warnings.push_back(fmt::format("{}: left out: {}", f.src.rel, it->second));
      continue;
    }
    if (!f.parsed) {  // its name may read as a variant, but nothing it builds can be told
      auto p = std::find_if(syntax.begin(), syntax.end(), [&](const Problem& x) { return x.rel == f.src.rel; });
      if (p != syntax.end() && p->pos.line > 0)
        r.warnings.push_back(fmt::format("{}:{}:{}: left out: it does not parse: {}", f.src.rel, p->pos.line,
                                         p->pos.column, p->message));
      else if (p != syntax.end())  // no position: not a text file
        r.warnings.push_back(fmt::format("{}: left out: {}", f.src.rel, p->message));
      continue;
    }
    if (!f.is_recipe()) continue;
    if (!f.variant) {  // one warning per reason, however many recipes it leaves out
      std::string text = fmt::format("not a variant name, left out: {}", f.name_problem);
      if (!read_package_word(f.stem, kb))
        text += fmt::format(
            "; to import them, describe the package in a knowledge-base overlay (tailor kb new-package "
            "{} --like PACKAGE -o DIR) and import with --kb DIR",
            f.stem.substr(0, f.stem.find('-')));
      auto& [said, files] = remarks["left out " + text];
      said = std::move(text);
      files.push_back(f.src.rel);
      continue;
    }
    const Variant& v = *f.variant;
    if (const GpuArch* g = v.sm.empty() ? nullptr : kb.gpu(v.sm)) {
      auto cuda = Version::parse(v.cuda);
      if (cuda && !g->supported_by(*cuda)) {
        std::string why = fmt::format("nvcc of CUDA {} cannot compile for {}", v.cuda, g->display());
        r.advisories.push_back(fmt::format("{}: left out: {} (tailor check: TLR009)", f.src.rel, why));
        r.impossible.emplace_back(f.src.rel, why);
        continue;
      }
    }
    std::optional<RecipeVersion> from_builder;
    std::vector<RecipeOverride> builder_overrides;
    // A call of a builder that fetches its nixpkgs as tailor can evaluate; other
    // recipes (and builders the evaluator cannot follow) are read from their syntax.
    std::optional<BuilderCall> call = calls.read(f);
    if (call && call->nixpkgs_rev.known()) {
      BuilderImport bi = import_builder_call(*call, f, kb);
      if (!bi.left_out.empty()) {  // one warning per reason: a table fact reaches many files
        auto& [text, files] = remarks["left out " + bi.left_out];
        text = "left out: " + bi.left_out;
        files.push_back(f.src.rel);
        continue;
      }
      for (const auto& [list, into] : {std::pair{&bi.remarks, &remarks}, std::pair{&bi.kept, &kept}})
        for (const auto& remark : *list) {
          size_t tab = remark.find('\t');
          auto& [text, files] = (*into)[remark.substr(0, tab)];
          text = remark.substr(tab + 1);
          files.push_back(f.src.rel);
        }
      if (bi.foreign_base) {
        auto& [recipe, attribute, files, family] = foreign[bi.foreign_base->url];
        recipe = *bi.foreign_base;
        attribute = bi.foreign_attribute;
        files.push_back(f.src.rel);
      }
      if (pinned_at.empty())
        pinned_at = fmt::format("{} builds on nixpkgs {} ({})", f.src.rel, bi.pin, call->nixpkgs_rev.at);
      if (!f.variant->package_word.empty()) from_builder = std::move(bi.version);
      builder_overrides = std::move(bi.overrides);
      if (!f.variant->python.empty()) pythons[f.variant->python]++;
      pins[bi.pin]++;
      note_package(tree_packages, f.variant->package);
      variants.push_back({*f.variant, bi.pin, f.spelling, &f, std::nullopt, std::move(from_builder), std::nullopt});
      sources.emplace_back(RecipeSources{f.src.rel, bi.pin, f.variant->package, std::move(builder_overrides)});
      if (variants.back().from_builder) sources.back().decided = variants.back().from_builder->decided;
      continue;
    }
    std::string pin = known_pin(t, f, kb);
    if (!pin.empty() && pinned_at.empty()) pinned_at = fmt::format("{} names nixpkgs {}", f.src.rel, pin);
    if (pin.empty() && recipe::sets_from_caller(f.facts)) {
      catalog.push_back(f.src.rel);
      pin = options.pin;
    } else if (pin.empty()) {
      r.warnings.push_back(
          fmt::format("{}: no nixpkgs pin of the knowledge base found; the branch pin is assumed", f.src.rel));
    }
    if (!pin.empty()) pins[pin]++;
    if (!f.variant->python.empty()) pythons[f.variant->python]++;
    note_package(tree_packages, f.variant->package);
    variants.push_back({*f.variant, pin, f.spelling, &f, std::nullopt, std::nullopt, std::nullopt});
    if (auto e = external_bases.find(f.src.rel); e != external_bases.end()) {
      variants.back().external = e->second;
      const ExternalRecipe& x = e->second.recipe;
      auto& [recipe, attribute, files, family] = foreign[x.tarball_url()];
      recipe.url = x.tarball_url(), recipe.rev = x.rev, recipe.hash = x.hash, recipe.at = e->second.at;
      attribute = x.attribute;
      family = true;
      files.push_back(f.src.rel);
    }
    RecipeSources& built =
        sources.emplace_back(RecipeSources{f.src.rel, pin, f.variant->package, tree_overrides.of(f)});
    for (const auto& c : f.facts.comments)  // what it says it builds (decides a version its pin's sources dispute)
      if (c.key == "header") built.header.push_back(c.text);
  }
  for (const auto& [grouped, into] : {std::pair{&remarks, &r.warnings}, std::pair{&kept, &r.notes}})
    for (const auto& [key, remark] : *grouped) {
      const auto& [text, files] = remark;
      // A remark that left no file out (an alias the spec replaces) is advice, no failure.
      std::vector<std::string>* to = into == &r.warnings && !key.starts_with("left out ") ? &r.advisories : into;
      to->push_back(files.size() == 1 ? fmt::format("{}: {}", files.front(), text)
                                      : fmt::format("{} recipes ({}, …): {}", files.size(), files.front(), text));
    }
  for (const auto& [url, item] : foreign) {
    const auto& [recipe, attribute, files, family] = item;
    r.notes.push_back(fmt::format(
        "{} recipe{} ({}{}) build against the {} of another repository's recipe, {}{}{}, imported at {}: which {} that "
        "is, is that repository's to say, not the nixpkgs pin's; the spec takes {} from that recipe ({}){}{}",
        files.size(), files.size() == 1 ? "" : "s", files.front(), files.size() > 1 ? ", …" : "", attribute, url,
        recipe.rev.empty() ? "" : " (revision " + recipe.rev + ")",
        recipe.hash.empty() ? ", fetched without a hash" : "", recipe.at, attribute, attribute,
        fmt::format("[family.{}external.{}]", family ? "" : "version.", attribute),
        family ? ", for its names carry no version word" : " at the version the builder asks for",
        recipe.hash.empty() ? ", fetched without a hash as the tree does: tailor warns on every load of the spec, "
                              "and check of the generated tree reports the fetch (TLR028) until the spec gives its hash"
                            : ""));
  }
  if (!options.pin.empty() && catalog.empty() && !pinned_at.empty())
    r.warnings.push_back(
        fmt::format("--pin {}: refused: the recipes name their own pins ({}); --pin gives the pin of "
                    "recipes that name none",
                    options.pin, pinned_at));
  r.variants = static_cast<int>(variants.size());
  if (variants.empty()) {
    for (auto& note : layout_notes(t)) r.warnings.push_back(std::move(note));
    if (std::none_of(t.nix.begin(), t.nix.end(), [](const NixFile& f) { return f.is_recipe(); }))
      r.warnings.push_back(
          "no variant recipes found: no .nix file of the tree is named as a variant or states a pname");
    else
      r.warnings.push_back("no variant recipes found: every recipe was left out (see above)");
    return r;
  }
  std::string pin = majority(pins), python = majority(pythons);
  if (!catalog.empty() && options.pin.empty()) {
    r.warnings.push_back(fmt::format(
        "{} recipe{} ({}{}) take{} their packages from the Flox catalog as function arguments and name no nixpkgs pin: "
        "tailor does not know which nixpkgs revision the catalog builds from, so the versions they build are unknown; "
        "give the pin with --pin REV (tailor kb --pins lists them)",
        catalog.size(), catalog.size() == 1 ? "" : "s", catalog.front(), catalog.size() > 1 ? ", …" : "",
        catalog.size() == 1 ? "s" : ""));
  }
  if (pin.empty()) {
    pin = kb.pins.front().short_rev;
    if (catalog.empty()) r.warnings.push_back(fmt::format("no recipe names a known pin: using {}", pin));
  }

  for (auto& s : sources)
    if (s.pin.empty()) s.pin = pin;
  // A version word in the name: the recipe's version, pairing and source go to [[family.version]].
  for (size_t i = 0; i < variants.size(); ++i) {
    Read& read = variants[i];
    if (read.v.package_word.empty()) continue;
    if (read.from_builder) {
      read.version = read.from_builder;
      continue;
    }
    RecipeVersion rv = read_recipe_version(t, *read.file, sources[i].pin, sources[i].overrides, kb);
    sources[i].decided = rv.decided;
    if (!rv.problem.empty()) {
      r.warnings.push_back(fmt::format("{}: cannot reproduce: {}", rv.file, rv.problem));
      continue;
    }
    read.version = std::move(rv);
  }
  resolve_external_nulls(variants, r.warnings);
  std::map<Key, std::vector<const Variant*>> groups;
  std::map<Key, std::vector<const RecipeVersion*>> versions;
  std::map<Key, std::map<std::string, std::string>> spellings;
  std::map<Key, const ImportedExternal*> family_externals;
  Claims claims;
  for (auto& [v, p, spelling, file, version, from_builder, external] : variants) {
    bool versioned = !v.package_word.empty();
    Key key{v.package,
            v.backend,
            v.cuda,
            versioned   ? ""
            : p.empty() ? pin
                        : p,
            v.python.empty() || v.python == python ? "" : v.python,
            spelling_text(spelling),
            versioned,
            v.sm_set.empty() ? "" : fmt::format("{}={}", v.sm, fmt::join(v.sm_set, ",")),
            word_tail(v),
            external ? external_toml(ImportedExternal{external->recipe, {}, ""}) : ""};
    groups[key].push_back(&v);
    if (external) family_externals.emplace(key, &*external);  // the first recipe's, where it fetches
    if (version) versions[key].push_back(&*version);
    spellings[key] = spelling;
    claims.note(v, *kb.pin(p.empty() ? pin : p));
  }

  std::string out =
      fmt::format("# Imported by tailor from {} ({} variants).\n\n[branch]\nname = {}\nproduct = {}\n",
                  comment_text(branch), variants.size(), toml_str(branch), toml_str(product_of(tree_packages, kb)));
  if (!catalog.empty() && options.pin.empty())
    out += "# The recipes name no nixpkgs pin (Flox catalog): this one is a stand-in; import again with --pin.\n";
  out += fmt::format("pin = {}\n", toml_str(pin));
  if (!python.empty()) out += fmt::format("python = {}\n", toml_str(python));
  ImportedOverrides overrides = import_overrides(sources, kb);
  for (const auto& [attribute, version] : overrides.requested)
    out += fmt::format("{} = {}\n", toml_key(attribute), toml_str(version));
  out += pruning_tables(t);
  // The CPU targets the tree's GPU table allows per SM: a rule where no recipe of the
  // tree builds that SM for another target (the whole tree, every version, agrees with it).
  std::map<std::string, IsaRule> isa_rules;
  {
    std::vector<SourceFile> all;
    for (const auto& f : t.nix) all.push_back(f.src);
    for (const IsaRule& rule : learn_isa_rules(all, kb)) {
      bool kept = std::none_of(variants.begin(), variants.end(), [&](const Read& read) {
        return read.v.sm == rule.sm && !read.v.isa.empty() &&
               std::find(rule.allowed.begin(), rule.allowed.end(), read.v.isa) == rule.allowed.end();
      });
      if (kept) isa_rules.emplace(rule.sm, rule);
    }
  }
  std::vector<std::string> sm_order, isa_order;
  for (const auto& g : kb.gpus) sm_order.push_back(g.sm);
  for (const auto& i : kb.isas) isa_order.push_back(i.name);
  std::set<std::string> family_names;
  for (const auto& [key, vs] : groups) {
    // A backend bound to one platform (packages.toml platform) is named by its OS: pytorch-darwin.
    const BackendDef* backend = kb.backend(key.backend);
    const Platform* fixed = backend && !backend->platform.empty() ? kb.platform(backend->platform) : nullptr;
    std::string base = key.package + "-" +
                       (fixed              ? std::string(name_of(fixed->os))
                        : key.cuda.empty() ? key.backend
                                           : kb.cuda(key.cuda)->name_token());  // a variant name's CUDA is known
    for (const auto& [token, written] : spellings.at(key))  // pytorch-cpu-arm64, pytorch-cuda12_8-no-avx512
      base += "-" + (written.empty() ? "no-" + token : written);
    if (!key.sm_set.empty()) base += "-" + key.sm_set.substr(0, key.sm_set.find('='));  // vllm-cuda12_9-all
    base += key.word_tail;                                                              // torchaudio-cuda12_9-pt212
    std::string name = base;
    if (family_names.count(name)) name = base + "-" + key.pin + key.python;
    for (int n = 2; family_names.count(name); ++n) name = fmt::format("{}-{}{}-{}", base, key.pin, key.python, n);
    family_names.insert(name);
    out += fmt::format("\n[[family]]\nname = {}\npackage = {}\nbackend = {}\n", toml_str(name), toml_str(key.package),
                       toml_str(key.backend));
    if (!key.cuda.empty()) out += fmt::format("cuda = {}\n", toml_str(key.cuda));
    if (!key.versioned && key.pin != pin) out += fmt::format("pin = {}\n", toml_str(key.pin));
    if (!key.python.empty()) out += fmt::format("python = {}\n", toml_str(key.python));
    std::set<std::string> sms, isas;
    std::set<std::tuple<std::string, std::string, std::string>> cells;  // version word, SM, ISA
    std::map<std::string, std::string> word_version;                    // of the versions read
    for (const RecipeVersion* rv : versions[key]) word_version[rv->word] = rv->version;
    for (const Variant* v : vs) {
      if (!v->sm.empty()) sms.insert(v->sm);
      if (!v->isa.empty()) isas.insert(v->isa);
      cells.insert({v->package_word, v->sm, v->isa});
    }
    std::vector<std::string> sm_list = ordered(sms, sm_order), isa_list = ordered(isas, isa_order);
    ImportedSets sets = sm_sets_of(vs);
    sm_list.insert(sm_list.end(), sets.names.begin(), sets.names.end());
    if (!sm_list.empty()) out += fmt::format("sm = {}\n", toml_list(sm_list));
    if (!isa_list.empty()) out += fmt::format("isa = {}\n", toml_list(isa_list));
    out += sets.line;
    if (!key.spelling.empty()) out += fmt::format("spelling = {}\n", key.spelling);
    out += inline_line(vs, t, kb, {});
    if (auto e = family_externals.find(key); e != family_externals.end()) out += external_toml(*e->second);
    if (key.versioned)
      out += version_tables(versions[key], *kb.package(key.package), kb.backend(key.backend)->gpu(), r.warnings, kb);
    // The cells the tree lacks, per version where the family lists several.
    std::vector<std::string> words;
    if (key.versioned) {
      for (const auto& [word, version] : word_version) words.push_back(word);
    } else {
      words.push_back("");
    }
    // What a rule of the tree's tables excludes: once for the family, so a version added later inherits it.
    std::map<std::string, std::set<std::string>> ruled;  // SM -> the targets its rule excludes
    for (const auto& sm : sm_list) {
      auto rule = isa_rules.find(sm);
      if (rule == isa_rules.end()) continue;
      std::vector<std::string> off;
      for (const auto& isa : isa_list)
        if (std::find(rule->second.allowed.begin(), rule->second.allowed.end(), isa) == rule->second.allowed.end())
          off.push_back(isa);
      if (off.empty()) continue;
      ruled[sm].insert(off.begin(), off.end());
      out += fmt::format("\n[[family.exclude]]\nsm = {}\nisa = {}\nreason = {}\n", toml_str(sm), toml_list(off),
                         toml_str(rule->second.reason()));
    }
    for (const auto& word : words) {
      std::string version_line =
          words.size() > 1 ? fmt::format("version = {}\n", toml_str(word_version.at(word))) : std::string();
      // A versioned family without SMs (CPU) still excludes per version and ISA.
      std::vector<std::string> sm_rows = sm_list.empty() && key.versioned ? std::vector<std::string>{""} : sm_list;
      for (const auto& sm : sm_rows) {
        std::vector<std::string> missing;
        for (const auto& isa : isa_list)
          if (!cells.count({word, sm, isa}) && !(ruled.count(sm) && ruled[sm].count(isa))) missing.push_back(isa);
        if (missing.empty()) continue;
        std::string sm_line = sm.empty() ? "" : fmt::format("sm = {}\n", toml_str(sm));
        std::string isa_line = missing.size() == isa_list.size() && !version_line.empty() && !sm.empty()
                                   ? ""
                                   : fmt::format("isa = {}\n", toml_list(missing));
        out += fmt::format(
            "\n[[family.exclude]]\n{}{}{}reason = \"absent from the imported tree; no rule of its tables explains "
            "it\"\n",
            version_line, sm_line, isa_line);
      }
    }
  }
  out += claims.toml(r.claims, kb);
  out += overrides.toml;
  r.warnings.insert(r.warnings.end(), overrides.refusals.begin(), overrides.refusals.end());
  r.toml = out;

  // Prove it: the spec must expand to exactly the tree's names.
  try {
    Spec spec = load_spec("imported.toml", r.toml, kb);
    Matrix m = expand(spec, kb);
    std::set<std::string> tree, matrix;
    for (const auto& read : variants) tree.insert(read.v.name);
    for (const auto& v : m.variants) matrix.insert(v.name);
    for (const auto& n : tree)
      if (!matrix.count(n)) {
        auto drops = m.dropped_named(n);
        r.warnings.push_back(
            fmt::format("{}: the spec cannot express it{}", n, drops.empty() ? "" : ": " + drops.front()->reason));
      }
    for (const auto& n : matrix)
      if (!tree.count(n)) r.warnings.push_back(fmt::format("{}: the spec yields it, the tree has no recipe", n));
  } catch (const DiagnosticError& e) {
    r.warnings.push_back("the inferred spec does not load: " + e.diagnostic().message);
  }
  return r;
}

}  // namespace tailor
