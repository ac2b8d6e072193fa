#include "import/import_versions.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/version_pairing.hpp"
#include "matrix/rules.hpp"
#include "util/quote.hpp"
#include "util/version.hpp"

namespace tailor {

using lint::LintTree;
using lint::NixFile;

namespace {

std::string shipped(const KnowledgeBase& kb, const std::string& pin, const std::string& attribute) {
  const NixpkgsPin* p = kb.pin(pin);
  const Version* v = p ? p->version(attribute) : nullptr;
  return v ? v->str() : "";
}

// The override that builds \a attribute: the recipe's own overrideAttrs before
// a variant record's (the record only repeats what its builder is asked to do).
const RecipeOverride* override_of(const std::vector<RecipeOverride>& overrides, const std::string& attribute) {
  const RecipeOverride* best = nullptr;
  for (const auto& o : overrides)
    if (o.attribute == attribute && (!best || (best->from_record && !o.from_record))) best = &o;
  return best;
}

// A workaround of the knowledge base fetches this source on \a pin when the
// spec asks for its version: the version table needs no source of its own.
bool workaround_fetches(const RecipeOverride& o, const std::string& pin, const KnowledgeBase& kb) {
  return std::any_of(kb.workarounds.begin(), kb.workarounds.end(), [&](const Workaround& w) {
    const auto& s = w.source_override;
    return s && s->attribute == o.attribute && s->version == o.version && s->fetch == o.fetch &&
           std::find(w.pins.begin(), w.pins.end(), pin) != w.pins.end() &&
           std::find(w.requested.begin(), w.requested.end(), std::pair{o.attribute, o.version}) != w.requested.end();
  });
}

// Whether \a f builds against a variant of \a attribute whose name carries a
// version word (`torchVariant = "pytorch210-…"`): the pairing says which.
bool against_versioned(const LintTree& t, const NixFile& f, const std::string& attribute, const KnowledgeBase& kb) {
  for (const auto& imp : f.facts.imports) {
    if (!imp.key.ends_with("Variant")) continue;
    const NixFile* g = lint::imported_file(t, f, imp.text);
    if (g && g->variant && !g->variant->package_word.empty() && kb.package(g->variant->package)->attribute == attribute)
      return true;
  }
  return false;
}

std::string source_toml(const GitHubSource& s) {
  std::string out = fmt::format("\n[family.version.source]\nowner = {}\nrepo = {}\nrev = {}\nhash = {}\n",
                                toml_string(s.owner), toml_string(s.repo), toml_string(s.rev), toml_string(s.hash));
  return s.fetch_submodules ? out + "fetch_submodules = true\n" : out;
}

// The version's 'name' where its word is not the default "{package}{version}":
// a pairing suffix ("-pt212") as the version's pairing tag (pairing = "pt{torch}",
// which the templates and the version table write too) and a name naming it,
// anything else as written.
std::string name_line(const RecipeVersion& r, const PackageDef& package) {
  std::string plain = package.name + version_word(r.version);
  if (r.word == plain) return "";
  for (const auto& [attribute, version] : r.paired) {
    std::string tail = version_word(version);
    if (!r.word.starts_with(plain + "-") || !r.word.ends_with(tail)) continue;
    std::string letters = r.word.substr(plain.size() + 1, r.word.size() - plain.size() - 1 - tail.size());
    if (!letters.empty() &&
        std::all_of(letters.begin(), letters.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
      return fmt::format("pairing = {}\nname = {}\n", toml_string(letters + "{" + attribute + "}"),
                         toml_string("{package}{version}-{pairing}"));
  }
  return fmt::format("name = {}\n", toml_string(r.word));
}

bool same_external(const std::optional<ImportedExternal>& x, const std::optional<ImportedExternal>& y) {
  if (x.has_value() != y.has_value()) return false;
  if (!x) return true;
  const ExternalRecipe &a = x->recipe, &b = y->recipe;
  return a.repo == b.repo && a.rev == b.rev && a.hash == b.hash && a.path == b.path && a.args == b.args;
}

bool same_source(const std::optional<RecipeOverride>& a, const std::optional<RecipeOverride>& b) {
  return a.has_value() == b.has_value() && (!a || (a->version == b->version && a->fetch == b->fetch));
}

}  // namespace

std::string external_toml(const ImportedExternal& x) {
  const ExternalRecipe& e = x.recipe;
  std::string out = fmt::format("\n[family.{}external.{}]\nrepo = {}\nrev = {}\n", e.family_level ? "" : "version.",
                                toml_key(e.attribute), toml_string(e.repo), toml_string(e.rev));
  if (e.hash.empty())
    out += fmt::format(
        "# no hash: the tree fetches it without one ({}); add hash = \"…\" "
        "(nix-prefetch-url --unpack {} prints it)\n",
        comment_text(x.at), comment_text(e.tarball_url()));
  else
    out += fmt::format("hash = {}\n", toml_string(e.hash));
  out += fmt::format("path = {}\n", toml_string(e.path));
  std::vector<std::string> args;
  for (const auto& [name, value] : e.args) args.push_back(fmt::format("{} = {}", toml_key(name), toml_string(value)));
  if (!args.empty()) out += fmt::format("args = {{ {} }}\n", fmt::join(args, ", "));  // none: `import … { }`
  return out;
}

std::string version_word(const std::string& version) {
  auto v = Version::parse(version);
  return v ? fmt::format("{}{}", v->major(), v->minor()) : "";
}

RecipeVersion read_recipe_version(const LintTree& t, const NixFile& f, const std::string& pin,
                                  const std::vector<RecipeOverride>& overrides, const KnowledgeBase& kb) {
  RecipeVersion r;
  r.file = f.src.rel;
  r.word = f.variant->package_word;
  r.pin = pin;
  const PackageDef& package = *kb.package(f.variant->package);
  // `(import ./lib/companion.nix { … }).overrideAttrs (old: { version = …; src = …; })`
  // overrides what the builder builds: the recipe's own package.
  std::vector<RecipeOverride> own = overrides;
  for (auto& o : own)
    if (o.attribute == "import") o.attribute = package.attribute;
  r.decided = {package.attribute, "import"};
  // Its own version: the source it builds, else what the pin ships.
  if (const RecipeOverride* o = override_of(own, package.attribute)) {
    if (!o->problem.empty()) {
      r.problem = fmt::format("it builds {}, but {}", o->describe(), o->problem);
      return r;
    }
    r.version = o->version;
    if (o->version != shipped(kb, pin, package.attribute) && !workaround_fetches(*o, pin, kb)) {
      if (o->clear_patches || !o->extra_sources.empty()) {
        r.problem = fmt::format("it builds {} with {}, which a [family.version.source] cannot state", o->describe(),
                                o->clear_patches ? "its patches cleared" : "further sources");
        return r;
      }
      r.source = *o;
    }
  } else {
    r.version = shipped(kb, pin, package.attribute);
    if (r.version.empty()) {
      r.problem =
          fmt::format("it builds the {} of nixpkgs {}, and the knowledge base does not record which version that is",
                      package.attribute, pin);
      return r;
    }
  }
  // What it is built against, where a spec must say the version.
  for (const PackageDef* b : built_packages(package, kb)) {
    if (b == &package || !b->version_in_pins) continue;
    const RecipeOverride* o = override_of(own, b->attribute);
    if (o && !o->problem.empty()) {
      r.problem = fmt::format("it builds against {}, but {}", o->describe(), o->problem);
      return r;
    }
    std::string version = o ? o->version : shipped(kb, pin, b->attribute);
    if (version.empty()) continue;
    if (!o) {
      // The pin's sources disagree on the version it ships: the one the recipe's
      // header states is what it builds; none stated leaves it to import_overrides' warning.
      const NixpkgsPin* k = kb.pin(pin);
      if (const FactEvidence* d = k ? k->version_dispute(b->attribute) : nullptr) {
        std::vector<std::string> header;
        for (const auto& c : f.facts.comments)
          if (c.key == "header") header.push_back(c.text);
        std::set<std::string> stated = stated_claims(header, b->display, *d);
        if (stated.size() != 1) continue;
        r.paired.emplace_back(b->attribute, *stated.begin());
        r.decided.push_back(b->attribute);
        continue;
      }
    }
    if (version != shipped(kb, pin, b->attribute) || against_versioned(t, f, b->attribute, kb)) {
      r.paired.emplace_back(b->attribute, version);
      r.decided.push_back(b->attribute);
    }
  }
  return r;
}

std::string version_tables(const std::vector<const RecipeVersion*>& recipes, const PackageDef& package, bool gpu,
                           std::vector<std::string>& warnings, const KnowledgeBase& kb) {
  std::map<std::string, std::vector<const RecipeVersion*>> by_word;
  for (const RecipeVersion* r : recipes) by_word[r->word].push_back(r);
  std::vector<const RecipeVersion*> firsts;
  for (const auto& [word, rs] : by_word) {
    const RecipeVersion& a = *rs.front();
    for (const RecipeVersion* b : rs) {
      // What b builds otherwise than a, as each says it; empty: the same.
      auto paired = [](const RecipeVersion& x) {
        std::vector<std::string> out;
        for (const auto& [attribute, version] : x.paired) out.push_back(attribute + " " + version);
        return out.empty() ? std::string("nothing paired") : fmt::format("{}", fmt::join(out, ", "));
      };
      auto external = [](const RecipeVersion& x) {
        if (!x.external) return std::string("nothing from another repository");
        std::vector<std::string> args;
        for (const auto& [name, value] : x.external->recipe.args) args.push_back(name + " = " + value);
        return fmt::format("{} called with {{ {} }}", x.external->recipe.describe(), fmt::join(args, ", "));
      };
      auto source = [](const RecipeVersion& x) {
        return x.source ? "the source " + x.source->describe() : std::string("no source of its own");
      };
      std::pair<std::string, std::string> differs =
          b->version != a.version                   ? std::pair{"version " + b->version, "version " + a.version}
          : b->paired != a.paired                   ? std::pair{paired(*b), paired(a)}
          : !same_source(a.source, b->source)       ? std::pair{source(*b), source(a)}
          : b->pin != a.pin                         ? std::pair{"nixpkgs " + b->pin, "nixpkgs " + a.pin}
          : !same_external(a.external, b->external) ? std::pair{external(*b), external(a)}
                                                    : std::pair<std::string, std::string>{};
      if (!differs.first.empty())
        warnings.push_back(
            fmt::format("{}: cannot reproduce: it builds {} with {}, and {} with {}; a [[family.version]] "
                        "builds one version, from one source, on one pin per CUDA toolkit",
                        b->file, word, differs.first, a.file, differs.second));
    }
    firsts.push_back(&a);
  }
  std::sort(firsts.begin(), firsts.end(), [](const RecipeVersion* x, const RecipeVersion* y) {
    return *Version::parse(x->version) < *Version::parse(y->version);
  });
  std::string out;
  for (const RecipeVersion* r : firsts) {
    out += fmt::format("\n[[family.version]]\nversion = {}\n", toml_string(r->version));
    bool deliberate = false;
    for (const auto& [attribute, version] : r->paired) {
      out += fmt::format("{} = {}\n", toml_key(attribute), toml_string(version));
      deliberate = deliberate || off_table(package, r->version, attribute, version, kb);
    }
    // Off the package's pairing table, as the tree names it: the spec says so.
    if (deliberate)
      out += fmt::format("deliberate = {}\n", toml_string(fmt::format("the imported tree builds it so ({})", r->word)));
    out += name_line(*r, package);
    out += fmt::format("{} = {}\n", gpu ? "pin" : "cpu_pin", toml_string(r->pin));
    if (r->source) out += source_toml(r->source->fetch);
    if (r->external) out += external_toml(*r->external);
  }
  return out;
}

}  // namespace tailor
