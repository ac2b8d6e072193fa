// TLR002 name-mismatch, TLR003 name-convention.
#include <fmt/format.h>

#include "lint/checks.hpp"
#include "kb/package.hpp"

namespace tailor::lint {

void check_names(const LintTree& t, const KnowledgeBase& /*kb*/, Sink& sink) {
  for (const auto& f : t.nix) {
    if (f.helper || !f.parsed) continue;
    for (const auto& n : f.facts.names) {
      if (n.text == f.stem) continue;
      sink.add(f, "TLR002", n.span,
               fmt::format("{} \"{}\" differs from the file name {}.nix", n.key, n.text, f.stem),
               fmt::format("flox builds the package by file name: rename the file or set {} = \"{}\"", n.key, f.stem));
    }
    if (f.variant) continue;
    // Only files that look like variant recipes must follow the convention.
    std::string first = f.stem.substr(0, f.stem.find('-'));
    bool looks_like_recipe = !f.facts.names.empty() || (package_from_name(first) && f.stem.find('-') != std::string::npos);
    if (!looks_like_recipe) continue;
    sink.add(f, "TLR003", name_span(f),
             fmt::format("file name {}.nix does not follow the naming convention: {}", f.stem, f.name_problem),
             "names read PACKAGE-pythonXYZ-cudaX_Y-smNN-ISA, PACKAGE-pythonXYZ-cpu-ISA, "
             "PACKAGE-pythonXYZ-darwin-mps or magma-cudaX_Y-smNN-ISA");
  }
}

}  // namespace tailor::lint
