// TLR021 import-missing: `import ./x.nix`, `callPackage ./x.nix`, and the
// torchVariant / magmaVariant a generated companion builds against.
// TLR027 import-unreproducible: absolute paths, paths leaving the tree, and
// <nixpkgs> in a tree that otherwise pins nixpkgs, where an evaluation reads it.
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "lint/checks.hpp"
#include "util/edit_distance.hpp"

namespace tailor::lint {

void check_imports(const LintTree& t, const KnowledgeBase& /*kb*/, Sink& sink) {
  // Recipe file names per directory: an import's "did you mean" comes from its own directory.
  std::map<std::string, std::vector<std::string>> recipes;
  for (const auto& f : t.nix)
    if (f.is_recipe())
      recipes[std::filesystem::path(f.src.rel).parent_path().generic_string()].push_back(f.stem + ".nix");
  bool tree_pins = false;
  for (const auto& f : t.nix) tree_pins = tree_pins || !f.facts.pins.empty();
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    for (const auto& imp : f.facts.absolute_imports)
      sink.add(f, "TLR027", imp.span,
               fmt::format("imports the absolute path {}: the build fails (or differs) on every machine without "
                           "that file",
                           imp.text),
               "copy the file into the tree and import it relatively (./lib/…)");
    if (tree_pins)
      for (const auto& sp : f.facts.search_paths)
        // A default no evaluation reads (`{ pkgs ? import <nixpkgs> {} }:` over a body that
        // never names pkgs) imports nothing: only an evaluated <nixpkgs> is reported.
        if ((sp.text == "nixpkgs" || sp.text.starts_with("nixpkgs/")) && sp.key != "unused-default")
          sink.add(f, "TLR027", sp.span,
                   fmt::format("<{}> is the channel of whoever builds: this tree pins nixpkgs elsewhere, so this "
                               "recipe alone builds against another nixpkgs on each machine",
                               sp.text),
                   "import the tree's pinned nixpkgs instead of <nixpkgs>");
    for (const auto& imp : f.facts.imports) {
      std::string target = import_target(f, imp.text);
      if (target.starts_with("..")) {
        sink.add(f, "TLR027", imp.span,
                 fmt::format("imports {}, outside this tree: the recipe builds only where that file happens to sit "
                             "beside the checkout",
                             imp.text),
                 "move the file into the tree (lib/) and import it by a path inside it");
        continue;
      }
      if (t.files.count(target) || t.files.count(target + "/default.nix")) continue;
      std::filesystem::path target_path(target);
      std::string name = target_path.filename().string();
      std::string hint = did_you_mean(name, recipes[target_path.parent_path().generic_string()]);
      if (hint.empty()) hint = "add the recipe, or import one that exists";
      std::string what = imp.key == "import" ? "imports" : imp.key + " names";
      sink.add(f, "TLR021", imp.span, fmt::format("{} {}, which does not exist in this tree", what, target), hint);
    }
  }
}

}  // namespace tailor::lint
