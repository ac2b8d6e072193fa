#pragma once
/// `tailor import`: infer a matrix spec from an existing recipe tree. File
/// names are read back into variants (parse_variant_name), the pins and the
/// Python version come from the recipes, and variants are grouped into one
/// family per (package, backend, CUDA, pin, Python), with an exclude per SM for
/// the ISA cells the tree lacks. The spec is expanded again to prove it yields
/// exactly the tree's names; what it cannot express becomes a warning.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

struct ImportResult {
  std::string toml;                   ///< the spec
  std::vector<std::string> warnings;  ///< what the spec does not reproduce, and why
  /// Facts the knowledge base lacks that the tree uses: the spec claims them
  /// ([[claim]]) and reproduces the variants; one line per fact.
  std::vector<std::string> claims;
  /// What the reader should know that is no problem: where a recipe's inputs
  /// come from another repository, say.
  std::vector<std::string> notes;
  /// What the reader should fix in the tree but that the spec reproduces or
  /// proves right: a recipe proven impossible (and left out), an alias that
  /// selects another CUDA than its name says. Warnings too, but import succeeded.
  std::vector<std::string> advisories;
  /// Recipes left out because the knowledge base proves them impossible
  /// (nvcc of their CUDA cannot compile for their SM): path, why.
  std::vector<std::pair<std::string, std::string>> impossible;
  int variants = 0;  ///< recipes read back into variants
};

struct ImportOptions {
  /// The nixpkgs pin of recipes that name none (Flox-catalog recipes take
  /// their packages as function arguments); empty: none given.
  std::string pin;
};

/// Infers the spec of the tree in \a files; \a branch names it.
ImportResult import_spec(const std::string& branch, std::vector<recipe::SourceFile> files, const KnowledgeBase& kb,
                         const ImportOptions& options = {});

}  // namespace tailor
