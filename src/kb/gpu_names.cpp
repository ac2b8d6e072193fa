#include "kb/gpu_names.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/edit_distance.hpp"
#include "util/product_name.hpp"

namespace tailor {

std::vector<const GpuArch*> gpus_named(const KnowledgeBase& kb, std::string_view product) {
  std::string key = product_key(product);
  std::vector<const GpuArch*> out;
  for (const auto& g : kb.gpus) {
    auto named = [&](const std::vector<std::string>& names) {
      return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return product_key(n) == key; });
    };
    if (named(g.products) || named(g.also_called)) out.push_back(&g);
  }
  return out;
}

std::string sm_hint(const KnowledgeBase& kb, std::string_view word) {
  auto named = gpus_named(kb, word);
  if (named.size() == 1) return fmt::format("{} is {}: write \"{}\"", word, named[0]->sm, named[0]->sm);
  // The SMs a typo or a guess most likely meant: the closest spelling and the
  // numeric neighbours, each said with the product people know it by.
  std::set<const GpuArch*> near;
  auto names = kb.gpu_names();
  if (auto m = closest_match(word, names)) near.insert(kb.gpu(*m));
  if (auto v = Version::parse(word)) {
    const GpuArch *below = nullptr, *above = nullptr;
    for (const auto& g : kb.gpus) {
      if (g.capability < *v && (!below || below->capability < g.capability)) below = &g;
      if (*v < g.capability && (!above || g.capability < above->capability)) above = &g;
    }
    if (below) near.insert(below);
    if (above) near.insert(above);
  }
  std::vector<const GpuArch*> sorted(near.begin(), near.end());
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->capability < b->capability; });
  std::vector<std::string> said;
  for (const GpuArch* g : sorted)
    said.push_back(g->products.empty() ? g->sm : fmt::format("{} is {}", g->products.front(), g->sm));
  if (said.empty()) return {};
  return fmt::format("{}; known: {}", fmt::join(said, ", "), fmt::join(names, ", "));
}

}  // namespace tailor
