#pragma once
/// The facts a cell of the matrix must satisfy. Each rule has a stable id and
/// a fixed message template, so "why was X dropped" always reads the same.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/spec.hpp"
#include "matrix/variant.hpp"

namespace tailor {

struct RuleViolation {
  std::string rule;     ///< "cuda-too-old-for-sm", ...
  std::string message;  ///< one sentence naming the facts involved
};

/// The knowledge-base entries a cell refers to, resolved once per axis value
/// (expansion checks tens of thousands of cells).
struct CellFacts {
  const NixpkgsPin* pin = nullptr;
  const GpuArch* gpu = nullptr;       ///< null unless CUDA
  const CudaToolkit* cuda = nullptr;  ///< null unless CUDA
};

/// The packages a variant of \a p builds: \a p, then those it builds against
/// (companion-of, python-set-substitution), each once.
std::vector<const PackageDef*> built_packages(const PackageDef& p, const KnowledgeBase& kb);

/// package -> the version a variant really builds, for each package it builds:
/// a source override's version; else, where pins record versions, the spec's
/// request for its attribute or what \a pin ships.
std::vector<std::pair<std::string, std::string>> built_versions(const Variant& v, const NixpkgsPin& pin,
                                                                const Spec& spec, const KnowledgeBase& kb);

/// The source override that builds \a attribute for \a v: its version's own
/// source where the pin does not ship that version, else the spec's override of
/// the version it asks for on its pin, else one of an applicable workaround; null
/// when the pin's package is built.
const SourceOverride* source_override_for(const Variant& v, const Spec& spec, const KnowledgeBase& kb,
                                          std::string_view attribute);

/// The version of \a attribute that \a v asks for: its own version and what it
/// pairs with ([[family.version]]), else the spec's [branch] request; empty: what the pin ships.
std::string requested_for(const Variant& v, const Spec& spec, const KnowledgeBase& kb, std::string_view attribute);

/// The [[family.version]] that \a v builds; null when its family lists none.
const PackageVersion* package_version(const Variant& v, const Spec& spec);

/// The recipe of another repository that builds \a attribute for \a v (its
/// version's [family.version.external], else its family's [family.external]);
/// null when the pin's, a source override's or a variant's of the tree builds it.
const ExternalRecipe* external_recipe_for(const Variant& v, const Spec& spec, std::string_view attribute);
/// Every recipe of another repository that builds something for \a v: its version's, and its
/// family's for the attributes its version names none for.
std::vector<const ExternalRecipe*> external_recipes_for(const Variant& v, const Spec& spec);

/// Every fact of the knowledge base that \a v (a candidate, name set) breaks.
std::vector<RuleViolation> check_facts(const Variant& v, const Spec& spec, const KnowledgeBase& kb);
std::vector<RuleViolation> check_facts(const Variant& v, const CellFacts& facts, const Spec& spec,
                                       const KnowledgeBase& kb);

/// A package \a v builds as its pin ships it, whose shipped version is disputed.
struct DisputedVersion {
  const PackageDef* package = nullptr;
  const FactEvidence* dispute = nullptr;
  std::string requested;  ///< what the spec asks for; empty: the version would have to come from the pin
};

/// The packages \a v builds from \a pin (no source override) whose version
/// there is disputed. With none requested, the spec leaves the version to a
/// disputed fact: an error; with one requested, a warning.
std::vector<DisputedVersion> disputed_versions(const Variant& v, const NixpkgsPin& pin, const Spec& spec,
                                               const KnowledgeBase& kb);

/// The workarounds of the knowledge base that apply to \a v, in data order.
std::vector<const Workaround*> applicable_workarounds(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

}  // namespace tailor
