#include "generate/branch_tree.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "generate/docs.hpp"
#include "generate/flake.hpp"
#include "generate/manifest.hpp"
#include "generate/marker.hpp"
#include "generate/recipe.hpp"
#include "matrix/rules.hpp"
#include "settings/build_settings.hpp"
#include "util/embedded.hpp"

namespace tailor {

std::vector<GeneratedFile> branch_tree(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<GeneratedFile> files;
  // The shared builders, verbatim.
  for (const auto& f : embedded_files()) {
    std::string_view prefix = "src/generate/builders/";
    if (!f.path.starts_with(prefix)) continue;
    files.push_back({".flox/pkgs/lib/" + std::string(f.path.substr(prefix.size())),
                     with_marker(f.content, CommentStyle::hash)});
  }
  // The builders of the matrix's packages that the knowledge base carries,
  // and of those built inline.
  // A package brings its builder and the files that builder imports; a tree
  // that uses any file of an overlay's builders/ folder gets the whole folder.
  std::set<std::string> carried;
  auto carry_file = [&](const std::string& file) {
    if (auto it = kb.builder_files.find(file); it != kb.builder_files.end() && carried.insert(file).second)
      files.push_back({".flox/pkgs/" + file, with_marker(it->second, CommentStyle::hash)});
  };
  auto carry = [&](const PackageDef* p) {
    carry_file(p->builder);
    for (const auto& f : p->builder_files) carry_file(f);
  };
  for (const auto& v : m.variants) {
    for (const PackageDef* p : built_packages(*kb.package(v.package), kb)) carry(p);
    for (const auto& p : v.inline_packages) carry(kb.package(p));
  }
  if (std::any_of(carried.begin(), carried.end(), [&](const std::string& f) { return kb.overlay_builder_files.contains(f); }))
    for (const auto& f : kb.overlay_builder_files) carry_file(f);
  std::vector<BuildSettings> settings;
  settings.reserve(m.variants.size());
  for (const auto& v : m.variants) {
    settings.push_back(derive_settings(v, spec, m, kb));
    files.push_back({".flox/pkgs/" + v.name + ".nix", with_marker(variant_recipe(settings.back(), spec, kb), CommentStyle::hash)});
  }
  files.push_back({"README.md", with_marker(branch_readme(spec, m, settings, kb), CommentStyle::html)});
  files.push_back({"BUILD_MATRIX.md", with_marker(build_matrix_doc(spec, m, kb), CommentStyle::html)});
  files.push_back({".flox/env/manifest.toml", with_marker(build_env_manifest(spec, m), CommentStyle::hash)});
  files.push_back({"flake.nix", with_marker(branch_flake(spec, m, kb), CommentStyle::hash)});
  return files;
}

}  // namespace tailor
