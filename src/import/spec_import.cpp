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

// Remarks that concern many files, by key: one warning (or note) names them all.
using Remarks = std::map<std::string, std::pair<std::string, std::vector<std::string>>>;

// A recipe of another repository the tree's recipes are built against: the attribute it builds,
// the files built against it, whether their family's table says it ([family.external], names
// without a version word) or their versions'.
struct Foreign {
  ForeignRecipe recipe;
  std::string attribute;
  std::vector<std::string> files;
  bool family = false;
};

// The SMs, CPU targets and (version word, SM, ISA) cells a family's recipes build.
struct FamilyCells {
  std::vector<std::string> sms, isas;  // knowledge-base order; the SM sets' names after the SMs
  ImportedSets sets;
  std::set<std::tuple<std::string, std::string, std::string>> built;
};

FamilyCells cells_of(const std::vector<const Variant*>& vs, const KnowledgeBase& kb) {
  std::vector<std::string> sm_order, isa_order;
  for (const auto& g : kb.gpus) sm_order.push_back(g.sm);
  for (const auto& i : kb.isas) isa_order.push_back(i.name);
  std::set<std::string> sms, isas;
  FamilyCells out;
  for (const Variant* v : vs) {
    if (!v->sm.empty()) sms.insert(v->sm);
    if (!v->isa.empty()) isas.insert(v->isa);
    out.built.insert({v->package_word, v->sm, v->isa});
  }
  out.sms = ordered(sms, sm_order), out.isas = ordered(isas, isa_order);
  out.sets = sm_sets_of(vs);
  out.sms.insert(out.sms.end(), out.sets.names.begin(), out.sets.names.end());
  return out;
}

// What a rule of the tree's tables excludes (\a isa_rules): once for the family, so a version
// added later inherits it; the targets each SM's rule excludes go to \a ruled.
std::string rule_excludes(const FamilyCells& c, const std::map<std::string, IsaRule>& isa_rules,
                          std::map<std::string, std::set<std::string>>& ruled) {
  std::string out;
  for (const auto& sm : c.sms) {
    auto rule = isa_rules.find(sm);
    if (rule == isa_rules.end()) continue;
    std::vector<std::string> off;
    for (const auto& isa : c.isas)
      if (std::find(rule->second.allowed.begin(), rule->second.allowed.end(), isa) == rule->second.allowed.end())
        off.push_back(isa);
    if (off.empty()) continue;
    ruled[sm].insert(off.begin(), off.end());
    out += fmt::format("\n[[family.exclude]]\nsm = {}\nisa = {}\nreason = {}\n", toml_str(sm), toml_list(off),
                       toml_str(rule->second.reason()));
  }
  return out;
}

// The cells the tree lacks that no rule explains, per version (\a word_version: version word ->
// version) where the family lists several.
std::string absent_excludes(const Key& key, const FamilyCells& c,
                            const std::map<std::string, std::string>& word_version,
                            const std::map<std::string, std::set<std::string>>& ruled) {
  std::vector<std::string> words;
  if (key.versioned) {
    for (const auto& [word, version] : word_version) words.push_back(word);
  } else {
    words.push_back("");
  }
  std::string out;
  for (const auto& word : words) {
    std::string version_line =
        words.size() > 1 ? fmt::format("version = {}\n", toml_str(word_version.at(word))) : std::string();
    // A versioned family without SMs (CPU) still excludes per version and ISA.
    std::vector<std::string> sm_rows = c.sms.empty() && key.versioned ? std::vector<std::string>{""} : c.sms;
    for (const auto& sm : sm_rows) {
      std::vector<std::string> missing;
      for (const auto& isa : c.isas)
        if (!c.built.count({word, sm, isa}) && !(ruled.count(sm) && ruled.at(sm).count(isa))) missing.push_back(isa);
      if (missing.empty()) continue;
      std::string sm_line = sm.empty() ? "" : fmt::format("sm = {}\n", toml_str(sm));
      std::string isa_line = missing.size() == c.isas.size() && !version_line.empty() && !sm.empty()
                                 ? ""
                                 : fmt::format("isa = {}\n", toml_list(missing));
      out += fmt::format(
          "\n[[family.exclude]]\n{}{}{}reason = \"absent from the imported tree; no rule of its tables explains "
          "it\"\n",
          version_line, sm_line, isa_line);
    }
  }
  return out;
}

// One import: the tree's recipes read back (read_recipes), what the reader should know of them,
// the branch's pin and Python, the families (group), the spec (write_spec), and its proof.
class SpecImport {
 public:
  SpecImport(const std::string& branch, std::vector<SourceFile> files, const KnowledgeBase& kb,
             const ImportOptions& options)
      : branch_(branch),
        kb_(kb),
        options_(options),
        t_(lint::make_tree(branch, std::move(files), kb, syntax_)),
        tree_overrides_(t_),
        calls_(t_),
        without_base_(companions_without_base(t_, kb, calls_, external_bases_)) {}

  ImportResult run() {
    read_recipes();
    report_remarks();
    report_foreign();
    if (!options_.pin.empty() && catalog_.empty() && !pinned_at_.empty())
      r_.warnings.push_back(
          fmt::format("--pin {}: refused: the recipes name their own pins ({}); --pin gives the pin of "
                      "recipes that name none",
                      options_.pin, pinned_at_));
    r_.variants = static_cast<int>(variants_.size());
    if (variants_.empty()) {
      report_no_variants();
      return std::move(r_);
    }
    choose_pin();
    read_versions();
    group();
    write_spec();
    prove();
    return std::move(r_);
  }

 private:
  // 1. Each recipe read back: through the builder call it makes, else from its syntax.
  void read_recipes() {
    for (const auto& f : t_.nix)
      if (!f.helper && !skipped(f) && !read_builder_call(f)) read_syntax(f);
  }

  // Whether \a f is no recipe to read: left out (saying why), or no recipe.
  bool skipped(const NixFile& f) {
    if (auto it = without_base_.find(f.src.rel); it != without_base_.end()) {
      r_.warnings.push_back(fmt::format("{}: left out: {}", f.src.rel, it->second));
      return true;
    }
    if (!f.parsed) {  // its name may read as a variant, but nothing it builds can be told
      leave_out_unparsed(f);
      return true;
    }
    if (!f.is_recipe()) return true;
    if (!f.variant) {
      leave_out_unnamed(f);
      return true;
    }
    return impossible(f);
  }

  void leave_out_unparsed(const NixFile& f) {
    auto p = std::find_if(syntax_.begin(), syntax_.end(), [&](const Problem& x) { return x.rel == f.src.rel; });
    if (p != syntax_.end() && p->pos.line > 0)
      r_.warnings.push_back(
          fmt::format("{}:{}:{}: left out: it does not parse: {}", f.src.rel, p->pos.line, p->pos.column, p->message));
    else if (p != syntax_.end())  // no position: not a text file
      r_.warnings.push_back(fmt::format("{}: left out: {}", f.src.rel, p->message));
  }

  // A recipe whose name reads as no variant: one warning per reason, however many recipes it leaves out.
  void leave_out_unnamed(const NixFile& f) {
    std::string text = fmt::format("not a variant name, left out: {}", f.name_problem);
    if (!read_package_word(f.stem, kb_))
      text += fmt::format(
          "; to import them, describe the package in a knowledge-base overlay (tailor kb new-package "
          "{} --like PACKAGE -o DIR) and import with --kb DIR",
          f.stem.substr(0, f.stem.find('-')));
    auto& [said, files] = remarks_["left out " + text];
    said = std::move(text);
    files.push_back(f.src.rel);
  }

  // Whether \a f is left out as impossible: nvcc of its CUDA cannot compile for its SM.
  bool impossible(const NixFile& f) {
    const Variant& v = *f.variant;
    const GpuArch* g = v.sm.empty() ? nullptr : kb_.gpu(v.sm);
    if (!g) return false;
    auto cuda = Version::parse(v.cuda);
    if (!cuda || g->supported_by(*cuda)) return false;
    std::string why = fmt::format("nvcc of CUDA {} cannot compile for {}", v.cuda, g->display());
    r_.advisories.push_back(fmt::format("{}: left out: {} (tailor check: TLR009)", f.src.rel, why));
    r_.impossible.emplace_back(f.src.rel, why);
    return true;
  }

  // A call of a builder that fetches its nixpkgs as tailor can evaluate; other recipes (and
  // builders the evaluator cannot follow) are read from their syntax. Whether \a f is one.
  bool read_builder_call(const NixFile& f) {
    std::optional<BuilderCall> call = calls_.read(f);
    if (!call || !call->nixpkgs_rev.known()) return false;
    BuilderImport bi = import_builder_call(*call, f, kb_);
    if (!bi.left_out.empty()) {  // one warning per reason: a table fact reaches many files
      auto& [text, files] = remarks_["left out " + bi.left_out];
      text = "left out: " + bi.left_out;
      files.push_back(f.src.rel);
      return true;
    }
    note_remarks(f, bi);
    if (pinned_at_.empty())
      pinned_at_ = fmt::format("{} builds on nixpkgs {} ({})", f.src.rel, bi.pin, call->nixpkgs_rev.at);
    std::optional<RecipeVersion> from_builder;
    if (!f.variant->package_word.empty()) from_builder = std::move(bi.version);
    if (!f.variant->python.empty()) pythons_[f.variant->python]++;
    pins_[bi.pin]++;
    note_package(tree_packages_, f.variant->package);
    variants_.push_back({*f.variant, bi.pin, f.spelling, &f, std::nullopt, std::move(from_builder), std::nullopt});
    sources_.emplace_back(RecipeSources{f.src.rel, bi.pin, f.variant->package, std::move(bi.overrides)});
    if (variants_.back().from_builder) sources_.back().decided = variants_.back().from_builder->decided;
    return true;
  }

  // The remarks of \a f's builder call ("KEY\tTEXT"), and the recipe of another repository it is built against.
  void note_remarks(const NixFile& f, const BuilderImport& bi) {
    for (const auto& [list, into] : {std::pair{&bi.remarks, &remarks_}, std::pair{&bi.kept, &kept_}})
      for (const auto& remark : *list) {
        size_t tab = remark.find('\t');
        auto& [text, files] = (*into)[remark.substr(0, tab)];
        text = remark.substr(tab + 1);
        files.push_back(f.src.rel);
      }
    if (bi.foreign_base) {
      Foreign& x = foreign_[bi.foreign_base->url];
      x.recipe = *bi.foreign_base;
      x.attribute = bi.foreign_attribute;
      x.files.push_back(f.src.rel);
    }
  }

  // A recipe read from its syntax: the pin it names (or the catalog's, --pin), its overrides and header.
  void read_syntax(const NixFile& f) {
    std::string pin = known_pin(t_, f, kb_);
    if (!pin.empty() && pinned_at_.empty()) pinned_at_ = fmt::format("{} names nixpkgs {}", f.src.rel, pin);
    if (pin.empty() && recipe::sets_from_caller(f.facts)) {
      catalog_.push_back(f.src.rel);
      pin = options_.pin;
    } else if (pin.empty()) {
      r_.warnings.push_back(
          fmt::format("{}: no nixpkgs pin of the knowledge base found; the branch pin is assumed", f.src.rel));
    }
    if (!pin.empty()) pins_[pin]++;
    if (!f.variant->python.empty()) pythons_[f.variant->python]++;
    note_package(tree_packages_, f.variant->package);
    variants_.push_back({*f.variant, pin, f.spelling, &f, std::nullopt, std::nullopt, std::nullopt});
    note_external_base(f);
    RecipeSources& built =
        sources_.emplace_back(RecipeSources{f.src.rel, pin, f.variant->package, tree_overrides_.of(f)});
    for (const auto& c : f.facts.comments)  // what it says it builds (decides a version its pin's sources dispute)
      if (c.key == "header") built.header.push_back(c.text);
  }

  // The base \a f (just read) takes from another repository's recipe: its family's [family.external].
  void note_external_base(const NixFile& f) {
    auto e = external_bases_.find(f.src.rel);
    if (e == external_bases_.end()) return;
    variants_.back().external = e->second;
    const ExternalRecipe& x = e->second.recipe;
    Foreign& foreign = foreign_[x.tarball_url()];
    foreign.recipe.url = x.tarball_url();
    foreign.recipe.rev = x.rev;
    foreign.recipe.hash = x.hash;
    foreign.recipe.at = e->second.at;
    foreign.attribute = x.attribute;
    foreign.family = true;
    foreign.files.push_back(f.src.rel);
  }

  // 2. What the reader should know: a remark per reason, naming the files it concerns.
  void report_remarks() {
    for (const auto& [grouped, into] : {std::pair{&remarks_, &r_.warnings}, std::pair{&kept_, &r_.notes}})
      for (const auto& [key, remark] : *grouped) {
        const auto& [text, files] = remark;
        // A remark that left no file out (an alias the spec replaces) is advice, no failure.
        std::vector<std::string>* to = into == &r_.warnings && !key.starts_with("left out ") ? &r_.advisories : into;
        to->push_back(files.size() == 1 ? fmt::format("{}: {}", files.front(), text)
                                        : fmt::format("{} recipes ({}, …): {}", files.size(), files.front(), text));
      }
  }

  void report_foreign() {
    for (const auto& [url, x] : foreign_) {
      const ForeignRecipe& recipe = x.recipe;
      const std::string& attribute = x.attribute;
      const std::vector<std::string>& files = x.files;
      r_.notes.push_back(fmt::format(
          "{} recipe{} ({}{}) build against the {} of another repository's recipe, {}{}{}, imported at {}: which {} "
          "that is, is that repository's to say, not the nixpkgs pin's; the spec takes {} from that recipe ({}){}{}",
          files.size(), files.size() == 1 ? "" : "s", files.front(), files.size() > 1 ? ", …" : "", attribute, url,
          recipe.rev.empty() ? "" : " (revision " + recipe.rev + ")",
          recipe.hash.empty() ? ", fetched without a hash" : "", recipe.at, attribute, attribute,
          fmt::format("[family.{}external.{}]", x.family ? "" : "version.", attribute),
          x.family ? ", for its names carry no version word" : " at the version the builder asks for",
          recipe.hash.empty()
              ? ", fetched without a hash as the tree does: tailor warns on every load of the spec, "
                "and check of the generated tree reports the fetch (TLR028) until the spec gives its hash"
              : ""));
    }
  }

  void report_no_variants() {
    for (auto& note : layout_notes(t_)) r_.warnings.push_back(std::move(note));
    if (std::none_of(t_.nix.begin(), t_.nix.end(), [](const NixFile& f) { return f.is_recipe(); }))
      r_.warnings.push_back(
          "no variant recipes found: no .nix file of the tree is named as a variant or states a pname");
    else
      r_.warnings.push_back("no variant recipes found: every recipe was left out (see above)");
  }

  // 3. The branch's pin and Python: the recipes' most common; a catalog's recipes name no pin.
  void choose_pin() {
    pin_ = majority(pins_), python_ = majority(pythons_);
    if (!catalog_.empty() && options_.pin.empty()) {
      r_.warnings.push_back(fmt::format(
          "{} recipe{} ({}{}) take{} their packages from the Flox catalog as function arguments and name no nixpkgs "
          "pin: tailor does not know which nixpkgs revision the catalog builds from, so the versions they build are "
          "unknown; give the pin with --pin REV (tailor kb --pins lists them)",
          catalog_.size(), catalog_.size() == 1 ? "" : "s", catalog_.front(), catalog_.size() > 1 ? ", …" : "",
          catalog_.size() == 1 ? "s" : ""));
    }
    if (pin_.empty()) {
      pin_ = kb_.pins.front().short_rev;
      if (catalog_.empty()) r_.warnings.push_back(fmt::format("no recipe names a known pin: using {}", pin_));
    }
  }

  // A version word in the name: the recipe's version, pairing and source go to [[family.version]].
  void read_versions() {
    for (auto& s : sources_)
      if (s.pin.empty()) s.pin = pin_;
    for (size_t i = 0; i < variants_.size(); ++i) {
      Read& read = variants_[i];
      if (read.v.package_word.empty()) continue;
      if (read.from_builder) {
        read.version = read.from_builder;
        continue;
      }
      RecipeVersion rv = read_recipe_version(t_, *read.file, sources_[i].pin, sources_[i].overrides, kb_);
      sources_[i].decided = rv.decided;
      if (!rv.problem.empty()) {
        r_.warnings.push_back(fmt::format("{}: cannot reproduce: {}", rv.file, rv.problem));
        continue;
      }
      read.version = std::move(rv);
    }
    resolve_external_nulls(variants_, r_.warnings);
  }

  // 4. The families: one per Key; the facts a pin's record lacks, claimed.
  void group() {
    for (auto& [v, p, spelling, file, version, from_builder, external] : variants_) {
      bool versioned = !v.package_word.empty();
      Key key{v.package,
              v.backend,
              v.cuda,
              versioned   ? ""
              : p.empty() ? pin_
                          : p,
              v.python.empty() || v.python == python_ ? "" : v.python,
              spelling_text(spelling),
              versioned,
              v.sm_set.empty() ? "" : fmt::format("{}={}", v.sm, fmt::join(v.sm_set, ",")),
              word_tail(v),
              external ? external_toml(ImportedExternal{external->recipe, {}, ""}) : ""};
      groups_[key].push_back(&v);
      if (external) family_externals_.emplace(key, &*external);  // the first recipe's, where it fetches
      if (version) versions_[key].push_back(&*version);
      spellings_[key] = spelling;
      claims_.note(v, *kb_.pin(p.empty() ? pin_ : p));
    }
  }

  // 5. The spec: the branch, its families, the claims and source overrides.
  void write_spec() {
    std::string out = fmt::format("# Imported by tailor from {} ({} variants).\n\n[branch]\nname = {}\nproduct = {}\n",
                                  comment_text(branch_), variants_.size(), toml_str(branch_),
                                  toml_str(product_of(tree_packages_, kb_)));
    if (!catalog_.empty() && options_.pin.empty())
      out += "# The recipes name no nixpkgs pin (Flox catalog): this one is a stand-in; import again with --pin.\n";
    out += fmt::format("pin = {}\n", toml_str(pin_));
    if (!python_.empty()) out += fmt::format("python = {}\n", toml_str(python_));
    ImportedOverrides overrides = import_overrides(sources_, kb_);
    for (const auto& [attribute, version] : overrides.requested)
      out += fmt::format("{} = {}\n", toml_key(attribute), toml_str(version));
    out += pruning_tables(t_);
    std::map<std::string, IsaRule> isa_rules = kept_isa_rules();
    std::set<std::string> family_names;
    for (const auto& [key, vs] : groups_) out += family_toml(key, vs, isa_rules, family_names);
    out += claims_.toml(r_.claims, kb_);
    out += overrides.toml;
    r_.warnings.insert(r_.warnings.end(), overrides.refusals.begin(), overrides.refusals.end());
    r_.toml = out;
  }

  // The CPU targets the tree's GPU table allows per SM: a rule where no recipe of the
  // tree builds that SM for another target (the whole tree, every version, agrees with it).
  std::map<std::string, IsaRule> kept_isa_rules() const {
    std::map<std::string, IsaRule> out;
    std::vector<SourceFile> all;
    for (const auto& f : t_.nix) all.push_back(f.src);
    for (const IsaRule& rule : learn_isa_rules(all, kb_)) {
      bool kept = std::none_of(variants_.begin(), variants_.end(), [&](const Read& read) {
        return read.v.sm == rule.sm && !read.v.isa.empty() &&
               std::find(rule.allowed.begin(), rule.allowed.end(), read.v.isa) == rule.allowed.end();
      });
      if (kept) out.emplace(rule.sm, rule);
    }
    return out;
  }

  // The [[family]] table of \a key's recipes \a vs, with its version tables and excludes.
  std::string family_toml(const Key& key, const std::vector<const Variant*>& vs,
                          const std::map<std::string, IsaRule>& isa_rules, std::set<std::string>& family_names) {
    std::string out =
        fmt::format("\n[[family]]\nname = {}\npackage = {}\nbackend = {}\n", toml_str(family_name(key, family_names)),
                    toml_str(key.package), toml_str(key.backend));
    if (!key.cuda.empty()) out += fmt::format("cuda = {}\n", toml_str(key.cuda));
    if (!key.versioned && key.pin != pin_) out += fmt::format("pin = {}\n", toml_str(key.pin));
    if (!key.python.empty()) out += fmt::format("python = {}\n", toml_str(key.python));
    std::map<std::string, std::string> word_version;  // of the versions read
    for (const RecipeVersion* rv : versions_[key]) word_version[rv->word] = rv->version;
    FamilyCells cells = cells_of(vs, kb_);
    if (!cells.sms.empty()) out += fmt::format("sm = {}\n", toml_list(cells.sms));
    if (!cells.isas.empty()) out += fmt::format("isa = {}\n", toml_list(cells.isas));
    out += cells.sets.line;
    if (!key.spelling.empty()) out += fmt::format("spelling = {}\n", key.spelling);
    out += inline_line(vs, t_, kb_, {});
    if (auto e = family_externals_.find(key); e != family_externals_.end()) out += external_toml(*e->second);
    if (key.versioned)
      out +=
          version_tables(versions_[key], *kb_.package(key.package), kb_.backend(key.backend)->gpu(), r_.warnings, kb_);
    std::map<std::string, std::set<std::string>> ruled;  // SM -> the targets its rule excludes
    out += rule_excludes(cells, isa_rules, ruled);
    return out + absent_excludes(key, cells, word_version, ruled);
  }

  // A family's name: package and backend (a backend bound to one platform by its OS:
  // pytorch-darwin), CUDA, spelling, SM set and version word's tail; its pin and Python where taken.
  std::string family_name(const Key& key, std::set<std::string>& family_names) const {
    const BackendDef* backend = kb_.backend(key.backend);
    const Platform* fixed = backend && !backend->platform.empty() ? kb_.platform(backend->platform) : nullptr;
    std::string base = key.package + "-" +
                       (fixed              ? std::string(name_of(fixed->os))
                        : key.cuda.empty() ? key.backend
                                           : kb_.cuda(key.cuda)->name_token());  // a variant name's CUDA is known
    for (const auto& [token, written] : spellings_.at(key))  // pytorch-cpu-arm64, pytorch-cuda12_8-no-avx512
      base += "-" + (written.empty() ? "no-" + token : written);
    if (!key.sm_set.empty()) base += "-" + key.sm_set.substr(0, key.sm_set.find('='));  // vllm-cuda12_9-all
    base += key.word_tail;                                                              // torchaudio-cuda12_9-pt212
    std::string name = base;
    if (family_names.count(name)) name = base + "-" + key.pin + key.python;
    for (int n = 2; family_names.count(name); ++n) name = fmt::format("{}-{}{}-{}", base, key.pin, key.python, n);
    family_names.insert(name);
    return name;
  }

  // 6. Prove it: the spec must expand to exactly the tree's names.
  void prove() {
    try {
      Spec spec = load_spec("imported.toml", r_.toml, kb_);
      Matrix m = expand(spec, kb_);
      std::set<std::string> tree, matrix;
      for (const auto& read : variants_) tree.insert(read.v.name);
      for (const auto& v : m.variants) matrix.insert(v.name);
      for (const auto& n : tree)
        if (!matrix.count(n)) {
          auto drops = m.dropped_named(n);
          r_.warnings.push_back(
              fmt::format("{}: the spec cannot express it{}", n, drops.empty() ? "" : ": " + drops.front()->reason));
        }
      for (const auto& n : matrix)
        if (!tree.count(n)) r_.warnings.push_back(fmt::format("{}: the spec yields it, the tree has no recipe", n));
    } catch (const DiagnosticError& e) {
      r_.warnings.push_back("the inferred spec does not load: " + e.diagnostic().message);
    }
  }

  const std::string& branch_;
  const KnowledgeBase& kb_;
  const ImportOptions& options_;
  ImportResult r_;
  std::vector<Problem> syntax_;  // TLR001: a file that does not parse says nothing a spec can reproduce
  LintTree t_;
  TreeOverrides tree_overrides_;
  BuilderCalls calls_;
  std::map<std::string, ImportedExternal> external_bases_;  // file -> its family's [family.external]
  const std::map<std::string, std::string> without_base_;   // file -> why it is left out
  // Read from the recipes.
  std::map<std::string, int> pins_, pythons_;
  std::vector<Read> variants_;
  std::vector<RecipeSources> sources_;      // what each recipe builds from source
  std::vector<std::string> catalog_;        // recipes that take their packages from the Flox catalog
  std::vector<std::string> tree_packages_;  // in file order, each once
  Remarks remarks_, kept_;  // on builder calls, one warning (kept: note) per fact however many files it reaches
  std::map<std::string, Foreign> foreign_;  // by URL
  std::string pinned_at_;                   // where a recipe names its pin, for --pin
  // The branch and its families.
  std::string pin_, python_;
  std::map<Key, std::vector<const Variant*>> groups_;
  std::map<Key, std::vector<const RecipeVersion*>> versions_;
  std::map<Key, std::map<std::string, std::string>> spellings_;
  std::map<Key, const ImportedExternal*> family_externals_;
  Claims claims_;
};

}  // namespace

ImportResult import_spec(const std::string& branch, std::vector<SourceFile> files, const KnowledgeBase& kb,
                         const ImportOptions& options) {
  return SpecImport(branch, std::move(files), kb, options).run();
}

}  // namespace tailor
