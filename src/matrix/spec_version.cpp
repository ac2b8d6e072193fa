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
#include "matrix/template_words.hpp"
#include "matrix/version_table.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

// "0.26.0" -> "026", "2.12.0" -> "212": the major and minor numbers, as trees write them in names.
std::string version_short(const std::string& version) {
  Version v = *Version::parse(version);
  return fmt::format("{}{}", v.major(), v.minor());
}

// The packages \a package is a companion of, by nixpkgs attribute: what a
// recipe of another repository may build for it.
std::vector<std::string> companion_bases(const PackageDef& package, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& n : package.needs)
    if (n.strategy == NeedStrategy::companion_of) out.push_back(kb.package(n.package)->attribute);
  return out;
}

// One argument template of an external recipe: the words of the recipe scope, those of the
// attributes \a paired (what its versions pair with) among them; {pkgs} only alone (a package set, not text).
void check_external_arg(const TomlDocument& doc, const Located<std::string>& v,
                        const std::vector<std::string>& paired) {
  std::vector<std::string> words = scope_words(WordScope::recipe, paired);
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
    const TemplateWord* row = find_word(WordScope::recipe, word, {});
    if (row && row->fact == WordFact::pkgs && v.value != "{pkgs}")
      throw doc.error_at(v.pos, "'{pkgs}' is the variant's nixpkgs package set: it is an argument's whole value",
                         "write pkgs = \"{pkgs}\"");
  }
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

}  // namespace

std::string resolve_pin(const TomlDocument& doc, const Located<std::string>& p, const KnowledgeBase& kb) {
  const NixpkgsPin* pin = kb.pin(p.value);
  if (!pin) {
    std::string hint = did_you_mean(p.value, kb.pin_names());
    throw doc.error_at(p.pos, fmt::format("unknown nixpkgs pin '{}'", p.value), hint.empty() ? kAddPin : hint);
  }
  return pin->short_rev;
}

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

std::vector<ExternalRecipe> read_externals(const TomlDocument& doc, const toml::node& ext, const PackageDef& package,
                                           const std::vector<std::string>& paired, const PackageVersion* pv,
                                           const KnowledgeBase& kb) {
  std::vector<std::string> bases = companion_bases(package, kb);
  // The example names what the package is built against ([family.external.torch] for a torch companion).
  std::string table =
      fmt::format("[family.{}external.{}]", pv ? "version." : "", bases.empty() ? "ATTRIBUTE" : bases.front());
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

}  // namespace tailor
