// TLR033 version-text: "PyTorch 2.9.1" in a header comment, a description or
// the tree's README where the recipe builds another version: the pin's
// (nixpkgs_pins.toml versions), its source override's (`version` beside `src`) or,
// in a generated tree, its variant record's (`torchSource = { …; version = "2.10.0"; }`).
// Display names come from the packages of the knowledge base.
// TLR034 version-disputed: the same, where the version the recipe builds is one
// the pin's sources disagree on: a warning naming them, never an error.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/package.hpp"
#include "lint/checks.hpp"
#include "lint/claim_context.hpp"
#include "lint/doc_claims.hpp"

namespace tailor::lint {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return c >= '0' && c <= '9'; }

/// What a recipe builds: attribute -> version; `unknown` when a source override
/// is not readable (a builder's parameter), so no claim about it can be judged.
struct Built {
  std::map<std::string, std::string> versions;
  std::set<std::string> unknown;
  /// attribute -> the pin whose shipped version of it is disputed (and built as shipped).
  std::map<std::string, const NixpkgsPin*> disputed;
  bool all_unknown = false;

  /// The version of \a attribute, or empty when it cannot be told.
  std::string of(const std::string& attribute) const {
    if (all_unknown || unknown.count(attribute)) return "";
    auto it = versions.find(attribute);
    return it == versions.end() ? "" : it->second;
  }
};

/// "PyTorch 2.9.1": a package's display name, then a version.
struct Claim {
  const PackageDef* package;
  size_t at, length;  ///< the version in the line
  size_t name_at;     ///< the display name in the line
};

/// The version claims of \a line: a display name standing alone, then spaces or
/// ": ", an optional 'v', and X.Y or X.Y.Z.
std::vector<Claim> claims_in(std::string_view line, const KnowledgeBase& kb) {
  std::vector<Claim> out;
  for (const auto& p : kb.packages) {
    if (p.display.empty()) continue;
    for (size_t k = line.find(p.display); k != std::string_view::npos; k = line.find(p.display, k + 1)) {
      if (k > 0 && alnum(line[k - 1])) continue;
      size_t a = k + p.display.size();
      if (a < line.size() && line[a] == ':') ++a;
      size_t spaces = a;
      while (a < line.size() && line[a] == ' ') ++a;
      if (a == spaces) continue;
      if (a < line.size() && line[a] == 'v') ++a;
      size_t e = a;
      int dots = 0;
      while (e < line.size() &&
             (digit(line[e]) || (line[e] == '.' && e + 1 < line.size() && digit(line[e + 1]) && e > a)))
        dots += line[e++] == '.';
      if (dots == 0 || (e < line.size() && alnum(line[e]))) continue;
      out.push_back({&p, a, e - a, k});
    }
  }
  return out;
}

/// Whether \a c in \a line says what is built: not history or a range ("SM120 support
/// was added in PyTorch 2.7"), not another branch ("the pytorch-2.10 branch builds PyTorch 2.10.0").
bool claims_what_is_built(std::string_view line, const Claim& c) {
  return !historical_claim(line, c.name_at, c.at + c.length) && !about_other_branch(line, line.substr(c.at, c.length));
}

/// Whether \a claim ("2.9" or "2.9.1") names \a built ("2.9.1"): equal in every part the claim writes.
bool agrees(std::string_view claim, const std::string& built) {
  auto c = Version::parse(claim), b = Version::parse(built);
  if (!c || !b) return true;
  for (size_t i = 0; i < c->size(); ++i)
    if (c->part(i) != b->part(i)) return false;
  return true;
}

/// Whether \a text names \a version on its own ("… has vLLM 0.14.0, so 0.14.1 comes from the
/// tag"): a line that states what is built beside another version contrasts them, it claims nothing.
bool names_version(std::string_view text, const std::string& version) {
  auto version_char = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; };
  for (size_t at = text.find(version); at != std::string_view::npos; at = text.find(version, at + 1)) {
    size_t end = at + version.size();
    bool alone_before = at == 0 || !version_char(text[at - 1]);
    bool more_digits =
        end < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[end])) ||
         (text[end] == '.' && end + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[end + 1]))));
    if (alone_before && !more_digits) return true;
  }
  return false;
}

/// A variant record tailor generated (`variant = { name = …; }`, built by a shared builder).
bool generated_record(const NixFile& f) {
  return std::any_of(f.facts.names.begin(), f.facts.names.end(), [](const Fact& n) { return n.key == "name"; });
}

/// The attribute a source override of \a f replaces: a package's, else (a derivation
/// of its own) the recipe's package; empty when it cannot be told.
std::string overridden(const Fact& o, const NixFile& f, const KnowledgeBase& kb) {
  if (std::any_of(kb.packages.begin(), kb.packages.end(), [&](const PackageDef& p) { return p.attribute == o.key; }))
    return o.key;
  const PackageDef* own = f.variant ? kb.package(f.variant->package) : nullptr;
  return o.key.empty() && own ? own->attribute : "";
}

Built built_by(const LintTree& t, const NixFile& f, const KnowledgeBase& kb) {
  Built b;
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7))) {
      for (const auto& [attribute, v] : pin->versions) {
        b.versions[attribute] = v.str();
        if (pin->version_dispute(attribute)) b.disputed[attribute] = pin;
      }
      break;
    }
  // The source overrides of f and of the files it imports, transitively. A generated
  // record gives its builders their versions: the pin's, or its `…Source` record's.
  const bool record = generated_record(f);
  for (const NixFile* g : reached_from(t, f))
    for (const Fact& o : g->facts.versions) {
      if (record && g != &f && o.text.empty()) continue;
      std::string attribute = overridden(o, f, kb);
      if (attribute.empty())
        b.all_unknown = true;
      else if (o.text.empty())
        b.unknown.insert(attribute);
      else
        b.versions[attribute] = o.text;
      b.disputed.erase(attribute);  // built from a source: the pin's version does not matter
    }
  for (const Fact& r : f.facts.record_versions) {
    if (r.text.empty())
      b.unknown.insert(r.key);
    else
      b.versions[r.key] = r.text;
    b.disputed.erase(r.key);
  }
  return b;
}

std::string finding(std::string_view where, const Claim& c, std::string_view claimed, const std::string& built,
                    std::string_view why) {
  return fmt::format(
      "{} says {} {}, but {} builds {} {}: users pick the build, its companions and its bugs by "
      "this version",
      where, c.package->display, claimed, why, c.package->display, built);
}

// A claim judged against a version the sources disagree on: no verdict, the sources and how to settle it.
std::string disputed_finding(std::string_view where, const Claim& c, std::string_view claimed, const NixpkgsPin& pin) {
  const FactEvidence& d = *pin.version_dispute(c.package->attribute);
  return dispute_warning(pin, d,
                         fmt::format("{} says {} {}, which tailor cannot judge", where, c.package->display, claimed));
}

}  // namespace

void check_versions(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed || f.helper) continue;  // every recipe, of a known package or not
    std::optional<Built> b;               // what f builds, found at its first claim: most recipes claim no version
    for (const Fact* tx : [&] {
           std::vector<const Fact*> v;
           for (const auto& d : f.facts.descriptions) v.push_back(&d);
           for (const auto& c : f.facts.comments)
             if (c.key == "header") v.push_back(&c);
           return v;
         }()) {
      if (tx->text.size() > kMaxRegexLine) continue;
      const std::string_view where = tx->key == "header" ? "the header comment" : std::string_view(tx->key);
      for (const auto& c : claims_in(tx->text, kb)) {
        if (!claims_what_is_built(tx->text, c)) continue;
        if (!b) b = built_by(t, f, kb);
        std::string built = b->of(c.package->attribute);
        std::string_view claimed = std::string_view(tx->text).substr(c.at, c.length);
        if (built.empty() || agrees(claimed, built) || names_version(tx->text, built)) continue;
        nix::Span at = tx->span;
        if (at.end - at.begin == tx->text.size() && tx->text.find('\n') == std::string::npos) {
          at.begin += static_cast<uint32_t>(c.at);
          at.column += static_cast<int>(c.at);
        }
        if (auto d = b->disputed.find(c.package->attribute); d != b->disputed.end()) {
          sink.add(f, "TLR034", at, disputed_finding(where, c, claimed, *d->second),
                   "once it is settled, say the version the pin ships; or build the one named from a source override");
          continue;
        }
        sink.add(f, "TLR033", at, finding(where, c, claimed, built, "this recipe"),
                 fmt::format("say {} {}", c.package->display, built));
      }
    }
  }
  std::map<std::string, Built> by_stem;  // recipes, by file name: found at the docs' first claim
  auto recipes = [&]() -> const std::map<std::string, Built>& {
    if (by_stem.empty())
      for (const auto& f : t.nix)
        if (f.parsed && f.is_recipe()) by_stem.emplace(f.stem, built_by(t, f, kb));
    return by_stem;
  };
  // Root markdown: a table row naming a recipe speaks for it; a heading or a
  // line about this branch for every recipe. Other prose (other branches, history) is left alone.
  for (const auto& doc : t.docs) {
    size_t start = 0;
    for (int n = 1; start < doc.text.size(); ++n) {
      size_t end = std::min(doc.text.find('\n', start), doc.text.size());
      std::string line = doc.text.substr(start, end - start);
      start = end + 1;
      if (line.size() > kMaxRegexLine || line.find('.') == std::string::npos) continue;
      std::vector<Claim> claims = claims_in(line, kb);
      if (claims.empty()) continue;
      const bool row = line.find_first_not_of(" ") != std::string::npos && line[line.find_first_not_of(" ")] == '|';
      const Built* recipe = nullptr;
      std::string recipe_name;
      if (row)
        for (const auto& [stem, b] : recipes())
          if (size_t k = line.find(stem);
              k != std::string::npos &&
              (k + stem.size() == line.size() ||
               !(alnum(line[k + stem.size()]) || line[k + stem.size()] == '-' || line[k + stem.size()] == '_'))) {
            recipe = &b;
            recipe_name = stem;
            break;
          }
      if (!recipe && !doc_line_about_this_tree(line)) continue;
      for (const auto& c : claims) {
        if (!claims_what_is_built(line, c)) continue;
        std::string_view claimed = std::string_view(line).substr(c.at, c.length);
        std::set<std::string> built;
        bool unknown = false;
        const NixpkgsPin* disputed = nullptr;
        for (const auto& [stem, b] : recipes()) {
          if (recipe && &b != recipe) continue;
          std::string v = b.of(c.package->attribute);
          unknown = unknown || b.all_unknown || b.unknown.count(c.package->attribute);
          if (!v.empty()) built.insert(v);
          if (auto d = b.disputed.find(c.package->attribute); d != b.disputed.end()) disputed = d->second;
        }
        if (unknown || built.empty() ||
            std::any_of(built.begin(), built.end(), [&](const std::string& v) { return agrees(claimed, v); }))
          continue;
        if (disputed) {
          sink.add_doc(
              t, doc, "TLR034", n, static_cast<int>(c.at) + 1, disputed_finding(doc.rel, c, claimed, *disputed),
              "once it is settled, say the version the pin ships; or build the one named from a source override");
          continue;
        }
        std::string why = recipe ? recipe_name + ".nix" : "this tree";
        std::string versions = fmt::format("{}", fmt::join(built, " and "));
        sink.add_doc(t, doc, "TLR033", n, static_cast<int>(c.at) + 1, finding(doc.rel, c, claimed, versions, why),
                     fmt::format("say {} {}", c.package->display, *built.begin()));
      }
    }
  }
}

}  // namespace tailor::lint
