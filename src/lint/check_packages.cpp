// TLR032 package-unknown: a tree of a package the knowledge base does not know
// gets one note, not a finding per file, naming the rules it skips for them;
// every package-independent rule still runs on its recipes.
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/knowledge_base.hpp"
#include "lint/checks.hpp"

namespace tailor::lint {

std::optional<std::string> unknown_package(const NixFile& f, const KnowledgeBase& kb) {
  if (f.helper || f.package || f.variant || !f.parsed) return std::nullopt;
  // A known package starts the stem, perhaps at a version ("torchvision025-…",
  // "torchaudio211-pt212-…"): its names are judged by the name rules, not skipped.
  if (auto w = read_package_word(f.stem, kb); w && w->word.size() < f.stem.size()) return std::nullopt;
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
  // The rules skipped are named one by one (rules.cpp's per_variant): a reader
  // knows what was not checked, not just that something was not.
  std::vector<std::string> skipped;
  for (const auto& r : rules())
    if (r.per_variant) skipped.push_back(fmt::format("{} {}", r.code, r.name));
  sink.add(*first, "TLR032", name_span(*first),
           fmt::format("{} {} not in the knowledge base: {} package-specific rules that judge a recipe by the variant "
                       "its name promises are skipped for {}; every other rule ran",
                       fmt::join(names, ", "), names.size() == 1 ? "is" : "are", skipped.size(),
                       names.size() == 1 ? "its recipes" : "their recipes"),
           "tailor knows the packages of data/; the rest is checked for what any recipe can get wrong")
      .notes = {fmt::format("recipes by package: {}", fmt::join(listed, ", ")),
                fmt::format("skipped: {}", fmt::join(skipped, ", "))};
}

}  // namespace tailor::lint
