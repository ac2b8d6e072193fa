// TLR021 import-missing: `import ./x.nix`, `callPackage ./x.nix`, and the
// torchVariant / magmaVariant a generated companion builds against.
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
    if (f.is_recipe()) recipes[std::filesystem::path(f.src.rel).parent_path().generic_string()].push_back(f.stem + ".nix");
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    std::filesystem::path dir = std::filesystem::path(f.src.rel).parent_path();
    for (const auto& imp : f.facts.imports) {
      std::string target = (dir / imp.text).lexically_normal().generic_string();
      if (target.starts_with("..")) continue;  // outside the tree: not ours to judge
      if (!target.empty() && target.back() == '/') target.pop_back();
      if (target.empty() || target == ".") target = "default.nix";
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
