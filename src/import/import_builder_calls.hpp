#pragma once
/// `tailor import` of a variant file that calls a parametric builder
/// (builder_calls.hpp): the pin, version, pairing and source the evaluated call
/// builds, as the import's [[family.version]] tables need them, or why the file
/// is left out. Nothing unknown is guessed.

#include <optional>
#include <string>
#include <vector>

#include "import/builder_calls.hpp"
#include "import/import_versions.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

struct BuilderImport {
  std::string left_out;                   ///< why the file is left out; empty: it is imported
  std::string pin;                        ///< short revision of the knowledge base
  RecipeVersion version;                  ///< its version row (names with a version word)
  std::vector<RecipeOverride> overrides;  ///< its own source, for the import's override tables
  /// Per-file remarks that do not stop the import, "KEY\tTEXT": one warning per
  /// KEY names every file it concerns (a table fact reaches many files).
  std::vector<std::string> remarks;
  /// What the tree's builder does for it that the spec does not hold, "KEY\tTEXT" as remarks:
  /// notes, since the builder keeps doing it (BuilderCall::settings).
  std::vector<std::string> kept;
  /// The package it is built against comes from another repository's recipe.
  std::optional<ForeignRecipe> foreign_base;
  std::string foreign_attribute;  ///< that package's nixpkgs attribute ("torch")
};

/// The table that takes \a attribute from \a r ("torch 2.10.0" or "torch": \a what), its path and
/// arguments written as the words of \a words; nullopt when a spec cannot say it, with why in \a why.
std::optional<ImportedExternal> external_from(const ForeignRecipe& r, const std::string& attribute,
                                              const std::string& what, const Variant& words, std::string& why);

/// \a call is the builder call of \a f (a recipe whose file name is a variant name).
BuilderImport import_builder_call(const BuilderCall& call, const lint::NixFile& f, const KnowledgeBase& kb);

}  // namespace tailor
