#pragma once
/// The per-variant recipe: a thin .flox/pkgs/<name>.nix that states the
/// variant's parameters and calls the shared builder of its package kind.

#include <string>

#include <nlohmann/json.hpp>

#include "matrix/spec.hpp"
#include "settings/build_settings.hpp"

namespace tailor {

/// The recipe text (without the generated-by marker).
std::string variant_recipe(const BuildSettings& s, const Spec& spec, const KnowledgeBase& kb);

/// What the result records in $out/nix-support/tailor-variant.json.
nlohmann::ordered_json variant_description(const BuildSettings& s, const KnowledgeBase& kb);

}  // namespace tailor
