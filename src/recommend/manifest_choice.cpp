#include "recommend/manifest_choice.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "settings/build_settings.hpp"

namespace tailor {

namespace {

using Deps = std::map<std::string, std::vector<std::string>>;  // variant -> variants it builds against

Deps dependencies(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  Deps out;
  for (const auto& v : m.variants)
    for (const auto& [key, name] : derive_settings(v, spec, m, kb).dependency_variants) out[v.name].push_back(name);
  return out;
}

std::map<std::string, std::string> packages_by_variant(const Matrix& m) {
  std::map<std::string, std::string> out;
  for (const auto& v : m.variants) out[v.name] = v.package;
  return out;
}

// Packages in matrix order, each after the packages its variants build against.
std::vector<std::string> package_order(const Matrix& m, const Deps& deps) {
  std::map<std::string, std::string> package_of = packages_by_variant(m);
  std::vector<std::string> pending, order;
  for (const auto& v : m.variants)
    if (std::find(pending.begin(), pending.end(), v.package) == pending.end()) pending.push_back(v.package);
  auto ready = [&](const std::string& p) {
    for (const auto& [name, ds] : deps)
      if (package_of[name] == p)
        for (const auto& d : ds)
          if (package_of.count(d) && package_of[d] != p &&
              std::find(pending.begin(), pending.end(), package_of[d]) != pending.end())
            return false;
    return true;
  };
  while (!pending.empty()) {
    auto next = std::find_if(pending.begin(), pending.end(), ready);
    if (next == pending.end()) next = pending.begin();  // a cycle: matrix order
    order.push_back(*next);
    pending.erase(next);
  }
  return order;
}

// The variants of \a package that build against nothing but what \a chosen holds
// (dependencies of packages without a choice do not constrain).
Matrix consistent_with(const Matrix& candidates, const std::string& package, const std::vector<std::string>& chosen,
                       const Deps& deps) {
  std::map<std::string, std::string> package_of = packages_by_variant(candidates);
  std::vector<std::string> chosen_packages;
  for (const auto& c : chosen) chosen_packages.push_back(package_of[c]);
  Matrix out = candidates;
  std::erase_if(out.variants, [&](const Variant& v) {
    if (v.package != package) return true;
    auto it = deps.find(v.name);
    if (it == deps.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& d) {
      bool constrained =
          std::find(chosen_packages.begin(), chosen_packages.end(), package_of[d]) != chosen_packages.end();
      return constrained && std::find(chosen.begin(), chosen.end(), d) == chosen.end();
    });
  });
  return out;
}

// The chosen variants that \a package's variants build against (what excluded them all).
std::vector<std::string> needed_choices(const Matrix& candidates, const std::string& package,
                                        const std::vector<std::string>& chosen, const Deps& deps) {
  std::map<std::string, std::string> package_of = packages_by_variant(candidates);
  std::vector<std::string> out;
  for (const auto& v : candidates.variants)
    if (auto it = deps.find(v.name); v.package == package && it != deps.end())
      for (const auto& d : it->second)
        for (const auto& c : chosen)
          if (package_of[c] == package_of[d] && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

}  // namespace

ManifestChoice choose_for_host(const HostFacts& host, const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                               const std::vector<std::string>& only) {
  Matrix candidates = m;
  if (!only.empty()) {
    for (const auto& n : only) (void)m.require(n, spec.path);
    std::erase_if(candidates.variants,
                  [&](const Variant& v) { return std::find(only.begin(), only.end(), v.name) == only.end(); });
  }
  Deps deps = dependencies(spec, m, kb);
  ManifestChoice out;
  for (const auto& p : package_order(candidates, deps)) {
    RecommendRequest req;
    req.package = p;
    Matrix fits = consistent_with(candidates, p, out.names, deps);
    if (fits.variants.empty()) {  // variants of p exist, none built against the choice
      out.left_out.push_back(fmt::format("{}: none is built against {}", p,
                                         fmt::join(needed_choices(candidates, p, out.names, deps), ", ")));
      out.reasons.push_back(out.left_out.back());
      continue;
    }
    Recommendation r = recommend(host, fits, kb, req);
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
