#include "generate/branch_tree.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "generate/docs.hpp"
#include "generate/flake.hpp"
#include "generate/layout.hpp"
#include "generate/manifest.hpp"
#include "generate/marker.hpp"
#include "generate/recipe.hpp"
#include "kb/builder_imports.hpp"
#include "settings/build_settings.hpp"

namespace tailor {

std::vector<GeneratedFile> branch_tree(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  // A tree that keeps its own builder gets its wrappers only: no builders, docs or flake of tailor's.
  if (spec.layout) return layout_tree(spec, m, kb);
  // The recipes first: they name the builders the tree needs.
  std::vector<GeneratedFile> recipes;
  std::vector<BuildSettings> settings;
  settings.reserve(m.variants.size());
  for (const auto& v : m.variants) {
    settings.push_back(derive_settings(v, spec, m, kb));
    recipes.push_back({".flox/pkgs/" + v.name + ".nix", variant_recipe(settings.back(), spec, kb)});
  }
  // The builders of the variants' packages, of those built inline, and what
  // these and the recipes import: a builder is written only into trees that
  // use it (vLLM's builder imports lib/custom-torch.nix, not lib/torch.nix).
  // A package also brings the builder files it lists; a tree that uses any
  // file of an overlay's builders/ folder gets the whole folder.
  std::vector<std::string> roots;
  auto root = [&](const PackageDef* p) {
    roots.push_back(p->builder);
    roots.insert(roots.end(), p->builder_files.begin(), p->builder_files.end());
  };
  for (const auto& v : m.variants) {
    root(kb.package(v.package));
    for (const auto& p : v.inline_packages) root(kb.package(p));
  }
  std::vector<std::string_view> recipe_texts;
  for (const auto& r : recipes) recipe_texts.push_back(r.content);
  std::set<std::string> used = builders_used(roots, recipe_texts, kb);
  if (std::any_of(used.begin(), used.end(), [&](const std::string& f) { return kb.overlay_builder_files.contains(f); }))
    used.insert(kb.overlay_builder_files.begin(), kb.overlay_builder_files.end());
  std::vector<GeneratedFile> files;
  for (const auto& b : used)
    if (auto it = kb.builder_files.find(b); it != kb.builder_files.end())
      files.push_back({".flox/pkgs/" + b, with_marker(it->second, CommentStyle::hash)});
  for (auto& r : recipes) files.push_back({std::move(r.path), with_marker(r.content, CommentStyle::hash)});
  files.push_back({"README.md", with_marker(branch_readme(spec, m, settings, kb), CommentStyle::html)});
  files.push_back({"BUILD_MATRIX.md", with_marker(build_matrix_doc(spec, m, kb), CommentStyle::html)});
  files.push_back({".flox/env/manifest.toml", with_marker(build_env_manifest(spec, m), CommentStyle::hash)});
  files.push_back({"flake.nix", with_marker(branch_flake(spec, m, kb), CommentStyle::hash)});
  return files;
}

}  // namespace tailor
