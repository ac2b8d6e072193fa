#include "runner/build_plan.hpp"

#include <fnmatch.h>

#include <map>
#include <set>

#include <fmt/format.h>

#include "generate/marker.hpp"
#include "settings/build_settings.hpp"
#include "util/edit_distance.hpp"

namespace tailor {

std::vector<PlannedBuild> plan_builds(const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                                      const std::vector<std::string>& patterns) {
  std::set<std::string> chosen;
  for (const auto& p : patterns) {
    bool any = false;
    for (const auto& v : m.variants)
      if (fnmatch(p.c_str(), v.name.c_str(), 0) == 0) {
        chosen.insert(v.name);
        any = true;
      }
    if (!any) {
      Diagnostic d;
      d.message = fmt::format("'{}' matches no variant of {}", p, spec.path);
      d.hint = did_you_mean(p, m.names());
      if (d.hint.empty()) d.hint = fmt::format("'tailor matrix {}' lists them", spec.path);
      throw DiagnosticError(d);
    }
  }
  if (patterns.empty())
    for (const auto& v : m.variants) chosen.insert(v.name);

  // What each variant builds against, from the same settings the recipes use.
  std::map<std::string, std::vector<std::string>> needs;
  std::map<std::string, const Variant*> by_name;
  for (const auto& v : m.variants) {
    by_name[v.name] = &v;
    BuildSettings s = derive_settings(v, spec, m, kb);
    for (const auto& [key, name] : s.dependency_variants) needs[v.name].push_back(name);
  }
  // Close over dependencies, then order: dependencies first, matrix order otherwise.
  std::set<std::string> all = chosen;
  std::vector<std::string> queue(chosen.begin(), chosen.end());
  while (!queue.empty()) {
    std::string n = queue.back();
    queue.pop_back();
    for (const auto& d : needs[n])
      if (all.insert(d).second) queue.push_back(d);
  }
  std::vector<PlannedBuild> plan;
  std::set<std::string> placed;
  while (placed.size() < all.size()) {
    size_t before = placed.size();
    for (const auto& v : m.variants) {
      if (!all.count(v.name) || placed.count(v.name)) continue;
      bool ready = true;
      for (const auto& d : needs[v.name]) ready = ready && placed.count(d);
      if (!ready) continue;
      bool heavy = v.accelerator == Accelerator::cuda;
      plan.push_back(
          {v.name, needs[v.name], chosen.count(v.name) > 0, heavy, heavy ? kHeavyBuildGb : kLightBuildGb, {}});
      placed.insert(v.name);
    }
    if (placed.size() == before) throw std::logic_error("dependency cycle among variants");
  }
  return plan;
}

void key_builds(std::vector<PlannedBuild>& plan, const Matrix& m, const std::vector<GeneratedFile>& files) {
  std::map<std::string, std::string> recipe;
  std::string builders;
  for (const auto& f : files) {
    if (f.path.starts_with(".flox/pkgs/lib/"))
      builders += f.path + "\n" + f.content;
    else if (f.path.starts_with(".flox/pkgs/"))
      recipe[f.path] = content_hash(f.content);
  }
  std::string builders_hash = content_hash(builders);
  std::map<std::string, std::string> keys;
  for (auto& b : plan) {
    std::string needs;
    for (const auto& n : b.needs) needs += n + "=" + keys[n] + "\n";
    b.inputs = {recipe[".flox/pkgs/" + b.name + ".nix"], m.require(b.name, "").pin, builders_hash,
                needs.empty() ? "" : content_hash(needs)};
    keys[b.name] = b.inputs.key();
  }
}

}  // namespace tailor
