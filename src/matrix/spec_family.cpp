#include "matrix/spec_sections.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/github_names.hpp"
#include "kb/gpu_names.hpp"
#include "kb/invariants.hpp"
#include "kb/pin_query.hpp"
#include "kb/read_helpers.hpp"
#include "kb/version_pairing.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/page_template.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_sections.hpp"
#include "matrix/spec_values.hpp"
#include "matrix/table_words.hpp"
#include "matrix/version_table.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

std::vector<std::vector<Axis>> read_zips(const TomlDocument& doc, TableReader& r, const Family& fam) {
  std::vector<std::vector<Axis>> zips;
  const toml::node* n = r.node("zip");
  if (!n) return zips;
  const toml::array* outer = n->as_array();
  if (!outer) throw doc.error_at(*n, "'zip' must be an array of axis lists, e.g. [[\"cuda\", \"pin\"]]");
  std::vector<Axis> used;
  for (const auto& group : *outer) {
    const toml::array* g = group.as_array();
    if (!g || g->size() < 2)
      throw doc.error_at(group, "each 'zip' entry lists two or more axes, e.g. [\"cuda\", \"pin\"]");
    std::vector<Axis> axes;
    for (const auto& e : *g) {
      std::vector<std::string> names;
      for (Axis a : kAxes) names.emplace_back(axis_name(a));
      if (!e.is_string()) throw doc.error_at(e, "'zip' lists axis names");
      std::string name(e.as_string()->get());
      auto a = axis_from_name(name);
      if (!a) throw doc.error_at(e, fmt::format("unknown axis '{}' in 'zip'", name), did_you_mean(name, names));
      if (std::find(used.begin(), used.end(), *a) != used.end())
        throw doc.error_at(e, fmt::format("axis '{}' is zipped twice", name));
      used.push_back(*a);
      axes.push_back(*a);
    }
    size_t n0 = fam.axes.at(axes[0]).size();
    for (Axis a : axes) {
      if (fam.axes.at(a).size() != n0)
        throw doc.error_at(group, fmt::format("zipped axes must have as many values each: '{}' has {}, '{}' has {}",
                                              axis_name(axes[0]), n0, axis_name(a), fam.axes.at(a).size()));
    }
    zips.push_back(axes);
  }
  return zips;
}

// spelling = { armv8_2 = "armv8.2", cpu = "" }: keys are the family's ISAs or
// the backend's literal name words; values are name words or "" (left out).
std::map<std::string, std::string> read_spelling(const TomlDocument& doc, TableReader& r, const Family& fam,
                                                 const BackendDef& b) {
  std::map<std::string, std::string> out;
  const toml::table* t = r.table("spelling");
  if (!t) return out;
  std::vector<std::string> tokens;
  for (const auto& isa : fam.axes.at(Axis::isa))
    if (!isa.value.empty()) tokens.push_back(isa.value);
  for (const auto& seg : template_segments(b.name_part))
    if (seg.find('{') == std::string::npos) tokens.push_back(seg);
  for (const auto& [key, value] : *t) {
    std::string k(key.str());
    if (std::find(tokens.begin(), tokens.end(), k) == tokens.end())
      throw doc.error_at(value,
                         fmt::format("'spelling' respells words of this family's names; '{}' is none of them", k),
                         fmt::format("words: {}", fmt::join(tokens, ", ")));
    const std::string* v = value.is_string() ? &value.as_string()->get() : nullptr;
    bool word = v && std::all_of(v->begin(), v->end(), [](char c) {
                  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+';
                });
    if (!word)
      throw doc.error_at(value,
                         fmt::format("the spelling of '{}' must be a word of letters, digits and . _ +, or \"\"", k));
    out[k] = *v;
  }
  return out;
}

// sm_sets = { all = ["7.5", "8.0", …] }: names that the family's `sm` list may
// use for several SMs at once; the name is the SM word of the variants' names.
std::vector<SmSet> read_sm_sets(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb) {
  std::vector<SmSet> out;
  const toml::table* t = r.table("sm_sets");
  if (!t) return out;
  TableReader sets(doc, *t, "sm_sets");
  for (const auto& [key, value] : *t) {
    SmSet set;
    set.name = std::string(key.str());
    set.pos = pos_of(value);
    bool word = !set.name.empty() && std::all_of(set.name.begin(), set.name.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!word)
      throw doc.error_at(value, fmt::format("SM set name '{}' must be a word of a-z, 0-9 and _ (it is the SM word of "
                                            "variant names)",
                                            comment_text(set.name)));
    for (const auto& g : kb.gpus)
      if (g.sm == set.name || g.has_name_token(set.name))
        throw doc.error_at(value, fmt::format("SM set name '{}' is the name of SM {}", set.name, g.sm),
                           "name the set by what it covers, e.g. \"all\"");
    set.sms = *sets.strings(set.name);
    if (set.sms.size() < 2)
      throw doc.error_at(value,
                         fmt::format("SM set '{}' lists {} SM{}: a set has two or more", set.name, set.sms.size(),
                                     set.sms.size() == 1 ? "" : "s"),
                         "write a single SM in 'sm' itself");
    check_known(doc, set.sms, kb.gpu_names(), "SM (compute capability)", sm_hint(kb), true);
    out.push_back(std::move(set));
  }
  return out;
}

// The packages built against \a base ("companion-of"): those that may build it inline.
std::vector<std::string> companions_of(const std::string& base, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& p : kb.packages)
    if (const PackageDef* b = kb.needed(p, NeedStrategy::companion_of); b && b->name == base) out.push_back(p.name);
  return out;
}

// inline = ["pytorch"]: only the package that every package of the family is
// a companion of can be built inside the companions' recipes.
AxisValues read_inline(const TomlDocument& doc, TableReader& r, const Family& fam, const KnowledgeBase& kb) {
  auto values = r.strings("inline");
  if (!values) return {};
  check_known(doc, *values, kb.package_names(), "package");
  for (const auto& v : *values) {
    std::vector<std::string> companions = companions_of(v.value, kb);
    for (const auto& p : fam.axes.at(Axis::package))
      if (std::find(companions.begin(), companions.end(), p.value) == companions.end())
        throw doc.error_at(v.pos,
                           fmt::format("{} of family '{}' is not a companion of {}: a family builds inline only the "
                                       "package its packages are built against",
                                       p.value, fam.name, v.value),
                           companions.empty()
                               ? fmt::format("no package is built against {}", v.value)
                               : fmt::format("companions of {}: {}", v.value, fmt::join(companions, ", ")));
  }
  return *values;
}

// [[family.version]] entries of the family's one package, their names told apart.
void read_versions(const TomlDocument& doc, const std::vector<const toml::table*>& versions, const AxisValues& package,
                   const std::string& what, const KnowledgeBase& kb, Family& fam) {
  if (package.size() > 1)
    throw doc.error_at(*versions.front(),
                       fmt::format("{} lists versions of several packages: give each package a family "
                                   "of its own",
                                   what));
  const PackageDef& pk = *kb.package(package[0].value);
  fam.axes[Axis::version].clear();
  for (const toml::table* vt : versions) {
    PackageVersion pv = read_version(doc, *vt, pk, kb);
    for (const auto& other : fam.versions)
      if (other.word == pv.word)
        throw doc.error_at(
            pv.pos,
            fmt::format("versions {} and {} of {} are both named '{}'", other.version, pv.version, what, pv.word),
            "give one of them a 'name' that tells them apart, e.g. name = \"{package}{version}-pt{torch}\"");
    if (pv.names_pins() && fam.axes.at(Axis::pin).size() > 1)
      throw doc.error_at(
          pv.pos,
          fmt::format("version {} names its pins, and {} lists several: the version's pins decide", pv.version, what),
          "remove 'pin' from the family");
    fam.axes[Axis::version].push_back(Located<std::string>{pv.version, pv.pos});
    fam.versions.push_back(std::move(pv));
  }
}

// [family.external.*]: its templates may name what every version pairs with; a
// version that takes the family's recipe says which version that recipe builds,
// as one with its own does.
void read_family_externals(const TomlDocument& doc, const toml::node& ext, const AxisValues& package,
                           const KnowledgeBase& kb, Family& fam) {
  std::vector<std::string> paired;
  if (!fam.versions.empty())
    for (const auto& pair : fam.versions.front().paired) {
      const std::string& attribute = pair.first;  // a named reference: clang 14 cannot capture a structured binding
      if (std::all_of(fam.versions.begin(), fam.versions.end(),
                      [&](const PackageVersion& pv) { return !pv.paired_with(attribute).empty(); }))
        paired.push_back(attribute);
    }
  for (const auto& p : package)  // each package of the family is built against what it names
    fam.external = read_externals(doc, ext, *kb.package(p.value), paired, nullptr, kb);
  for (const auto& e : fam.external)
    for (const auto& pv : fam.versions)
      if (!pv.external_for(e.attribute)) require_paired(doc, pv.pos, pv, e.attribute);
}

// A set variant targets several SMs: an external recipe's argument cannot name one.
void check_set_externals(const TomlDocument& doc, const Family& fam, const std::string& what) {
  std::vector<const ExternalRecipe*> externals;
  for (const auto& pv : fam.versions)
    for (const auto& e : pv.external) externals.push_back(&e);
  for (const auto& e : fam.external) externals.push_back(&e);
  for (const ExternalRecipe* e : externals)
    for (size_t i = 0; i < e->args.size() && !fam.sm_sets.empty(); ++i)
      if (e->args[i].second.find("{sm") != std::string::npos)
        throw doc.error_at(e->arg_pos[i],
                           fmt::format("argument '{}' names the variant's SM, and {} has SM sets, whose variants "
                                       "target several",
                                       e->args[i].first, what),
                           "give the sets a family of their own without this argument");
}

// [[family.include]]: one cell each, every axis with several values named.
void read_includes(const TomlDocument& doc, TableReader& r, const std::string& what, const KnowledgeBase& kb,
                   Family& fam) {
  for (const toml::table* e : r.tables("include")) {
    CellFilter inc = read_filter(doc, *e, "[[family.include]]", false, kb, fam.sm_sets);
    if (!inc.platforms.empty()) throw doc.error_at(*e, "an include names axis values; 'platform' follows from the ISA");
    for (Axis a : kAxes) {
      auto it = inc.values.find(a);
      const AxisValues& fam_values = fam.axes.at(a);
      if (it == inc.values.end()) {
        if (fam_values.size() != 1)
          throw doc.error_at(*e, fmt::format("this include must name '{}': {} lists several", axis_name(a), what));
        inc.values[a] = {fam_values[0].value};
      } else if (it->second.size() != 1) {
        throw doc.error_at(*e, fmt::format("an include names one cell: '{}' must be a single value", axis_name(a)));
      } else if (fam_values.size() == 1 && fam_values[0].value.empty()) {
        throw doc.error_at(*e, fmt::format("'{}' does not apply to {}", axis_name(a), what));
      }
    }
    fam.includes.push_back(std::move(inc));
  }
}

}  // namespace

Family read_family(const TomlDocument& doc, const toml::table& t, const BranchDefaults& defaults,
                   const KnowledgeBase& kb) {
  TableReader r(doc, t, "[[family]]");
  r.expect_keys({"name", "package", "backend", "python", "pin", "cuda", "sm", "isa", "platform", "zip", "exclude",
                 "include", "spelling", "inline", "version", "sm_sets", "external"});
  Family fam;
  fam.pos = pos_of(t);
  fam.name = safe_name(doc, r.required_string("name"), "family name");
  std::string what = fmt::format("family '{}'", fam.name);

  auto backend = r.required_string("backend");
  const BackendDef* b = kb.backend(backend.value);
  if (!b) {
    std::string hint = did_you_mean(backend.value, kb.backend_names());
    if (hint.empty()) hint = fmt::format("backends: {}", fmt::join(kb.backend_names(), ", "));
    throw doc.error_at(backend.pos, fmt::format("unknown backend '{}'", backend.value), hint);
  }
  fam.backend = b->name;

  auto package = r.strings("package");
  if (!package || package->empty()) throw doc.error_at(t, fmt::format("{} needs 'package'", what));
  fam.axes[Axis::package] = *package;
  check_axis_value(doc, Axis::package, fam.axes[Axis::package], kb);
  const PackageDef* top_level = nullptr;  // a package without the Python axis
  for (const auto& p : *package) {
    const PackageDef& pk = *kb.package(p.value);
    if (!pk.builds_for(fam.backend))
      throw doc.error_at(p.pos, fmt::format("package '{}' is built with {} only; {} has backend '{}'", p.value,
                                            backend_list(pk, kb), what, fam.backend));
    if (!pk.python()) top_level = &pk;
  }
  if (top_level && package->size() > 1)
    throw doc.error_at((*package)[0].pos,
                       fmt::format("{} has no Python axis: give it a family of its own", top_level->name));

  // Axes that apply to the backend must be given; the others must not be.
  auto axis = [&](Axis a, bool applies, bool required, const AxisValues* fallback) {
    auto v = r.strings(axis_name(a));
    if (v && !applies) {
      throw doc.error_at(v->empty() ? fam.pos : (*v)[0].pos,
                         fmt::format("'{}' does not apply to {} (backend '{}'{})", axis_name(a), what, fam.backend,
                                     top_level ? ", package " + top_level->name : ""));
    }
    if (!applies) {
      fam.axes[a] = {Located<std::string>{"", fam.pos}};
      return;
    }
    if (v && v->empty()) throw doc.error_at(fam.pos, fmt::format("'{}' in {} is empty", axis_name(a), what));
    if (!v && required)
      throw doc.error_at(fam.pos, fmt::format("{} needs '{}' (backend '{}')", what, axis_name(a), fam.backend));
    if (!v && fallback && fallback->empty())
      throw doc.error_at(fam.pos, fmt::format("{} needs '{}' (backend '{}'), and [branch] gives none to inherit", what,
                                              axis_name(a), fam.backend));
    fam.axes[a] = v ? *v : *fallback;
    if (v) check_axis_value(doc, a, fam.axes[a], kb, &fam.sm_sets);
  };
  axis(Axis::python, !top_level, false, &defaults.python);
  axis(Axis::pin, true, false, &defaults.pin);
  fam.axes[Axis::version] = {Located<std::string>{"", fam.pos}};
  if (std::vector<const toml::table*> versions = r.tables("version"); !versions.empty())
    read_versions(doc, versions, *package, what, kb, fam);
  if (const toml::node* ext = r.node("external")) read_family_externals(doc, *ext, *package, kb, fam);
  fam.sm_sets = read_sm_sets(doc, r, kb);
  check_set_externals(doc, fam, what);
  if (!fam.sm_sets.empty() && !b->has_axis("sm"))
    throw doc.error_at(fam.sm_sets.front().pos,
                       fmt::format("'sm_sets' does not apply to {} (backend '{}')", what, fam.backend));
  for (Axis a : {Axis::cuda, Axis::sm, Axis::isa}) axis(a, b->has_axis(axis_name(a)), true, nullptr);
  for (const auto& set : fam.sm_sets) {
    const auto& sms = fam.axes.at(Axis::sm);
    if (std::none_of(sms.begin(), sms.end(), [&](const auto& v) { return v.value == set.name; }))
      throw doc.error_at(set.pos, fmt::format("SM set '{}' is not in the 'sm' list of {}", set.name, what),
                         fmt::format("add \"{}\" to 'sm' to build it", set.name));
  }

  if (auto p = r.strings("platform")) {
    check_known(doc, *p, kb.platforms.systems(), "platform");
    for (const auto& x : *p) fam.platforms.push_back(x.value);
    if (!p->empty()) fam.platforms_pos = (*p)[0].pos;
  }
  fam.zips = read_zips(doc, r, fam);
  fam.spelling = read_spelling(doc, r, fam, *b);
  fam.inline_packages = read_inline(doc, r, fam, kb);
  for (const toml::table* e : r.tables("exclude"))
    fam.excludes.push_back(read_filter(doc, *e, "[[family.exclude]]", true, kb, fam.sm_sets));
  read_includes(doc, r, what, kb, fam);
  r.finish();
  return fam;
}

}  // namespace tailor
