#pragma once
/// What a recipe builds from source, for `tailor import`: the version and
/// fetchFromGitHub of `pkg.overrideAttrs (old: { version = …; src = …; })`, read
/// through the Nix syntax tree (let bindings, `rec`, `${…}` of bound strings and
/// `finalAttrs.version` resolved; nothing evaluated), and the [[source_override]]
/// tables that make the spec build the same. What the spec cannot reproduce is
/// refused per file: import never silently changes a version.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "kb/source_override.hpp"
#include "lint/findings.hpp"

namespace tailor {

/// One `version = …` of an override, with the source it builds.
struct RecipeOverride {
  std::string attribute;  ///< the nixpkgs attribute overridden, "torch"
  std::string version;    ///< empty when it is no string the recipe spells out
  GitHubSource fetch;
  std::vector<ExtraSource> extra_sources;  ///< FETCHCONTENT_SOURCE_DIR_<NAME> sources, name lowercased
  bool clear_patches = false;              ///< `patches = [ ];`
  std::string problem;                     ///< why a spec cannot build the same; empty when it can
  bool from_record = false;                ///< read from a variant record tailor generated (`torchSource = { … }`)

  bool same_build(const RecipeOverride& o) const;
  /// "torch 2.10.0 from pytorch/pytorch v2.10.0"
  std::string describe() const;
};

/// The source overrides of the recipe \a text (file \a path); none if it does not parse.
std::vector<RecipeOverride> read_recipe_overrides(std::string_view path, std::string_view text);

/// The overrides of each recipe of a tree and of the files it imports (a
/// shared builder: `import ./lib/torch-2.10.nix { … }`), each file read once.
class TreeOverrides {
 public:
  explicit TreeOverrides(const lint::LintTree& tree);
  std::vector<RecipeOverride> of(const lint::NixFile& recipe) const;

 private:
  const lint::LintTree& tree_;
  std::map<const lint::NixFile*, std::vector<RecipeOverride>> read_;
};

/// One recipe of the tree: its file, pin, package and overrides.
struct RecipeSources {
  std::string file;
  std::string pin;      ///< short revision of the knowledge base
  std::string package;  ///< the variant's package
  std::vector<RecipeOverride> overrides;
  /// Attributes whose version the recipe's [[family.version]] decides (a
  /// version word in its name): no [[source_override]] of the spec builds them.
  std::vector<std::string> decided = {};
  /// Its header comment lines ("Custom PyTorch 2.9.1 built from source"): what it
  /// says it builds, which decides a version the pin's sources dispute.
  std::vector<std::string> header = {};
};

struct ImportedOverrides {
  std::string toml;  ///< [[source_override]] tables
  /// Versions of generated trees that a [branch] request builds the same way (the
  /// workaround of the knowledge base that generated them): attribute -> version.
  std::vector<std::pair<std::string, std::string>> requested;
  std::vector<std::string> refusals;  ///< "FILE: cannot reproduce: …", one per file and attribute
};

/// The values of \a dispute's claims that the \a header lines state as "DISPLAY
/// VERSION" ("PyTorch 2.9.1"): what the recipe says it builds where the sources disagree.
std::set<std::string> stated_claims(const std::vector<std::string>& header, const std::string& display,
                                    const FactEvidence& dispute);

/// The overrides every recipe building an attribute agrees on become spec
/// tables; an override that only restates what the pin ships needs none. A
/// version the recipes build as their pin ships it, where the pin's sources
/// disagree on it, is requested as the recipes' headers state it; where they
/// state none, a warning names the dispute (the spec cannot decide it).
ImportedOverrides import_overrides(const std::vector<RecipeSources>& recipes, const KnowledgeBase& kb);

}  // namespace tailor
