#include "host/manifest_choice.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

ManifestChoice choose_for_host(const HostFacts& host, const Matrix& m, const KnowledgeBase& kb,
                               const std::vector<std::string>& only, const std::string& spec_path) {
  Matrix candidates = m;
  if (!only.empty()) {
    for (const auto& n : only) (void)m.require(n, spec_path);
    std::erase_if(candidates.variants,
                  [&](const Variant& v) { return std::find(only.begin(), only.end(), v.name) == only.end(); });
  }
  std::vector<std::string> packages;
  for (const auto& v : candidates.variants) {
    const std::string& p = v.package;
    if (std::find(packages.begin(), packages.end(), p) == packages.end()) packages.push_back(p);
  }
  ManifestChoice out;
  for (const auto& p : packages) {
    RecommendRequest req;
    req.package = p;
    Recommendation r = recommend(host, candidates, kb, req);
    if (!r.variant) {
      out.reasons.push_back(fmt::format("{}: none runs there ({})", p, fmt::join(r.reasons, "; ")));
      continue;
    }
    out.names.push_back(r.variant->name);
    out.reasons.push_back(fmt::format("{}: {} ({})", p, r.variant->name, fmt::join(r.reasons, "; ")));
  }
  return out;
}

}  // namespace tailor
