#pragma once
/// `tailor kb new-package NAME --like PACKAGE`: the overlay that adds a
/// package, started from one the knowledge base has: a packages.toml whose
/// entry states every field (each with a comment saying what it does) and a
/// builder to edit that builds the attribute its variants name.

#include <map>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor {

struct PackageScaffold {
  /// Overlay-relative path ("packages.toml", "builders/sglang.nix") -> text.
  std::map<std::string, std::string> files;
  /// What the user should know (a builder whose attribute was not found, ...).
  std::vector<std::string> notes;
};

/// The overlay adding \a name, copied from \a like. Throws DiagnosticError
/// when \a name is taken or no package name, or \a like is unknown.
PackageScaffold scaffold_package(const KnowledgeBase& kb, const std::string& name, const std::string& like);

/// The text of builder file \a file ("lib/vllm.nix") as a tree gets it from
/// the knowledge base (data/builders/, an overlay's builders/); empty when it has none.
std::string builder_text(const KnowledgeBase& kb, const std::string& file);

}  // namespace tailor
