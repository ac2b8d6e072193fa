#include "matrix/spec_loader.hpp"

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

// Branch, product and family names become file, Nix attribute and CI job names.
std::string safe_name(const TomlDocument& doc, const Located<std::string>& v, std::string_view what) {
  if (auto why = unsafe_name_reason(v.value))
    throw doc.error_at(v.pos, fmt::format("{} '{}' {}", what, comment_text(v.value), *why),
                       "names are letters, digits and . _ + -, starting with a letter or a digit");
  return v.value;
}

// Free text (a summary, a reason) is one line without control characters: it
// lands in one-line places (a # comment, a table cell, a job's description).
std::string plain_text(const TomlDocument& doc, const Located<std::string>& v, std::string_view what) {
  for (char c : v.value) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      throw doc.error_at(v.pos,
                         fmt::format("{} contains the control character 0x{:02x}{}", what, u,
                                     c == '\n'   ? " (a line break)"
                                     : c == '\t' ? " (a tab)"
                                                 : ""),
                         "write it on one line, without tabs");
  }
  return v.value;
}

// Checks each value of \a values against \a known; unknown ones are errors
// with a did-you-mean hint (or \a extra_hint's suggestion).
// Versions (CUDA, SM, Python) get the list of known values: edit distance
// suggests '12.0' for '12.7', which helps nobody.
void check_known(const TomlDocument& doc, const AxisValues& values, const std::vector<std::string>& known,
                 std::string_view what, const std::function<std::string(const std::string&)>& extra_hint = {},
                 bool numeric = false) {
  for (size_t i = 0; i < values.size(); ++i) {
    const auto& v = values[i];
    for (size_t j = 0; j < i; ++j)
      if (values[j].value == v.value) throw doc.error_at(v.pos, fmt::format("{} '{}' is listed twice", what, v.value));
    if (std::find(known.begin(), known.end(), v.value) != known.end()) continue;
    std::string hint = extra_hint ? extra_hint(v.value) : std::string();
    if (hint.empty() && !numeric) hint = did_you_mean(v.value, known);
    if (hint.empty()) hint = fmt::format("known: {}", fmt::join(known, ", "));
    throw doc.error_at(v.pos, fmt::format("unknown {} '{}'", what, v.value), hint);
  }
}

// "sm90" -> write 9.0; "H100" -> H100 is 9.0; "9.9" -> the products of the SMs around it.
std::function<std::string(const std::string&)> sm_hint(const KnowledgeBase& kb) {
  return [&kb](const std::string& v) {
    if (auto sm = sm_from_token(v)) return fmt::format("write compute capabilities as MAJOR.MINOR: '{}'", *sm);
    return tailor::sm_hint(kb, v);
  };
}

// How a pin the knowledge base lacks gets into it: measured from a nixpkgs
// checkout into an overlay, which every command then reads.
constexpr const char* kAddPin =
    "a pin the knowledge base lacks: tailor kb probe-pin REV --nixpkgs PATH -o kb/nixpkgs_pins.toml, then --kb kb "
    "(or TAILOR_KB=kb)";

// Pins may be written short or full; names use the short form.
void normalize_pins(const TomlDocument& doc, AxisValues& pins, const KnowledgeBase& kb, const PinQuery& wanted = {}) {
  for (auto& p : pins) {
    const NixpkgsPin* pin = kb.pin(p.value);
    if (!pin) {
      std::vector<std::string> known = kb.pin_names();
      std::string hint = did_you_mean(p.value, known);
      if (hint.empty()) hint = pin_hint(kb, wanted) + "; " + kAddPin;
      throw doc.error_at(p.pos, fmt::format("unknown nixpkgs pin '{}'", p.value), hint);
    }
    p.value = pin->short_rev;
  }
  check_known(doc, pins, kb.pin_names(), "nixpkgs pin");
}

AxisValues required_values(TableReader& r, std::string_view key) {
  auto v = r.strings(key);
  if (!v) throw r.doc().error_at(r.pos(), fmt::format("[branch] needs '{}'", key));
  if (v->empty()) throw r.doc().error_at(r.pos(), fmt::format("'{}' in [branch] is empty", key));
  return *v;
}

struct Defaults {
  AxisValues python;
  AxisValues pin;
};

// \a sets: the SM sets a family defines; their names are SM values too.
void check_axis_value(const TomlDocument& doc, Axis axis, AxisValues& values, const KnowledgeBase& kb,
                      const std::vector<SmSet>* sets = nullptr) {
  switch (axis) {
    case Axis::package: check_known(doc, values, kb.package_names(), "package"); break;
    case Axis::version:
      for (const auto& v : values)
        if (!Version::parse(v.value)) throw doc.error_at(v.pos, fmt::format("'{}' is not a version", v.value));
      break;
    case Axis::python: check_known(doc, values, kb.python_names(), "Python version", {}, true); break;
    case Axis::pin: normalize_pins(doc, values, kb); break;
    case Axis::cuda: check_known(doc, values, kb.cuda_names(), "CUDA version", {}, true); break;
    case Axis::sm: {
      std::vector<std::string> known = kb.gpu_names();
      if (sets)
        for (const auto& set : *sets) known.push_back(set.name);
      check_known(doc, values, known, "SM (compute capability)", sm_hint(kb), true);
      break;
    }
    case Axis::isa: check_known(doc, values, kb.isa_names(), "ISA"); break;
  }
}

CellFilter read_filter(const TomlDocument& doc, const toml::table& t, const char* what, bool needs_reason,
                       const KnowledgeBase& kb, const std::vector<SmSet>& sets) {
  TableReader r(doc, t, what);
  CellFilter f;
  f.pos = pos_of(t);
  for (Axis a : kAxes) {
    auto v = r.strings(axis_name(a));
    if (!v) continue;
    if (v->empty()) throw doc.error_at(t, fmt::format("'{}' in {} is empty", axis_name(a), what));
    check_axis_value(doc, a, *v, kb, &sets);
    for (const auto& x : *v) f.values[a].push_back(x.value);
  }
  if (auto p = r.strings("platform")) {
    check_known(doc, *p, kb.platforms.systems(), "platform");
    for (const auto& x : *p) f.platforms.push_back(x.value);
  }
  if (needs_reason) {
    auto reason = r.string("reason");
    if (!reason)
      throw doc.error_at(t, fmt::format("{} needs a 'reason' (it is shown when a variant is dropped)", what));
    f.reason = plain_text(doc, *reason, "the reason");
  }
  r.finish();
  if (f.values.empty() && f.platforms.empty()) throw doc.error_at(t, fmt::format("{} names no axis", what));
  return f;
}

// "CUDA", "CUDA or CPU": the backends a package is built for, as people say them.
std::string backend_list(const PackageDef& p, const KnowledgeBase& kb) {
  std::vector<std::string> names;
  for (const auto& b : p.backends) names.push_back(kb.backend(b)->display);
  if (names.size() < 2) return names.front();
  return fmt::format("{} or {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

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

// "0.26.0" -> "026", "2.12.0" -> "212": the major and minor numbers, as trees write them in names.
std::string version_short(const std::string& version) {
  Version v = *Version::parse(version);
  return fmt::format("{}{}", v.major(), v.minor());
}

std::string resolve_pin(const TomlDocument& doc, const Located<std::string>& p, const KnowledgeBase& kb) {
  const NixpkgsPin* pin = kb.pin(p.value);
  if (!pin) {
    std::string hint = did_you_mean(p.value, kb.pin_names());
    throw doc.error_at(p.pos, fmt::format("unknown nixpkgs pin '{}'", p.value), hint.empty() ? kAddPin : hint);
  }
  return pin->short_rev;
}

// The packages \a package is a companion of, by nixpkgs attribute: what a
// recipe of another repository may build for it.
std::vector<std::string> companion_bases(const PackageDef& package, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& n : package.needs)
    if (n.strategy == NeedStrategy::companion_of) out.push_back(kb.package(n.package)->attribute);
  return out;
}

// One argument template of an external recipe: words of external_recipe_words
// and the attributes \a paired (what its versions pair with); {pkgs} only alone (a package set, not text).
void check_external_arg(const TomlDocument& doc, const Located<std::string>& v,
                        const std::vector<std::string>& paired) {
  std::vector<std::string> words = external_recipe_words();
  for (const auto& attribute : paired) words.insert(words.end(), {attribute, attribute + "_short"});
  for (char c : v.value)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw doc.error_at(v.pos, "an argument of the recipe contains a control character", "write it on one line");
  for (const auto& [word, closed] : template_keys(v.value)) {
    if (!closed || std::find(words.begin(), words.end(), word) == words.end()) {
      std::vector<std::string> braced;
      for (const auto& w : words) braced.push_back("{" + w + "}");
      throw doc.error_at(v.pos, fmt::format("'{{{}}}' is no word of an external recipe's arguments", word),
                         fmt::format("words: {}", fmt::join(braced, ", ")));
    }
    if (word == "pkgs" && v.value != "{pkgs}")
      throw doc.error_at(v.pos, "'{pkgs}' is the variant's nixpkgs package set: it is an argument's whole value",
                         "write pkgs = \"{pkgs}\"");
  }
}

// A version that takes \a attribute from another repository's recipe (\a at: its
// own table, or its family's) must say which \a attribute that recipe builds (torch = "2.11.0").
void require_paired(const TomlDocument& doc, Pos at, const PackageVersion& pv, const std::string& attribute) {
  if (pv.paired_with(attribute).empty())
    throw doc.error_at(at,
                       fmt::format("version {} takes {} from another repository's recipe and does not say which {} "
                                   "that recipe builds",
                                   pv.version, attribute, attribute),
                       fmt::format("add {} = \"…\" to the [[family.version]]: the version of that repository, not "
                                   "the pin's",
                                   attribute));
}

// [family.version.external.torch] or [family.external.torch] (\a family_level):
// repo, rev, hash, path, args; \a paired: the attributes its templates may name.
ExternalRecipe read_external_recipe(const TomlDocument& doc, const toml::table& t, const std::string& attribute,
                                    const std::vector<std::string>& paired, bool family_level) {
  ExternalRecipe e;
  e.attribute = attribute;
  e.family_level = family_level;
  e.pos = pos_of(t);
  TableReader r(doc, t, e.table());
  r.expect_keys({"repo", "rev", "hash", "path", "args"});
  // owner/repo, or https://HOST/PATH with a host of dot-separated labels and no "." or ".."
  // segment: the tarball URL is built from it, and ../ would leave the repository.
  static const std::regex url(
      R"(^https://[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+(/[A-Za-z0-9_.~-]+)+$)");
  static const std::regex rev(R"(^[A-Za-z0-9_][A-Za-z0-9._-]*$)");
  auto is_repository = [&](const std::string& v) {
    for (size_t at = 0; at <= v.size();) {  // no segment "." or ".."
      size_t slash = std::min(v.find('/', at), v.size());
      std::string_view seg(v.data() + at, slash - at);
      if (seg == "." || seg == "..") return false;
      at = slash + 1;
    }
    size_t slash = v.find('/');
    if (slash != std::string::npos && v.find('/', slash + 1) == std::string::npos)
      return is_github_owner(std::string_view(v).substr(0, slash)) &&
             is_github_repo(std::string_view(v).substr(slash + 1));
    return std::regex_match(v, url);
  };
  // Segments may start with one dot (".flox/pkgs/…"), never be "." or ".."; {words} fill it per variant.
  static const std::regex path(R"(^\.?[A-Za-z0-9_+{}-][A-Za-z0-9_.+{}-]*(/\.?[A-Za-z0-9_+{}-][A-Za-z0-9_.+{}-]*)*$)");
  auto repo = r.required_string("repo");
  if (!is_repository(repo.value))
    throw doc.error_at(repo.pos, fmt::format("'{}' is no repository", comment_text(repo.value)),
                       "write owner/repo (GitHub) or the https URL of the repository, whose tarballs are "
                       "URL/archive/REV.tar.gz");
  e.repo = repo.value;
  auto rv = r.required_string("rev");
  if (!std::regex_match(rv.value, rev))
    throw doc.error_at(rv.pos, fmt::format("'{}' is no revision", comment_text(rv.value)),
                       "a commit id or a tag: letters, digits and . _ -");
  e.rev = rv.value;
  if (auto h = r.string("hash")) {
    if (!is_nix_sha256(h->value))
      throw doc.error_at(
          h->pos, "'" + comment_text(h->value) + "' is not a Nix sha256 hash",
          "nix-prefetch-url --unpack URL prints it (Nix base32), or write sha256-<44 base64 characters>");
    e.hash = h->value;
    e.hash_pos = h->pos;
  }
  auto p = r.required_string("path");
  if (!std::regex_match(p.value, path))
    throw doc.error_at(p.pos, fmt::format("'{}' is no path inside the repository", comment_text(p.value)),
                       "a relative path such as \"recipes/torch.nix\", without .. or a leading /");
  check_external_arg(doc, p, paired);
  if (p.value.find("{pkgs}") != std::string::npos)
    throw doc.error_at(p.pos, "'{pkgs}' is the variant's package set, no word of a path");
  e.path = p.value;
  e.path_pos = p.pos;
  if (const toml::node* a = r.node("args")) {
    if (!a->is_table()) throw doc.error_at(*a, "'args' is a table of the recipe's arguments: { name = \"value\", … }");
    for (const auto& [key, value] : *a->as_table()) {
      std::string name = require_nix_identifier(doc, {std::string(key.str()), pos_of(value)}, "argument name");
      if (!value.is_string())
        throw doc.error_at(value, fmt::format("argument '{}' must be a string (a template of words)", name));
      Located<std::string> v{value.as_string()->get(), pos_of(value)};
      check_external_arg(doc, v, paired);
      e.args.emplace_back(name, v.value);
      e.arg_pos.push_back(v.pos);
    }
  }
  r.finish();
  return e;
}

// The `external` table of the version \a pv, or of a family (\a pv null): a
// table per attribute of a package \a package is a companion of; \a paired: the
// attributes their templates may name.
std::vector<ExternalRecipe> read_externals(const TomlDocument& doc, const toml::node& ext, const PackageDef& package,
                                           const std::vector<std::string>& paired, const PackageVersion* pv,
                                           const KnowledgeBase& kb) {
  std::vector<std::string> bases = companion_bases(package, kb);
  const std::string table = pv ? "[family.version.external.torch]" : "[family.external.torch]";
  if (!ext.is_table()) throw doc.error_at(ext, "'external' holds a table per package it is built against: " + table);
  std::vector<ExternalRecipe> out;
  for (const auto& [key, value] : *ext.as_table()) {
    std::string attribute(key.str());
    if (std::find(bases.begin(), bases.end(), attribute) == bases.end())
      throw doc.error_at(value,
                         fmt::format("{} is not built against '{}': only what it is built against can come from "
                                     "another repository's recipe",
                                     package.name, attribute),
                         bases.empty() ? fmt::format("{} is built against no other package", package.name)
                                       : fmt::format("{} is built against {}", package.name, fmt::join(bases, ", ")));
    if (!value.is_table())
      throw doc.error_at(value, fmt::format("'external.{}' must be a table: repo, rev, hash, path, args", attribute));
    if (pv) require_paired(doc, pos_of(value), *pv, attribute);
    out.push_back(read_external_recipe(doc, *value.as_table(), attribute, paired, !pv));
  }
  return out;
}

// A release paired off its package's table (kb/version_pairing.hpp): an
// error at \a paired, whose hint cites the table's source.
void check_pairing(const TomlDocument& doc, const PackageDef& package, const std::string& version,
                   const std::string& attribute, const Located<std::string>& paired, const KnowledgeBase& kb) {
  if (!off_table(package, version, attribute, paired.value, kb)) return;
  PairedRelease r = paired_release(package, version, attribute, kb);
  throw doc.error_at(paired.pos,
                     fmt::format("{} {} is made for {} {}, not {}: built against another release it fails at import",
                                 package.name, version, attribute, r.text(), paired.value),
                     fmt::format("{} {} pairs with {} {} ({}); pair them so, or say why in deliberate = \"…\"",
                                 package.name, major_minor(version), attribute, r.text(), r.table->source));
}

// [[family.version]]: version, the versions it pairs with (by attribute of a
// package it is built against: torch = "2.12.0"), pin, cuda_pins, cpu_pin,
// pairing (its pairing tag: "pt{torch}"), name (its package word:
// "{package}{version}-{pairing}") and [source].
PackageVersion read_version(const TomlDocument& doc, const toml::table& t, const PackageDef& package,
                            const KnowledgeBase& kb) {
  TableReader r(doc, t, "[[family.version]]");
  std::vector<std::string> keys = {"version", "pin",      "cuda_pins",  "cpu_pin", "name",
                                   "source",  "external", "deliberate", "pairing"};
  std::vector<std::string> against;
  for (const PackageDef* b : built_packages(package, kb))
    if (b != &package) against.push_back(b->attribute);
  keys.insert(keys.end(), against.begin(), against.end());
  r.expect_keys(keys);
  PackageVersion pv;
  pv.pos = pos_of(t);
  auto version = r.required_string("version");
  if (!Version::parse(version.value))
    throw doc.error_at(version.pos, fmt::format("'{}' is not a version", version.value));
  pv.version = version.value;
  std::vector<std::pair<std::string, std::string>> fill = {{"package", package.name},
                                                           {"version", version_short(pv.version)}};
  // A pairing off the package's table (a companion built against another torch
  // fails at import) only where the spec says why (the team's -pt212 builds).
  auto deliberate = r.string("deliberate");
  if (deliberate && deliberate->value.find_first_not_of(" \t") == std::string::npos)
    throw doc.error_at(deliberate->pos, "'deliberate' says why the version is built against another release");
  for (const auto& attr : against)
    if (auto v = r.string(attr)) {
      if (!Version::parse(v->value)) throw doc.error_at(v->pos, fmt::format("'{}' is not a version", v->value));
      if (!deliberate) check_pairing(doc, package, version.value, attr, *v, kb);
      pv.paired.emplace_back(attr, v->value);
      fill.emplace_back(attr, version_short(v->value));
    }
  if (auto p = r.string("pin")) pv.pin = resolve_pin(doc, *p, kb);
  if (auto p = r.string("cpu_pin")) pv.cpu_pin = resolve_pin(doc, *p, kb);
  if (const toml::table* pins = r.table("cuda_pins")) {
    for (const auto& [key, value] : *pins) {
      std::string cuda(key.str());
      std::vector<std::string> known = kb.cuda_names();
      if (std::find(known.begin(), known.end(), cuda) == known.end())
        throw doc.error_at(value, fmt::format("unknown CUDA version '{}' in 'cuda_pins'", cuda),
                           fmt::format("known: {}", fmt::join(known, ", ")));
      if (!value.is_string()) throw doc.error_at(value, "'cuda_pins' maps a CUDA version to a nixpkgs pin");
      pv.cuda_pins[cuda] = resolve_pin(doc, Located<std::string>{value.as_string()->get(), pos_of(value)}, kb);
    }
  }
  // A template over the version's words, checked as its name is (a word it does not have is an error).
  auto words_of = [&](const Located<std::string>& n, std::string_view what) {
    for (const auto& key : template_keys(n.value)) {
      bool known = std::any_of(fill.begin(), fill.end(), [&](const auto& f) { return f.first == key.word; });
      if (known) continue;
      std::vector<std::string> words;
      for (const auto& f : fill) words.push_back("{" + f.first + "}");
      throw doc.error_at(
          n.pos, fmt::format("'{{{}}}' in the {} of version {} is none of its words", key.word, what, pv.version),
          fmt::format("words: {}", fmt::join(words, ", ")));
    }
  };
  if (auto tag = r.string("pairing")) {
    words_of(*tag, "pairing");
    if (pv.paired.empty())
      throw doc.error_at(tag->pos, fmt::format("version {} has a pairing tag and pairs with nothing", pv.version),
                         "say what it is built against (torch = \"…\"), or remove 'pairing'");
    pv.pairing = fill_template(tag->value, fill);
    if (pv.pairing.empty()) throw doc.error_at(tag->pos, "'pairing' is empty");
    if (auto why = unsafe_name_reason(pv.pairing))
      throw doc.error_at(tag->pos, fmt::format("the pairing tag '{}' {}", comment_text(pv.pairing), *why));
    fill.emplace_back("pairing", pv.pairing);
  }
  std::string tmpl = "{package}{version}";
  if (auto n = r.string("name")) {
    words_of(*n, "name");
    tmpl = n->value;
  }
  pv.word = fill_template(tmpl, fill);
  if (auto why = unsafe_name_reason(pv.word))
    throw doc.error_at(t.get("name") ? pos_of(*t.get("name")) : pv.pos,
                       fmt::format("the name word '{}' {}", comment_text(pv.word), *why));
  if (const toml::table* src = r.table("source")) {
    SourceOverride o;
    o.pos = pos_of(*src);
    o.attribute = package.attribute;
    o.version = pv.version;
    o.fetch = read_github_source(doc, *src, "[family.version.source]", "rev");
    pv.source = std::move(o);
  }
  if (const toml::node* ext = r.node("external")) {
    std::vector<std::string> paired;
    for (const auto& [attribute, version] : pv.paired) paired.push_back(attribute);
    pv.external = read_externals(doc, *ext, package, paired, &pv, kb);
  }
  if (!pv.source && !package.version_in_pins) {
    throw doc.error_at(
        pv.pos,
        fmt::format("{} {} has no [source], and no pin records which {} it ships", package.name, pv.version,
                    package.name),
        "give the version a [family.version.source] (owner, repo, rev, hash) to build it from its release");
  }
  r.finish();
  return pv;
}

Family read_family(const TomlDocument& doc, const toml::table& t, const Defaults& defaults, const KnowledgeBase& kb) {
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
  if (std::vector<const toml::table*> versions = r.tables("version"); !versions.empty()) {
    if (package->size() > 1)
      throw doc.error_at(*versions.front(),
                         fmt::format("{} lists versions of several packages: give each package a family "
                                     "of its own",
                                     what));
    const PackageDef& pk = *kb.package((*package)[0].value);
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
  if (const toml::node* ext = r.node("external")) {
    // Its templates may name what every version pairs with; a version that takes the
    // family's recipe says which version that recipe builds, as one with its own does.
    std::vector<std::string> paired;
    if (!fam.versions.empty())
      for (const auto& pair : fam.versions.front().paired) {
        const std::string& attribute = pair.first;  // a named reference: clang 14 cannot capture a structured binding
        if (std::all_of(fam.versions.begin(), fam.versions.end(),
                        [&](const PackageVersion& pv) { return !pv.paired_with(attribute).empty(); }))
          paired.push_back(attribute);
      }
    for (const auto& p : *package)  // each package of the family is built against what it names
      fam.external = read_externals(doc, *ext, *kb.package(p.value), paired, nullptr, kb);
    for (const auto& e : fam.external)
      for (const auto& pv : fam.versions)
        if (!pv.external_for(e.attribute)) require_paired(doc, pv.pos, pv, e.attribute);
  }
  fam.sm_sets = read_sm_sets(doc, r, kb);
  // A set variant targets several SMs: an external recipe's argument cannot name one.
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
  r.finish();
  return fam;
}

// [[claim]] pin = "0182a36", cuda = ["13.0"], reason = "…": facts the pin's
// record lacks. A list the record says is complete (measured) cannot be contradicted.
PinClaim read_claim(const TomlDocument& doc, const toml::table& t, const KnowledgeBase& kb) {
  TableReader r(doc, t, "[[claim]]");
  r.expect_keys({"pin", "cuda", "python", "reason"});
  PinClaim c;
  c.pos = pos_of(t);
  auto pin = r.required_string("pin");
  const NixpkgsPin* p = kb.pin(pin.value);
  if (!p)
    throw doc.error_at(pin.pos, fmt::format("'{}' is not a nixpkgs pin of the knowledge base", pin.value),
                       did_you_mean(pin.value, kb.pin_names()));
  c.pin = p->short_rev;
  c.reason = r.required_string("reason").value;
  auto read = [&](const char* list, std::vector<std::string>& into, const std::vector<std::string>& recorded,
                  const std::vector<std::string>& known) {
    auto values = r.strings(list);
    if (!values) return;
    check_known(doc, *values, known, list == std::string("cuda") ? "CUDA toolkit" : "Python version");
    for (const auto& v : *values) {
      bool has = std::find(recorded.begin(), recorded.end(), v.value) != recorded.end();
      if (!has && p->is_complete(list))
        throw doc.error_at(v.pos,
                           fmt::format("nixpkgs pin {} is recorded without {} {}: its {} list is complete", c.pin,
                                       list == std::string("cuda") ? "CUDA" : "Python", v.value, list),
                           "tailor kb probe-pin measured it; remove the claim or choose another pin");
      into.push_back(v.value);
    }
  };
  read("cuda", c.cuda, p->cuda, kb.cuda_names());
  read("python", c.python, p->python, kb.python_names());
  if (c.cuda.empty() && c.python.empty()) throw doc.error_at(t, "a [[claim]] names 'cuda' or 'python' values");
  r.finish();
  return c;
}

BuildPolicy read_build(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[build]");
  r.expect_keys({"gb_per_job", "max_jobs", "strip_toolchain", "compress_fatbin", "metadata_rev", "prune_cuda_libraries",
                 "keep_cache"});
  BuildPolicy b;
  auto positive = [&](std::string_view key, int& into) {
    if (auto v = r.integer(key)) {
      if (v->value < 1 || v->value > 4096)
        throw doc.error_at(v->pos, fmt::format("'{}' must be between 1 and 4096", key));
      into = static_cast<int>(v->value);
      return true;
    }
    return false;
  };
  positive("gb_per_job", b.gb_per_job);
  int max_jobs = 0;
  if (positive("max_jobs", max_jobs)) b.max_jobs = max_jobs;
  if (auto v = r.boolean("strip_toolchain")) b.strip_toolchain = v->value;
  if (auto v = r.boolean("compress_fatbin")) b.compress_fatbin = v->value;
  positive("metadata_rev", b.metadata_rev);
  if (auto v = r.boolean("prune_cuda_libraries")) {
    b.prune_cuda_libraries = v->value;
    b.prune_cuda_libraries_pos = v->pos;
  }
  if (auto v = r.boolean("keep_cache")) {
    b.keep_cache = v->value;
    b.keep_cache_pos = v->pos;
  }
  r.finish();
  return b;
}

// [tailor]: source = "catalog", or source = "pinned" with owner, repo, rev, hash.
TailorSource read_tailor(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[tailor]");
  TailorSource src;
  src.pos = pos_of(t);
  auto kind = r.required_string("source");
  if (kind.value == "catalog") {
    src.kind = TailorSource::Kind::catalog;
  } else if (kind.value == "pinned") {
    src.kind = TailorSource::Kind::pinned;
    src.fetch = read_fetch(r, "rev");
    if (src.fetch.fetch_submodules)
      throw doc.error_at(pos_of(*t.get("fetch_submodules")), "tailor's source has no submodules to fetch");
  } else {
    throw doc.error_at(kind.pos, fmt::format("source '{}' is not \"pinned\" or \"catalog\"", kind.value),
                       "\"pinned\": built from owner/repo at rev (with its hash) by its nix/package.nix; "
                       "\"catalog\": the recipes take tailor as their `tailor` argument");
  }
  r.finish();
  return src;
}

// A package pruned after install is prebuilt: its CPU code is generic, so its
// variants are named and described with the baseline ISA alone.
// So is a GPU variant made from the binary caches' build ([build] keep_cache).
void require_baseline_isas(const TomlDocument& doc, const Family& f, const Spec& spec, const KnowledgeBase& kb) {
  const BackendDef* backend = kb.backend(f.backend);
  for (const auto& p : f.axes.at(Axis::package)) {
    const PackageDef* def = kb.package(p.value);
    bool cached = spec.build.keep_cache && def && def->cache != CacheRole::none && backend && backend->gpu();
    if (!def || (def->gpu_target != GpuTargetStrategy::pruned_output && !cached)) continue;
    for (const auto& isa : f.axes.at(Axis::isa))
      if (const CpuIsa* i = kb.isa(isa.value); i && !i->flags.empty())
        throw doc.error_at(
            isa.pos,
            cached ? fmt::format("{} comes from the binary caches ([build] keep_cache): its CPU code is nixpkgs' "
                                 "generic build, so it has no {} variant",
                                 def->display, i->display)
                   : fmt::format("{} is prebuilt: its CPU code is generic, so it has no {} variant", def->display,
                                 i->display),
            "give the family the baseline ISA of its platform (an ISA without compiler flags)");
  }
}

// [build] keep_cache: every GPU variant is made from what the binary caches
// hold, so nothing may change that build (pruned CUDA libraries, a source
// override, another version than the pin's), each GPU package needs a cache
// role, and one built on a cached package finds that package's pruned copy
// in its own cell: its family builds it too.
void require_cache_roles(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb) {
  if (!spec.build.keep_cache) return;
  const std::string keep = fmt::format("keep_cache (line {})", spec.build.keep_cache_pos.line);
  if (spec.build.prune_cuda_libraries)
    throw doc.error_at(spec.build.prune_cuda_libraries_pos,
                       fmt::format("prune_cuda_libraries changes the CUDA libraries every package of the pin links, "
                                   "so no build would come from the binary caches, which {} keeps",
                                   keep),
                       "drop one of the two");
  if (!spec.source_overrides.empty())
    throw doc.error_at(spec.source_overrides.front().pos,
                       fmt::format("a source override rebuilds {}, which {} takes from the binary caches as the pin "
                                   "ships it",
                                   spec.source_overrides.front().attribute, keep),
                       "drop the override, or keep_cache");
  if (!spec.versions.empty())
    throw doc.error_at(spec.build.keep_cache_pos,
                       fmt::format("keep_cache takes each package as the pin ships it, and [branch] asks for {} {}",
                                   spec.versions.front().first, spec.versions.front().second),
                       "drop the version request: the pin's version is the one the caches hold");
  for (const auto& f : spec.families) {
    const BackendDef* backend = kb.backend(f.backend);
    if (!backend || !backend->gpu()) continue;
    for (const auto& p : f.axes.at(Axis::package)) {
      const PackageDef* def = kb.package(p.value);
      if (!def) continue;
      if (def->cache == CacheRole::none)
        throw doc.error_at(p.pos,
                           fmt::format("{} has no cached build to keep: packages.toml gives it no `cache`, and {} "
                                       "makes every GPU variant from the binary caches",
                                       def->display, keep),
                           "build it in a spec without keep_cache");
      if (!f.inline_packages.empty())
        throw doc.error_at(f.inline_packages.front().pos,
                           fmt::format("{} takes the pruned copy of its cell's own variant ({}): nothing is built "
                                       "inside its recipe",
                                       def->display, keep),
                           "drop `inline` and list the package in the family");
      if (def->cache != CacheRole::dependencies_replaced) continue;
      for (const auto& n : def->needs) {
        const PackageDef* copied = kb.package(n.package);
        if (!copied || copied->cache != CacheRole::pruned_copy) continue;
        const auto& listed = f.axes.at(Axis::package);
        if (std::none_of(listed.begin(), listed.end(), [&](const auto& q) { return q.value == copied->name; }))
          throw doc.error_at(p.pos,
                             fmt::format("{} keeps the binary caches by taking the pruned copy of its cell's {}, "
                                         "which family '{}' does not build",
                                         def->display, copied->display, f.name),
                             fmt::format("add \"{}\" to the family's packages", copied->name));
      }
    }
  }
}

// What runs tailor in a build phase (pruning the CUDA libraries, a package
// pruned after install) needs [tailor] to say where tailor comes from.
void require_tailor_source(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb) {
  if (spec.tailor.kind != TailorSource::Kind::none) return;
  constexpr const char* hint =
      "add [tailor] with source = \"catalog\" (the recipes take tailor as an argument) or source = \"pinned\" "
      "with owner, repo, rev and hash (built from that source's nix/package.nix)";
  if (spec.build.prune_cuda_libraries)
    throw doc.error_at(
        spec.build.prune_cuda_libraries_pos,
        "prune_cuda_libraries runs tailor prune in the builds, and the spec does not say where tailor comes from",
        hint);
  if (spec.build.keep_cache)
    for (const auto& f : spec.families)
      for (const auto& p : f.axes.at(Axis::package))
        if (const PackageDef* def = kb.package(p.value); def && def->cache == CacheRole::pruned_copy)
          throw doc.error_at(spec.build.keep_cache_pos,
                             fmt::format("keep_cache prunes the copy of each cached {} with tailor prune in its build, "
                                         "and the spec does not say where tailor comes from",
                                         def->display),
                             hint);
  for (const auto& f : spec.families)
    for (const auto& p : f.axes.at(Axis::package))
      if (const PackageDef* def = kb.package(p.value); def && def->gpu_target == GpuTargetStrategy::pruned_output)
        throw doc.error_at(p.pos,
                           fmt::format("{} is pruned to each variant's SMs by tailor prune in its build, and the spec "
                                       "does not say where tailor comes from",
                                       def->display),
                           hint);
}

// A [[source_override]] must build a package a family of the spec builds, once,
// at the version [branch] asks for (when it asks).
SourceOverride read_spec_override(const TomlDocument& doc, const toml::table& t, const Spec& spec,
                                  const KnowledgeBase& kb) {
  SourceOverride o = read_source_override(doc, t, "[[source_override]]", true);
  for (size_t i = 0; i < o.pins.size(); ++i) o.pins[i] = resolve_pin(doc, {o.pins[i], o.pin_positions[i]}, kb);
  auto at = [&](const char* key) { return pos_of(*t.get(key)); };
  std::vector<std::string> built;
  for (const auto& f : spec.families)
    for (const auto& p : f.axes.at(Axis::package))
      for (const PackageDef* b : built_packages(*kb.package(p.value), kb))
        if (std::find(built.begin(), built.end(), b->attribute) == built.end()) built.push_back(b->attribute);
  if (std::find(built.begin(), built.end(), o.attribute) == built.end())
    throw doc.error_at(at("attribute"),
                       fmt::format("no family of the spec builds the nixpkgs attribute '{}'", o.attribute),
                       built.empty() ? "" : fmt::format("the spec builds {}", fmt::join(built, ", ")));
  // Several overrides of one attribute build different versions, or the same on other pins.
  for (const auto& other : spec.source_overrides) {
    if (other.attribute != o.attribute || other.version != o.version) continue;
    bool overlap =
        other.pins.empty() || o.pins.empty() || std::any_of(o.pins.begin(), o.pins.end(), [&](const std::string& p) {
          return std::find(other.pins.begin(), other.pins.end(), p) != other.pins.end();
        });
    if (overlap) throw doc.error_at(o.pos, fmt::format("'{}' has a source override already", o.attribute));
  }
  std::string asked = spec.requested(o.attribute);
  if (!asked.empty() && asked != o.version)
    throw doc.error_at(at("version"), fmt::format("the override builds {} {}, but [branch] asks for {} = \"{}\"",
                                                  o.attribute, o.version, o.attribute, asked));
  return o;
}

// A path of the tree a [layout] names: relative, without "..", no dot-dot tricks.
std::string layout_path(const TomlDocument& doc, const Located<std::string>& p, std::string_view what) {
  std::filesystem::path fp(p.value);
  bool ok = !p.value.empty() && fp.is_relative() && p.value.find('\\') == std::string::npos &&
            std::none_of(fp.begin(), fp.end(), [](const std::filesystem::path& part) { return part == ".."; }) &&
            std::none_of(p.value.begin(), p.value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (!ok)
    throw doc.error_at(p.pos, fmt::format("{} '{}' is no path inside the tree", what, comment_text(p.value)),
                       "a relative path such as \".flox/pkgs/lib/builder.nix\", without .. or a leading /");
  return std::filesystem::path(p.value).lexically_normal().generic_string();
}

// Where byte \a offset of the string \a value is written: exact in a literal ('…' or
// '''…'''), whose text is the file's; at the string's start when escapes may shift it.
Pos string_pos(const TomlDocument& doc, const toml::node& value, size_t offset) {
  Pos p = pos_of(value);
  const std::string& text = doc.text();
  size_t line_begin = 0;
  for (int line = 1; line < p.line; ++line) {
    line_begin = text.find('\n', line_begin);
    if (line_begin == std::string::npos) return p;
    ++line_begin;
  }
  size_t at = line_begin + static_cast<size_t>(p.column - 1);
  if (at >= text.size() || text[at] != '\'') return p;
  bool multi = text.compare(at, 3, "'''") == 0;
  at += multi ? 3 : 1;
  if (multi && at < text.size() && text[at] == '\n') ++at;  // TOML trims the newline after '''
  Pos out = p;
  for (size_t i = line_begin; i < at + offset && i < text.size(); ++i)
    if (text[i] == '\n') ++out.line, line_begin = i + 1;
  out.column = static_cast<int>(at + offset - line_begin) + 1;
  return out;
}

// [layout]: keep = [builder files], replaces = "script", [layout.wrapper]
// backend = "template", [layout.gpu_names] "9.0" / "9.0 aarch64" = "names".
Layout read_layout(const TomlDocument& doc, const toml::table& t, const Spec& spec, const KnowledgeBase& kb) {
  TableReader r(doc, t, "[layout]");
  r.expect_keys(
      {"dir", "keep", "replaces", "wrapper", "gpu_names", "drivers", "tables", "pages", "targets", "arch_names"});
  Layout l;
  l.pos = pos_of(t);
  if (auto d = r.string("dir")) l.dir = layout_path(doc, *d, "the wrappers' directory");
  if (auto keep = r.strings("keep"))
    for (const auto& k : *keep) l.keep.push_back(layout_path(doc, k, "a kept file"));
  // One script, or the list of them (the wrappers' and the pages').
  if (const toml::node* rep = t.get("replaces"); rep && rep->is_array()) {
    if (auto scripts = r.strings("replaces"))
      for (const auto& s : *scripts) l.replaces.push_back(layout_path(doc, s, "the script"));
  } else if (auto s = r.string("replaces")) {
    l.replaces.push_back(layout_path(doc, *s, "the script"));
  }
  const toml::table* w = r.table("wrapper");
  if (!w || w->empty())
    throw doc.error_at(
        l.pos, "[layout] needs [layout.wrapper]: the text of a variant's file per backend",
        "cuda = \"{ pkgs ? import <nixpkgs> {} }:\\nimport ./lib/build.nix { sm = \\\"{sm_nodot}\\\"; }\\n\"");
  for (const auto& [key, value] : *w) {
    std::string backend(key.str());  // a backend, or a family whose wrappers have their own text
    if (!kb.backend(backend) && !spec.family(backend))
      throw doc.error_at(value, fmt::format("'{}' is no backend of the knowledge base and no family of the spec",
                                            comment_text(backend)));
    if (!value.is_string()) throw doc.error_at(value, "a wrapper is the text of the file, a string");
    const std::string& text = value.as_string()->get();
    if (auto bad = unknown_layout_word(text))
      throw doc.error_at(value, fmt::format("'{{{}}}' is no word of a wrapper", *bad),
                         fmt::format("words: {}", fmt::join(kLayoutWords, ", ")));
    l.wrapper[backend] = text;
  }
  if (const toml::table* g = r.table("gpu_names")) {
    for (const auto& [key, value] : *g) {
      std::string k(key.str());
      std::string sm = k.substr(0, k.find(' '));
      std::string platform = k.size() > sm.size() ? k.substr(sm.size() + 1) : "";
      if (!kb.gpu(sm) || (!platform.empty() && platform != "x86_64" && platform != "aarch64"))
        throw doc.error_at(value,
                           fmt::format("'{}' is not an SM of the knowledge base, optionally followed by "
                                       "x86_64 or aarch64",
                                       comment_text(k)),
                           "\"9.0\" or \"9.0 aarch64\"");
      if (!value.is_string()) throw doc.error_at(value, "GPU names are one string, as the wrappers write them");
      l.gpu_names[k] = value.as_string()->get();
    }
  }
  // [layout.drivers] "12.8" = "550": the team's driver floor per CUDA.
  if (const toml::table* d = r.table("drivers")) {
    for (const auto& [key, value] : *d) {
      std::string k(key.str());
      if (!kb.cuda(k))
        throw doc.error_at(value, fmt::format("'{}' is not a CUDA toolkit of the knowledge base", comment_text(k)));
      auto v = value.is_string() ? Version::parse(value.as_string()->get()) : std::nullopt;
      if (!v || v->major() < 300 || v->major() >= 1000)
        throw doc.error_at(value, "a driver floor is a Linux driver version as a string", "\"550\" or \"570.26\"");
      l.drivers[k] = value.as_string()->get();
    }
  }
  // [layout.tables] "path" = "text with {word@key}": the words are checked here,
  // their values when the matrix is known (generate).
  if (const toml::table* tables = r.table("tables")) {
    for (const auto& [key, value] : *tables) {
      std::string path = layout_path(doc, Located<std::string>{std::string(key.str()), pos_of(value)}, "a table");
      if (!value.is_string()) throw doc.error_at(value, "a table is the text of the file, a string");
      for (const auto& p : table_pieces(value.as_string()->get())) {
        std::string_view word = std::string_view(p.text).substr(0, p.text.find('@'));
        std::string_view key = std::string_view(p.text).substr(p.text.find('@') + 1);
        // A version table's entry ({#version} blocks, version_table.hpp) has words of its own.
        bool entry_word =
            (key == "version" && std::find(kVersionWords.begin(), kVersionWords.end(), word) != kVersionWords.end()) ||
            (key == "cuda_pin" && (word == "cuda_underscore" || word == "pin"));
        if (p.word && !entry_word && std::find(kTableWords.begin(), kTableWords.end(), word) == kTableWords.end())
          throw doc.error_at(
              value, fmt::format("'{{{}}}' is no word of a table", comment_text(p.text)),
              fmt::format("words: {}, each followed by @ and its SM or CUDA", fmt::join(kTableWords, ", ")));
      }
      if (path == l.dir || std::find(l.keep.begin(), l.keep.end(), path) != l.keep.end())
        throw doc.error_at(
            value, fmt::format("'{}' is kept and written: a table is written, a kept file never", comment_text(path)));
      l.tables[path] = value.as_string()->get();
    }
  }
  // [layout.pages] "path with {cell words}" = "text with blocks and words": parsed here, so
  // an unknown word or block is an error at its place.
  if (const toml::table* pages = r.table("pages")) {
    for (const auto& [key, value] : *pages) {
      std::string path = layout_path(doc, Located<std::string>{std::string(key.str()), pos_of(value)}, "a page");
      if (!value.is_string()) throw doc.error_at(value, "a page is the text of the file, a string");
      for (const auto& p : template_pieces(path)) {
        static const std::vector<std::string> cell = {"version",         "version_mm", "version_mm_nodot",
                                                      "torch",           "torch_mm",   "cuda",
                                                      "cuda_underscore", "python",     "python_nodot"};
        if (p.word && std::find(cell.begin(), cell.end(), p.text) == cell.end())
          throw doc.error_at(value, fmt::format("'{{{}}}' is no word of a page's path", comment_text(p.text)),
                             fmt::format("words: {}", fmt::join(cell, ", ")));
      }
      const std::string& text = value.as_string()->get();
      try {
        parse_page_template(text);
      } catch (const PageTemplateError& e) {
        throw doc.error_at(string_pos(doc, value, e.offset), e.what());
      }
      l.pages[path] = text;
    }
  }
  // [layout.arch_names] "11.0" = "DRIVE Thor": the team's name of an architecture.
  if (const toml::table* names = r.table("arch_names")) {
    for (const auto& [key, value] : *names) {
      if (!kb.gpu(std::string(key.str())))
        throw doc.error_at(value, fmt::format("'{}' is not an SM of the knowledge base", comment_text(key.str())));
      if (!value.is_string()) throw doc.error_at(value, "an architecture's name is a string");
      l.arch_names[std::string(key.str())] = value.as_string()->get();
    }
  }
  // [layout.targets] isa = ["text", …]: the words a page's rows write per CPU target.
  if (const toml::table* targets = r.table("targets")) {
    for (const auto& [key, value] : *targets) {
      std::string isa(key.str());
      if (!kb.isa(isa))
        throw doc.error_at(value, fmt::format("'{}' is no CPU target of the knowledge base", comment_text(isa)));
      const toml::array* a = value.as_array();
      if (!a || a->empty() || a->size() > 9 || !a->is_homogeneous(toml::node_type::string))
        throw doc.error_at(value, "a target's texts are a list of one to nine strings",
                           "avx2 = [\"broad x86 compatibility\"]");
      for (const auto& s : *a) l.target_text[isa].push_back(s.as_string()->get());
    }
  }
  r.finish();
  return l;
}
}  // namespace

Spec load_spec(std::string path, std::string text, const KnowledgeBase& kb) {
  TomlDocument doc(path, text);
  TableReader root(doc, doc.root(), "the spec");
  const toml::node* branch_node = root.node("branch");
  const toml::node* build_node = root.node("build");
  const toml::node* family_node = root.node("family");
  const toml::node* tailor_node = root.node("tailor");
  const toml::node* layout_node = root.node("layout");
  root.node("source_override");
  root.node("claim");
  root.finish();

  Spec spec;
  spec.path = path;
  spec.text = text;
  if (!branch_node || !branch_node->is_table())
    throw doc.error_at(branch_node ? pos_of(*branch_node) : Pos{1, 1}, "the spec needs a [branch] table",
                       "[branch] names the product line: name, product, pin, python");
  TableReader b(doc, *branch_node->as_table(), "[branch]");
  // Besides its own keys, [branch] may request a version of each package whose
  // version pins record, by nixpkgs attribute: torch = "2.10.0".
  std::vector<std::string> keys = {"name", "product", "summary", "pin", "python"};
  const size_t first_version_key = keys.size();
  for (const auto& p : kb.packages)
    if (p.version_in_pins) keys.push_back(p.attribute);
  b.expect_keys(keys);
  spec.name = safe_name(doc, b.required_string("name"), "branch name");
  spec.product = safe_name(doc, b.required_string("product"), "product name");
  if (auto s = b.string("summary")) spec.summary = plain_text(doc, *s, "the summary");
  Defaults defaults;
  // A matrix of top-level packages alone has no Python axis.
  if (b.node("python")) {
    defaults.python = required_values(b, "python");
    check_known(doc, defaults.python, kb.python_names(), "Python version", nullptr, true);
  }
  for (size_t k = first_version_key; k < keys.size(); ++k) {
    if (auto v = b.string(keys[k])) {
      if (!Version::parse(v->value)) throw doc.error_at(v->pos, fmt::format("'{}' is not a version", v->value));
      spec.versions.emplace_back(keys[k], v->value);
    }
  }
  // The pin is chosen by what it provides: say which pins fit what [branch] asks for.
  PinQuery wanted{spec.versions, defaults.python.size() == 1 ? defaults.python.front().value : "", ""};
  if (!b.node("pin")) throw doc.error_at(b.pos(), "[branch] needs 'pin'", pin_hint(kb, wanted));
  defaults.pin = required_values(b, "pin");
  normalize_pins(doc, defaults.pin, kb, wanted);
  b.finish();

  if (build_node) {
    if (!build_node->is_table()) throw doc.error_at(*build_node, "[build] must be a table");
    spec.build = read_build(doc, *build_node->as_table());
  }
  if (tailor_node) {
    if (!tailor_node->is_table()) throw doc.error_at(*tailor_node, "[tailor] must be a table");
    spec.tailor = read_tailor(doc, *tailor_node->as_table());
  }

  TableReader families(doc, doc.root(), "the spec");
  std::vector<const toml::table*> tables = families.tables("family");
  if (tables.empty())
    throw doc.error_at(family_node ? pos_of(*family_node) : Pos{1, 1}, "the spec defines no [[family]]",
                       "a [[family]] names a package, a backend and its axes");
  for (const toml::table* t : tables) {
    Family f = read_family(doc, *t, defaults, kb);
    require_baseline_isas(doc, f, spec, kb);
    for (const auto& other : spec.families)
      if (other.name == f.name) throw doc.error_at(f.pos, fmt::format("family '{}' is defined twice", f.name));
    spec.families.push_back(std::move(f));
  }
  for (const toml::table* t : families.tables("source_override"))
    spec.source_overrides.push_back(read_spec_override(doc, *t, spec, kb));
  for (const toml::table* t : families.tables("claim")) spec.claims.push_back(read_claim(doc, *t, kb));
  if (layout_node) {
    if (!layout_node->is_table()) throw doc.error_at(*layout_node, "[layout] must be a table");
    spec.layout = read_layout(doc, *layout_node->as_table(), spec, kb);
  }
  require_tailor_source(doc, spec, kb);
  require_cache_roles(doc, spec, kb);
  return spec;
}

std::string spec_source(const std::string& path, const std::string& tree) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return path;  // embedded: its key
  auto canonical = [](const fs::path& p) {
    std::error_code e;
    fs::path c = fs::weakly_canonical(fs::absolute(p, e), e);
    return e ? fs::absolute(p).lexically_normal() : c;
  };
  const fs::path spec = canonical(path);
  auto inside = [&](const fs::path& dir) -> std::optional<std::string> {
    fs::path rel = spec.lexically_relative(canonical(dir));
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    return rel.generic_string();
  };
  if (!tree.empty())
    if (auto r = inside(tree)) return *r;
  if (auto r = inside(fs::current_path(ec)); r && !ec) return *r;
  return spec.filename().generic_string();
}

Spec load_spec_arg(const std::string& arg, const KnowledgeBase& kb) {
  std::error_code ec;
  // Anything at the path is read as the spec: a FIFO, device or directory is refused by name (read_file.hpp).
  if (std::filesystem::exists(arg, ec)) {
    Spec spec = load_spec(arg, read_text_file(arg, "spec file"), kb);
    spec.source = spec_source(arg);
    return spec;
  }
  // Embedded examples: "build-pytorch/main", "examples/build-pytorch/main.toml".
  std::string key = arg;
  if (!key.starts_with("examples/")) key = "examples/" + key;
  if (!key.ends_with(".toml")) key += ".toml";
  if (auto text = embedded_file(key)) return load_spec(key, std::string(*text), kb);
  std::vector<std::string> builtin;
  for (const auto& f : embedded_files())
    if (f.path.starts_with("examples/")) {
      std::string name(f.path.substr(9));
      builtin.push_back(name.substr(0, name.size() - 5));
    }
  Diagnostic d;
  d.path = arg;
  d.message = "no such spec file or built-in spec";
  // The few nearest names, not all of them: "buid-pytorch/mian" needs one line.
  std::string_view word = arg;
  if (word.starts_with("examples/")) word.remove_prefix(9);
  if (word.ends_with(".toml")) word.remove_suffix(5);
  d.hint = did_you_mean(word, builtin);
  if (d.hint.empty())
    d.hint = fmt::format("nearest built-in specs: {} ({} in all); or give the path of a spec file",
                         fmt::join(nearest(word, builtin, 4), ", "), builtin.size());
  throw DiagnosticError(d);
}

}  // namespace tailor
