#pragma once
/// `tailor import` of a tree that builds several versions of a package, the
/// version written in the package word of the names ("torchvision025-…",
/// "torchaudio211-pt212-…", "pytorch210-…"): which version each recipe builds,
/// what it is built against, from which source, and the [[family.version]]
/// tables that make a spec build the same.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "import/import_overrides.hpp"
#include "kb/knowledge_base.hpp"
#include "lint/findings.hpp"
#include "matrix/external_recipe.hpp"

namespace tailor {

/// A recipe of another repository that a recipe is built against, as import reads it.
struct ImportedExternal {
  ExternalRecipe recipe;  ///< as [family.version.external] or [family.external] says it
  /// The arguments it is passed as null (a word the variant lacks, resolved across the tree's recipes).
  std::vector<std::string> nulls;
  std::string at;  ///< where the fetch is written
};

/// Its table, as the spec writes it: an unhashed fetch stays unhashed, with a
/// comment that says where the tree fetches it (the spec warns on every load).
std::string external_toml(const ImportedExternal& e);

/// What one recipe of a versioned package builds.
struct RecipeVersion {
  std::string file;     ///< the recipe, relative to the tree
  std::string word;     ///< the package word of its name, "torchaudio211-pt212"
  std::string version;  ///< of its own package; empty when it cannot be told
  /// nixpkgs attribute -> version of what it is built against, where a spec must
  /// say it: the pin ships another, or it builds against a versioned variant.
  std::vector<std::pair<std::string, std::string>> paired;
  /// Its own source, where the pin does not ship the version and no workaround
  /// of the knowledge base fetches it for the version asked.
  std::optional<RecipeOverride> source;
  std::string pin;      ///< short revision
  std::string problem;  ///< why a version table cannot say it; empty when it can
  /// The attributes the version table decides (its own and the paired ones):
  /// their overrides are no [[source_override]] of the spec.
  std::vector<std::string> decided;
  /// What it is built against that another repository's recipe builds ([family.version.external]).
  std::optional<ImportedExternal> external;
};

/// Reads the version of \a f (a recipe whose name carries a version word) on
/// \a pin from \a overrides (its own and those of the files it reaches).
RecipeVersion read_recipe_version(const lint::LintTree& t, const lint::NixFile& f, const std::string& pin,
                                  const std::vector<RecipeOverride>& overrides, const KnowledgeBase& kb);

/// The [[family.version]] tables of one family from its recipes' versions, in
/// version order; what the recipes disagree on is added to \a warnings.
/// \a gpu: the family's backend has CUDA (a CPU family names `cpu_pin`).
std::string version_tables(const std::vector<const RecipeVersion*>& recipes, const PackageDef& package, bool gpu,
                           std::vector<std::string>& warnings, const KnowledgeBase& kb);

/// "0.25.0" -> "025": the word a version gives a name by default.
std::string version_word(const std::string& version);

}  // namespace tailor
