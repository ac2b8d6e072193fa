#include "matrix/why_not.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/rules.hpp"
#include "util/edit_distance.hpp"

namespace tailor {

std::vector<std::string> all_names(const Matrix& m) {
  std::vector<std::string> names;
  for (const auto& v : m.variants) names.push_back(v.name);
  for (const auto& d : m.dropped) names.push_back(d.candidate.name);
  return names;
}

std::vector<std::string> why_absent(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<std::string> reasons;
  bool some_family = false;
  for (const auto& fam : spec.families) {
    const auto& pk = fam.axes.at(Axis::package);
    bool has_pkg = std::any_of(pk.begin(), pk.end(), [&](const auto& p) { return p.value == v.package; });
    if (!has_pkg || fam.backend != v.backend) continue;
    some_family = true;
    std::vector<std::string> missing;
    auto check = [&](Axis a, const std::string& value) {
      const auto& vals = fam.axes.at(a);
      if (value.empty() || std::any_of(vals.begin(), vals.end(), [&](const auto& x) { return x.value == value; }))
        return;
      std::vector<std::string> listed;
      for (const auto& x : vals) listed.push_back(x.value);
      missing.push_back(fmt::format("{} {} (it lists {})", axis_name(a), value, fmt::join(listed, ", ")));
    };
    check(Axis::python, v.python);
    check(Axis::cuda, v.cuda);
    check(Axis::sm, v.sm);
    check(Axis::isa, v.isa);
    if (!missing.empty())
      reasons.push_back(fmt::format("family '{}' does not list {}", fam.name, fmt::join(missing, "; ")));
    Variant cell = v;
    cell.pin = fam.axes.at(Axis::pin).front().value;
    for (const auto& f : check_facts(cell, spec, kb)) reasons.push_back(fmt::format("rule {}: {}", f.rule, f.message));
  }
  if (!some_family)
    reasons.push_back(fmt::format("no family of the spec builds {} with backend {}", v.package, v.backend));
  std::sort(reasons.begin(), reasons.end());
  reasons.erase(std::unique(reasons.begin(), reasons.end()), reasons.end());
  return reasons;
}

WhyNot why_not(const std::string& name, const std::optional<Variant>& cell, const Spec& spec, const Matrix& m,
               const KnowledgeBase& kb) {
  WhyNot w;
  if (const Variant* v = m.find(name)) {
    w.kind = WhyNot::Kind::in_matrix;
    w.family = v->family;
    return w;
  }
  w.drops = m.dropped_named(name);
  if (!w.drops.empty()) {
    w.kind = WhyNot::Kind::dropped;
    return w;
  }
  if (!cell) return w;
  w.kind = WhyNot::Kind::absent;
  w.reasons = why_absent(*cell, spec, kb);
  w.closest = closest_match(name, all_names(m));
  return w;
}

}  // namespace tailor
