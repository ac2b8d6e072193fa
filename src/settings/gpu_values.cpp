#include "settings/gpu_values.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {

std::string capability(const GpuArch& g) { return fmt::format("{}{}", g.capability.major(), g.capability.minor()); }

// "H100/H200/GH200": the first three products, as the flox/build-pytorch descriptions do.
std::string products_short(const GpuArch& g) {
  std::vector<std::string> p(g.products.begin(), g.products.begin() + std::min<size_t>(3, g.products.size()));
  return fmt::format("{}", fmt::join(p, "/"));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> gpu_template_values(const Variant& v, const KnowledgeBase& kb) {
  if (v.sm.empty()) return {};
  if (v.sm_set.empty()) {
    const GpuArch& g = *kb.gpu(v.sm);
    return {{"sm", v.sm},
            {"sm_list", fmt::format("\"{}\"", v.sm)},
            {"capability", capability(g)},
            {"min_capability", capability(g)},
            {"gpu", g.display()},
            {"gpu_family", g.family},
            {"gpu_products", fmt::format("{}", fmt::join(g.products, ", "))},
            {"gpu_products_short", products_short(g)}};
  }
  // A set: every SM, its first product each (the set's texts name one card per SM).
  std::vector<std::string> quoted, capabilities, displays, families, products;
  const GpuArch* lowest = nullptr;
  for (const auto& sm : v.sm_set) {
    const GpuArch& g = *kb.gpu(sm);
    quoted.push_back(fmt::format("\"{}\"", sm));
    capabilities.push_back(capability(g));
    displays.push_back(g.display());
    if (std::find(families.begin(), families.end(), g.family) == families.end()) families.push_back(g.family);
    if (!g.products.empty()) products.push_back(g.products.front());
    if (!lowest || g.capability < lowest->capability) lowest = &g;
  }
  return {{"sm", v.sm},
          {"sm_list", fmt::format("{}", fmt::join(quoted, " "))},
          {"capability", fmt::format("{}", fmt::join(capabilities, ";"))},
          {"min_capability", capability(*lowest)},
          {"gpu", fmt::format("{}", fmt::join(displays, ", "))},
          {"gpu_family", fmt::format("{}", fmt::join(families, ", "))},
          {"gpu_products", fmt::format("{}", fmt::join(products, ", "))},
          {"gpu_products_short", fmt::format("{}", fmt::join(products, "/"))}};
}

}  // namespace tailor
