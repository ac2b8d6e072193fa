#include "matrix/expand.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "matrix/rules.hpp"

namespace tailor {

const Variant* Matrix::find(std::string_view name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

std::vector<const DroppedCell*> Matrix::dropped_named(std::string_view name) const {
  std::vector<const DroppedCell*> out;
  for (const auto& d : dropped)
    if (d.candidate.name == name) out.push_back(&d);
  return out;
}

namespace {

using Cell = std::array<std::string, kAxes.size()>;
size_t idx(Axis a) { return static_cast<size_t>(a); }

DiagnosticError spec_error(const Spec& spec, Pos pos, std::string message, std::string hint = {}) {
  return DiagnosticError(diagnostic_at(spec.path, spec.text, pos, std::move(message), std::move(hint)));
}

Variant make_candidate(const Cell& c, const Family& fam, const Spec& spec, const KnowledgeBase& kb) {
  Variant v;
  v.package = *package_from_name(c[idx(Axis::package)]);
  v.backend = fam.backend;
  v.python = c[idx(Axis::python)];
  v.pin = c[idx(Axis::pin)];
  v.cuda = c[idx(Axis::cuda)];
  v.sm = c[idx(Axis::sm)];
  v.isa = c[idx(Axis::isa)];
  v.platform = fam.backend == Backend::mps ? "aarch64-darwin" : kb.isa(v.isa)->platform;
  v.family = fam.name;
  const NixpkgsPin* pin = kb.pin(v.pin);
  if (v.package != Package::magma) v.torch = spec.torch.empty() ? pin->torch.str() : spec.torch;
  if (v.package == Package::vllm) v.vllm = spec.vllm.empty() ? (pin->vllm ? pin->vllm->str() : "") : spec.vllm;
  v.name = variant_name(v, kb);
  return v;
}

bool filter_matches(const CellFilter& f, const Cell& c, const std::string& platform) {
  for (const auto& [axis, values] : f.values)
    if (std::find(values.begin(), values.end(), c[idx(axis)]) == values.end()) return false;
  if (!f.platforms.empty() && std::find(f.platforms.begin(), f.platforms.end(), platform) == f.platforms.end())
    return false;
  return true;
}

// The cross product of the family's axes, zipped axes advancing together.
std::vector<Cell> cross_product(const Family& fam) {
  std::vector<std::vector<Axis>> groups;
  for (Axis a : kAxes) {
    auto zip = std::find_if(fam.zips.begin(), fam.zips.end(),
                            [&](const auto& z) { return std::find(z.begin(), z.end(), a) != z.end(); });
    if (zip == fam.zips.end()) groups.push_back({a});
    else if (std::find(groups.begin(), groups.end(), *zip) == groups.end()) groups.push_back(*zip);
  }
  std::vector<Cell> cells(1);
  for (const auto& g : groups) {
    size_t n = fam.axes.at(g.front()).size();
    std::vector<Cell> next;
    next.reserve(cells.size() * n);
    for (const auto& c : cells)
      for (size_t i = 0; i < n; ++i) {
        Cell d = c;
        for (Axis a : g) d[idx(a)] = fam.axes.at(a)[i].value;
        next.push_back(std::move(d));
      }
    cells = std::move(next);
  }
  return cells;
}

struct FamilyOutcome {
  // Per axis value: whether some variant used it, and the first fact that dropped it.
  std::map<std::pair<Axis, std::string>, bool> used;
  std::map<std::pair<Axis, std::string>, std::string> first_fact;
};

void expand_family(const Family& fam, const Spec& spec, const KnowledgeBase& kb, Matrix& m,
                   std::unordered_map<std::string, std::string>& produced_by) {
  FamilyOutcome outcome;
  std::set<std::string> seen_in_family;
  bool single_cell = true;
  for (Axis a : kAxes) single_cell = single_cell && fam.axes.at(a).size() == 1;

  auto add = [&](const Cell& c, bool explicit_cell, Pos explicit_pos) {
    Variant v = make_candidate(c, fam, spec, kb);
    if (!seen_in_family.insert(v.name).second) return;
    auto facts = check_facts(v, spec, kb);
    if (!facts.empty()) {
      if (explicit_cell) {
        throw spec_error(spec, explicit_pos,
                         fmt::format("{} is impossible: {}", v.name, facts.front().message),
                         "remove it, or change the value that the rule names");
      }
      for (Axis a : kAxes) outcome.first_fact.emplace(std::pair{a, c[idx(a)]}, facts.front().message);
      m.dropped.push_back({v, facts.front().rule, facts.front().message, false, Pos{}});
      return;
    }
    if (!fam.platforms.empty() &&
        std::find(fam.platforms.begin(), fam.platforms.end(), v.platform) == fam.platforms.end()) {
      m.dropped.push_back({v, "platform-filter",
                           fmt::format("platform {} is not among the platforms of family '{}'", v.platform, fam.name),
                           true, fam.platforms_pos});
      return;
    }
    for (const auto& ex : fam.excludes) {
      if (filter_matches(ex, c, v.platform)) {
        m.dropped.push_back({v, "exclude", ex.reason, true, ex.pos});
        return;
      }
    }
    for (Axis a : kAxes) outcome.used[{a, c[idx(a)]}] = true;
    auto [it, fresh] = produced_by.emplace(v.name, fam.name);
    if (!fresh)
      throw spec_error(spec, fam.pos,
                       fmt::format("variant {} is produced twice: by family '{}' and by family '{}'", v.name,
                                   it->second, fam.name));
    m.variants.push_back(std::move(v));
  };

  for (const auto& c : cross_product(fam)) add(c, single_cell, fam.pos);
  for (const auto& inc : fam.includes) {
    Cell c;
    for (Axis a : kAxes) c[idx(a)] = inc.values.at(a).front();
    add(c, true, inc.pos);
  }

  // An axis value that the facts leave without any variant is a mistake in the
  // spec (sm 10.3 listed for CUDA 12.8 only), not a silent no-op.
  for (Axis a : kAxes) {
    for (const auto& value : fam.axes.at(a)) {
      std::pair key{a, value.value};
      if (outcome.used.count(key)) continue;
      auto fact = outcome.first_fact.find(key);
      if (fact == outcome.first_fact.end()) continue;  // dropped by policy only
      throw spec_error(spec, value.pos,
                       fmt::format("{} '{}' of family '{}' yields no variant: {}", axis_name(a), value.value, fam.name,
                                   fact->second),
                       "remove the value, or add an axis value that it can be built with");
    }
  }
}

}  // namespace

Matrix expand(const Spec& spec, const KnowledgeBase& kb) {
  Matrix m;
  std::unordered_map<std::string, std::string> produced_by;
  for (const auto& fam : spec.families) expand_family(fam, spec, kb, m, produced_by);

  if (m.variants.empty()) {
    Diagnostic d = diagnostic_at(spec.path, spec.text, Pos{}, "the matrix is empty: every combination was dropped");
    std::set<std::string> reasons;
    for (const auto& dr : m.dropped)
      if (reasons.insert(dr.reason).second && reasons.size() <= 5) d.notes.push_back(dr.reason);
    throw DiagnosticError(d);
  }

  // A companion's recipe imports the pytorch variant it is built against.
  for (const auto& fam : spec.families) {
    for (const auto& v : m.variants) {
      if (v.family != fam.name || !is_companion(v.package)) continue;
      Variant torch = v;
      torch.package = Package::pytorch;
      std::string torch_name = variant_name(torch, kb);
      if (!produced_by.count(torch_name)) {
        Pos pos = fam.axes.at(Axis::package).front().pos;
        for (const auto& p : fam.axes.at(Axis::package))
          if (p.value == package_name(v.package)) pos = p.pos;
        throw spec_error(spec, pos,
                         fmt::format("{} needs {}, which the matrix does not contain", v.name, torch_name),
                         fmt::format("{} recipes build against the matching pytorch variant; add it to a family",
                                     package_name(v.package)));
      }
    }
  }
  return m;
}

}  // namespace tailor
