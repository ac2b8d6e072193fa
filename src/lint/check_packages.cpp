// TLR032 package-unknown: a tree of a package the knowledge base does not know
// gets one note, not a finding per file; every package-independent rule still
// runs on its recipes.
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/knowledge_base.hpp"
#include "lint/checks.hpp"

namespace tailor::lint {

std::optional<std::string> unknown_package(const NixFile& f, const KnowledgeBase& kb) {
  if (f.helper || f.variant || !f.parsed) return std::nullopt;
  // Package names may hold '-' (a package 'foo-bar'): a known one is a prefix of the stem.
  for (const auto& p : kb.packages)
    if (f.stem.starts_with(p.name + "-")) return std::nullopt;
  std::string first = f.stem.substr(0, f.stem.find('-'));
  // Only files that look like variant recipes: they state a name, or their name has a variant's shape.
  if (f.facts.names.empty() && f.stem.find('-') == std::string::npos) return std::nullopt;
  return first;
}

void check_packages(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  std::map<std::string, int> recipes;  // package -> files
  const NixFile* first = nullptr;
  for (const auto& f : t.nix)
    if (auto p = unknown_package(f, kb)) {
      if (!first) first = &f;
      recipes[*p]++;
    }
  if (!first) return;
  std::vector<std::string> listed;
  for (const auto& [p, n] : recipes) listed.push_back(fmt::format("{} ({} file{})", p, n, n == 1 ? "" : "s"));
  std::vector<std::string> names;
  for (const auto& [p, n] : recipes) names.push_back(p);
  sink.add(*first, "TLR032", name_span(*first),
           fmt::format("{} {} not in the knowledge base: package-specific rules (name convention, CPU feature "
                       "disables) are skipped; every other rule ran",
                       fmt::join(names, ", "), names.size() == 1 ? "is" : "are"),
           "tailor knows the packages of data/; the rest is checked for what any recipe can get wrong")
      .notes.push_back(fmt::format("recipes by package: {}", fmt::join(listed, ", ")));
}

}  // namespace tailor::lint
