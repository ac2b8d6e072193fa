#include "matrix/expand.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/pin_query.hpp"
#include "matrix/rules.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"

namespace tailor {

const Variant* Matrix::find(std::string_view name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

std::vector<std::string> Matrix::names() const {
  std::vector<std::string> out;
  out.reserve(variants.size());
  for (const auto& v : variants) out.push_back(v.name);
  return out;
}

const Variant& Matrix::require(std::string_view name, const std::string& spec_path) const {
  if (const Variant* v = find(name)) return *v;
  Diagnostic d;
  d.message = fmt::format("'{}' is not a variant of {}", name, spec_path);
  d.hint = did_you_mean(name, names());
  if (d.hint.empty()) d.hint = fmt::format("'tailor matrix {}' lists them", spec_path);
  throw DiagnosticError(std::move(d));
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

bool filter_matches(const CellFilter& f, const Cell& c, const std::string& platform) {
  for (const auto& [axis, values] : f.values)
    if (std::find(values.begin(), values.end(), c[idx(axis)]) == values.end()) return false;
  if (!f.platforms.empty() && std::find(f.platforms.begin(), f.platforms.end(), platform) == f.platforms.end())
    return false;
  return true;
}

// One axis value with everything the expander needs from the knowledge base,
// resolved once instead of once per cell.
struct ResolvedValue {
  std::string value;
  std::string token;  ///< its part of the variant name
  const NixpkgsPin* pin = nullptr;
  const GpuArch* gpu = nullptr;
  const CudaToolkit* cuda = nullptr;
  const CpuIsa* isa = nullptr;
};

ResolvedValue resolve(Axis a, const std::string& value, const KnowledgeBase& kb, const Family& fam) {
  ResolvedValue r{value, value};
  if (value.empty()) return r;
  if (a == Axis::sm && fam.sm_set(value)) return r;  // a set: its name is its word
  switch (a) {
    case Axis::package: break;
    case Axis::version: break;
    case Axis::python: r.token = kb.python(value)->name_token(); break;
    case Axis::pin: r.pin = kb.pin(value); break;
    case Axis::cuda:
      r.cuda = kb.cuda(value);
      r.token = r.cuda->name_token();
      break;
    case Axis::sm:
      r.gpu = kb.gpu(value);
      r.token = r.gpu->name_token();
      break;
    case Axis::isa:
      r.isa = kb.isa(value);
      r.token = r.isa->word;
      break;
  }
  return r;
}

// Index of each axis's value in one cell.
using CellIndex = std::array<size_t, kAxes.size()>;

// The cross product of the family's axes, zipped axes advancing together.
std::vector<CellIndex> cross_product(const Family& fam) {
  std::vector<std::vector<Axis>> groups;
  for (Axis a : kAxes) {
    auto zip = std::find_if(fam.zips.begin(), fam.zips.end(),
                            [&](const auto& z) { return std::find(z.begin(), z.end(), a) != z.end(); });
    if (zip == fam.zips.end())
      groups.push_back({a});
    else if (std::find(groups.begin(), groups.end(), *zip) == groups.end())
      groups.push_back(*zip);
  }
  std::vector<CellIndex> cells(1);
  for (const auto& g : groups) {
    size_t n = fam.axes.at(g.front()).size();
    std::vector<CellIndex> next;
    next.reserve(cells.size() * n);
    for (const auto& c : cells)
      for (size_t i = 0; i < n; ++i) {
        CellIndex d = c;
        for (Axis a : g) d[idx(a)] = i;
        next.push_back(d);
      }
    cells = std::move(next);
  }
  return cells;
}

// For a cell the pin cannot build (it lacks a package version, the Python or
// the CUDA asked for): the pins that can, for \a q. Empty for other rules, and
// for a package the pin lacks when the spec asks for no version of it.
std::string pin_hint_for(const std::string& rule, const PinQuery& q, const KnowledgeBase& kb) {
  if (rule == "pin-lacks-python" || rule == "pin-lacks-cuda") return pin_hint(kb, q);
  for (const auto& [attribute, version] : q.versions)
    if (rule == attribute + "-unavailable") return pin_hint(kb, q);
  return {};
}

std::string or_else(std::string s, const char* fallback) { return s.empty() ? fallback : s; }

class FamilyExpander {
 public:
  FamilyExpander(const Family& fam, const Spec& spec, const KnowledgeBase& kb, Matrix& m,
                 std::unordered_map<std::string, std::string>& produced_by)
      : fam_(fam), spec_(spec), kb_(kb), m_(m), produced_by_(produced_by) {
    for (Axis a : kAxes) {
      for (const auto& v : fam.axes.at(a)) values_[idx(a)].push_back(resolve(a, v.value, kb, fam));
      used_[idx(a)].assign(values_[idx(a)].size(), false);
      first_fact_[idx(a)].assign(values_[idx(a)].size(), std::string());
      first_rule_[idx(a)].assign(values_[idx(a)].size(), std::string());
    }
  }

  void run() {
    std::vector<CellIndex> cells = cross_product(fam_);
    m_.variants.reserve(m_.variants.size() + cells.size());
    bool single_cell = true;
    for (Axis a : kAxes) single_cell = single_cell && values_[idx(a)].size() == 1;
    for (const auto& c : cells) add(c, single_cell, fam_.pos);
    for (const auto& inc : fam_.includes) {
      CellIndex c{};
      for (Axis a : kAxes) {
        const auto& vals = values_[idx(a)];
        const std::string& want = inc.values.at(a).front();
        auto it = std::find_if(vals.begin(), vals.end(), [&](const ResolvedValue& r) { return r.value == want; });
        if (it == vals.end()) {  // an include may name a value the family does not list
          values_[idx(a)].push_back(resolve(a, want, kb_, fam_));
          used_[idx(a)].push_back(true);  // explicit: never reported as unused
          first_fact_[idx(a)].emplace_back();
          first_rule_[idx(a)].emplace_back();
          c[idx(a)] = values_[idx(a)].size() - 1;
        } else {
          c[idx(a)] = static_cast<size_t>(it - vals.begin());
        }
      }
      add(c, true, inc.pos);
    }
    report_unused_values();
  }

 private:
  const ResolvedValue& value(const CellIndex& c, Axis a) const { return values_[idx(a)][c[idx(a)]]; }

  Variant candidate(const CellIndex& c) const {
    Variant v;
    const PackageDef& package = *kb_.package(value(c, Axis::package).value);
    const BackendDef& backend = *kb_.backend(fam_.backend);
    v.package = package.name;
    v.backend = backend.name;
    v.accelerator = backend.accelerator;
    v.python = value(c, Axis::python).value;
    v.pin = value(c, Axis::pin).value;
    v.cuda = value(c, Axis::cuda).value;
    if (c[idx(Axis::version)] <
        fam_.versions.size()) {  // the version decides its pin per backend and CUDA, and its name
      const PackageVersion& pv = fam_.versions[c[idx(Axis::version)]];
      v.version = pv.version;
      v.paired = pv.paired;
      v.package_word = pv.word;
      v.pairing = pv.pairing;
      v.version_index = static_cast<int>(c[idx(Axis::version)]);
      if (std::string pin = pv.pin_for(backend.gpu(), v.cuda); !pin.empty()) v.pin = pin;
    }
    v.sm = value(c, Axis::sm).value;
    if (const SmSet* set = fam_.sm_set(v.sm))
      for (const auto& sm : set->sms) v.sm_set.push_back(sm.value);
    v.isa = value(c, Axis::isa).value;
    v.platform = backend.platform.empty() ? value(c, Axis::isa).isa->platform : backend.platform;
    v.family = fam_.name;
    for (const auto& p : fam_.inline_packages) v.inline_packages.push_back(p.value);
    v.versions = built_versions(v, *kb_.pin(v.pin), spec_, kb_);
    v.name =
        variant_name_from_tokens(package, backend,
                                 {value(c, Axis::python).token, value(c, Axis::cuda).token, value(c, Axis::sm).token,
                                  value(c, Axis::isa).token, &fam_.spelling, v.package_word});
    return v;
  }

  void add(const CellIndex& c, bool explicit_cell, Pos explicit_pos) {
    Variant v = candidate(c);
    // Cross-product cells are distinct by construction; includes may repeat one.
    if (explicit_cell && !seen_explicit_.insert(v.name).second) return;
    if (!v.sm_set.empty() && !dropped_by_policy(c, v)) check_set(v);
    const NixpkgsPin* pin = v.pin == value(c, Axis::pin).value ? value(c, Axis::pin).pin : kb_.pin(v.pin);
    CellFacts facts{pin, value(c, Axis::sm).gpu, value(c, Axis::cuda).cuda};
    auto broken = check_facts(v, facts, spec_, kb_);
    if (!broken.empty()) {
      if (explicit_cell)
        throw spec_error(spec_, explicit_pos, fmt::format("{} is impossible: {}", v.name, broken.front().message),
                         or_else(pin_hint_for(broken.front().rule, PinQuery{spec_.versions, v.python, v.cuda}, kb_),
                                 "remove it, or change the value that the rule names"));
      for (Axis a : kAxes)
        if (first_fact_[idx(a)][c[idx(a)]].empty()) {
          first_fact_[idx(a)][c[idx(a)]] = broken.front().message;
          first_rule_[idx(a)][c[idx(a)]] = broken.front().rule;
        }
      m_.dropped.push_back({std::move(v), broken.front().rule, broken.front().message, false, Pos{}});
      return;
    }
    refuse_disputed_version(v, *pin, c, explicit_pos);
    if (!fam_.platforms.empty() &&
        std::find(fam_.platforms.begin(), fam_.platforms.end(), v.platform) == fam_.platforms.end()) {
      std::string reason = fmt::format("platform {} is not among the platforms of family '{}'", v.platform, fam_.name);
      m_.dropped.push_back({std::move(v), "platform-filter", std::move(reason), true, fam_.platforms_pos});
      return;
    }
    if (!fam_.excludes.empty()) {
      Cell cell;
      for (Axis a : kAxes) cell[idx(a)] = value(c, a).value;
      for (const auto& ex : fam_.excludes)
        if (filter_matches(ex, cell, v.platform)) {
          m_.dropped.push_back({std::move(v), "exclude", ex.reason, true, ex.pos});
          return;
        }
    }
    for (Axis a : kAxes) used_[idx(a)][c[idx(a)]] = true;
    auto [it, fresh] = produced_by_.emplace(v.name, fam_.name);
    if (!fresh)
      throw spec_error(spec_, fam_.pos,
                       fmt::format("variant {} is produced twice: by family '{}' and by family '{}'", v.name,
                                   it->second, fam_.name));
    m_.variants.push_back(std::move(v));
  }

  // Whether the family's platforms or excludes drop the cell.
  bool dropped_by_policy(const CellIndex& c, const Variant& v) const {
    if (!fam_.platforms.empty() &&
        std::find(fam_.platforms.begin(), fam_.platforms.end(), v.platform) == fam_.platforms.end())
      return true;
    Cell cell;
    for (Axis a : kAxes) cell[idx(a)] = value(c, a).value;
    return std::any_of(fam_.excludes.begin(), fam_.excludes.end(),
                       [&](const CellFilter& ex) { return filter_matches(ex, cell, v.platform); });
  }

  // Every SM of a set variant must compile with its CUDA toolkit: a set is one
  // build, so an SM nvcc cannot compile breaks it (a lone SM cell is dropped instead).
  void check_set(const Variant& v) const {
    const SmSet& set = *fam_.sm_set(v.sm);
    const CudaToolkit& tk = *kb_.cuda(v.cuda);
    for (const auto& sm : set.sms) {
      const GpuArch& g = *kb_.gpu(sm.value);
      std::string arch = fmt::format("sm_{}{}", g.capability.major(), g.capability.minor());
      std::string why;
      if (tk.version < g.min_cuda)
        why = fmt::format("needs CUDA {} or newer: nvcc {} cannot compile for {}", g.min_cuda.str(), tk.version.str(),
                          arch);
      else if (g.max_cuda && *g.max_cuda < tk.version)
        why = fmt::format("is supported up to CUDA {}: nvcc {} cannot compile for {}", g.max_cuda->str(),
                          tk.version.str(), arch);
      if (why.empty()) continue;
      throw spec_error(
          spec_, sm.pos,
          fmt::format("SM {} ({}) of SM set '{}' {} (variant {})", g.sm, g.family, set.name, why, v.name),
          fmt::format("remove {} from the set, or exclude sm = \"{}\" with cuda = \"{}\"", g.sm, set.name, v.cuda));
    }
  }

  // Where the cell's pin is written: its version's pins, else the family's pin axis.
  Pos pin_pos(const Variant& v, const CellIndex& c, Pos fallback) const {
    if (const PackageVersion* pv = package_version(v, spec_); pv && pv->names_pins()) return pv->pos;
    const auto& listed = fam_.axes.at(Axis::pin);
    return c[idx(Axis::pin)] < listed.size() ? listed[c[idx(Axis::pin)]].pos : fallback;
  }

  // A version that only the pin could decide, where sources disagree on what
  // the pin ships: the spec must decide it (or the fact be measured).
  void refuse_disputed_version(const Variant& v, const NixpkgsPin& pin, const CellIndex& c, Pos fallback) const {
    for (const auto& d : disputed_versions(v, pin, spec_, kb_)) {
      if (!d.requested.empty()) continue;
      const std::string& attr = d.package->attribute;
      throw spec_error(spec_, pin_pos(v, c, fallback),
                       fmt::format("{} builds {} as nixpkgs pin {} ships it, and sources disagree on that version: {}",
                                   v.name, attr, pin.short_rev, d.dispute->claims_text()),
                       fmt::format("decide it in the spec ([branch] {} = \"{}\"), or settle the fact by measuring: {}",
                                   attr, d.dispute->claims.front().value, probe_pin_command(pin)));
    }
  }

  // An axis value that the facts leave without any variant is a mistake in the
  // spec (sm 10.3 listed for CUDA 12.8 only), not a silent no-op.
  void report_unused_values() const {
    for (Axis a : kAxes) {
      const auto& listed = fam_.axes.at(a);
      for (size_t i = 0; i < listed.size(); ++i) {
        if (used_[idx(a)][i] || first_fact_[idx(a)][i].empty()) continue;  // used, or dropped by policy only
        // A Python or CUDA the pin lacks: name the pins that have it.
        PinQuery q{spec_.versions, a == Axis::python ? listed[i].value : "", a == Axis::cuda ? listed[i].value : ""};
        std::string hint = pin_hint_for(first_rule_[idx(a)][i], q, kb_);
        if (hint.empty()) hint = "remove the value, or add an axis value that it can be built with";
        throw spec_error(spec_, listed[i].pos,
                         fmt::format("{} '{}' of family '{}' yields no variant: {}", axis_name(a), listed[i].value,
                                     fam_.name, first_fact_[idx(a)][i]),
                         hint);
      }
    }
  }

  const Family& fam_;
  const Spec& spec_;
  const KnowledgeBase& kb_;
  Matrix& m_;
  std::unordered_map<std::string, std::string>& produced_by_;
  std::array<std::vector<ResolvedValue>, kAxes.size()> values_;
  std::array<std::vector<bool>, kAxes.size()> used_;
  std::array<std::vector<std::string>, kAxes.size()> first_fact_;
  std::array<std::vector<std::string>, kAxes.size()> first_rule_;
  std::set<std::string> seen_explicit_;
};

// When the pin is what dropped the cells (it lacks a package version, the
// Python or the CUDA asked for): the pins that provide them.
std::string pin_hint_for_dropped(const Matrix& m, const Spec& spec, const KnowledgeBase& kb) {
  std::set<std::string> pythons, cudas;
  std::string rule;
  for (const auto& d : m.dropped) {
    if (!pin_hint_for(d.rule, PinQuery{spec.versions, "", ""}, kb).empty()) rule = d.rule;
    if (d.rule == "pin-lacks-python") pythons.insert(d.candidate.python);
    if (d.rule == "pin-lacks-cuda") cudas.insert(d.candidate.cuda);
  }
  return pin_hint_for(
      rule,
      PinQuery{spec.versions, pythons.size() == 1 ? *pythons.begin() : "", cudas.size() == 1 ? *cudas.begin() : ""},
      kb);
}

}  // namespace

namespace {
void add_once(std::vector<std::string>& out, std::string w) {
  if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
}
// A CUDA the pin's list (what teams use there) does not name: built as asked,
// with what the knowledge base does know of it and how to measure the rest.
std::string unrecorded_cuda_warning(const NixpkgsPin& pin, const std::string& attr, const std::string& cuda) {
  std::string known;
  if (std::string set = pin.cuda_set_at(cuda); !set.empty()) {
    const FactEvidence* e = pin.evidence_of("cuda_sets");
    known = fmt::format("; its {} is CUDA {}{}", set, cuda,
                        e ? fmt::format(" ({})", evidence_kind_name(e->kind)) : std::string());
  }
  return fmt::format(
      "the knowledge base does not record {} on {}: its CUDA list ({}) is what teams build with there, not all it "
      "provides{}; measure it: {}",
      attr, pin.short_rev, fmt::join(pin.cuda, ", "), known, probe_pin_command(pin));
}
// One warning per claimed fact that some variant relies on.
std::vector<std::string> claims_relied_on(const Matrix& m, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  auto warn = [&](const std::string& pin, const std::string& attr, const PinClaim& c) {
    std::string w =
        fmt::format("the knowledge base does not record {} on {}; the spec claims it ({})", attr, pin, c.reason);
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  };
  for (const auto& v : m.variants) {
    const NixpkgsPin& pin = *kb.pin(v.pin);
    if (!v.cuda.empty() && !pin.provides_cuda(v.cuda)) {
      if (const PinClaim* c = spec.claim(v.pin, v.cuda, ""))
        warn(v.pin, kb.cuda(v.cuda)->nixpkgs_attr(), *c);
      else
        add_once(out, unrecorded_cuda_warning(pin, kb.cuda(v.cuda)->nixpkgs_attr(), v.cuda));
    }
    if (!v.python.empty() && !pin.provides_python(v.python))
      if (const PinClaim* c = spec.claim(v.pin, "", v.python)) warn(v.pin, kb.python(v.python)->packages_attr(), *c);
  }
  return out;
}
// One warning per (pin, package) whose disputed version variants build as asked.
std::vector<std::string> disputes_relied_on(const Matrix& m, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  std::map<std::string, std::pair<std::string, size_t>> first;  // "pin/attr=version" -> first variant, count
  std::vector<std::pair<std::string, std::pair<const NixpkgsPin*, DisputedVersion>>> order;
  for (const auto& v : m.variants) {
    const NixpkgsPin& pin = *kb.pin(v.pin);
    for (const auto& d : disputed_versions(v, pin, spec, kb)) {
      std::string key = fmt::format("{}/{}={}", pin.short_rev, d.package->attribute, d.requested);
      auto [it, fresh] = first.emplace(key, std::make_pair(v.name, size_t{0}));
      ++it->second.second;
      if (fresh) order.push_back({key, {&pin, d}});
    }
  }
  for (const auto& [key, pd] : order) {
    const auto& [pin, d] = pd;
    const auto& [name, n] = first.at(key);
    out.push_back(
        dispute_warning(*pin, *d.dispute,
                        fmt::format("{} variant{} ({}{}) build {} {} as the pin ships it", n, n == 1 ? "" : "s", name,
                                    n == 1 ? "" : ", …", d.package->attribute, d.requested)));
  }
  return out;
}
// An external recipe fetched without a hash: loud, once per recipe table (in
// the spec's order), with how many variants take it and which version they say it builds.
std::vector<std::string> unhashed_external_recipes(const Matrix& m, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  std::map<const ExternalRecipe*, size_t> uses;
  std::map<const ExternalRecipe*, std::set<std::string>> builds;
  for (const auto& v : m.variants)
    for (const ExternalRecipe* e : external_recipes_for(v, spec))
      if (e->hash.empty()) {
        ++uses[e];
        if (std::string version = requested_for(v, spec, kb, e->attribute); !version.empty()) builds[e].insert(version);
      }
  std::vector<const ExternalRecipe*> tables;
  for (const auto& f : spec.families) {
    for (const auto& pv : f.versions)
      for (const auto& e : pv.external) tables.push_back(&e);
    for (const auto& e : f.external) tables.push_back(&e);
  }
  for (const ExternalRecipe* e : tables) {
    if (!uses.count(e)) continue;
    const std::set<std::string>& versions = builds[e];
    out.push_back(
        fmt::format("{}:{}:{}: {}{} comes from {}, fetched without a hash ({} variant{}): pure evaluation refuses the "
                    "fetch, and elsewhere the build takes whatever the tarball holds that day; add hash = \"…\" "
                    "(nix-prefetch-url --unpack {} prints it)",
                    spec.path, e->pos.line, e->pos.column, e->attribute,
                    versions.size() == 1 ? " " + *versions.begin() : std::string(), e->describe(), uses.at(e),
                    uses.at(e) == 1 ? "" : "s", e->tarball_url()));
  }
  return out;
}
bool builds_inline(const Variant& v, const PackageDef& p) {
  return std::find(v.inline_packages.begin(), v.inline_packages.end(), p.name) != v.inline_packages.end();
}
}  // namespace

Matrix expand(const Spec& spec, const KnowledgeBase& kb) {
  Matrix m;
  std::unordered_map<std::string, std::string> produced_by;
  for (const auto& fam : spec.families) FamilyExpander(fam, spec, kb, m, produced_by).run();
  m.warnings = claims_relied_on(m, spec, kb);
  for (auto& w : disputes_relied_on(m, spec, kb)) m.warnings.push_back(std::move(w));
  for (auto& w : unhashed_external_recipes(m, spec, kb)) m.warnings.push_back(std::move(w));
  // A path per variant names only words each of its variants has: a CPU build has no SM to fill
  // {sm_nodot} with, and a path left with braces would be written into its recipe.
  for (const auto& v : m.variants)
    for (const ExternalRecipe* e : external_recipes_for(v, spec))
      if (!e->path_for(v))
        throw spec_error(spec, e->path_pos, fmt::format("the path of {} names a word {} lacks", e->table(), v.name),
                         fmt::format("a CPU build has no {{sm}}, {{sm_nodot}}, {{cuda}} or {{cuda_underscore}}: {}",
                                     e->family_level ? "give the variants without it a family of their own"
                                                     : "give its family a version with a path of its own"));

  if (m.variants.empty()) {
    Diagnostic d = diagnostic_at(spec.path, spec.text, Pos{}, "the matrix is empty: every combination was dropped");
    std::set<std::string> reasons;
    for (const auto& dr : m.dropped)
      if (reasons.insert(dr.reason).second && reasons.size() <= 5) d.notes.push_back(dr.reason);
    d.hint = pin_hint_for_dropped(m, spec, kb);
    throw DiagnosticError(d);
  }

  // A companion's recipe imports the same cell's variant of the package it is
  // built against: that variant must be in the matrix.
  for (const auto& fam : spec.families) {
    for (const auto& v : m.variants) {
      if (v.family != fam.name) continue;
      const PackageDef* base = kb.needed(*kb.package(v.package), NeedStrategy::companion_of);
      if (!base || builds_inline(v, *base) || external_recipe_for(v, spec, base->attribute)) continue;
      Variant other = v;
      other.package = base->name;
      std::string base_name;
      if (v.version_index >= 0) {  // a version pairs with a version of the base: its variant of the same cell
        other.package_word.clear();
        other.version = requested_for(v, spec, kb, base->attribute);
        for (const auto& b : m.variants)
          if (b.package == base->name && b.version == other.version && b.python == v.python && b.cuda == v.cuda &&
              b.sm == v.sm && b.isa == v.isa && b.platform == v.platform)
            other.package_word = b.package_word;
        base_name = variant_name(other, kb);
        if (!other.version.empty() && other.package_word.empty())
          base_name = base->name + " " + other.version + " (" + base_name + ")";
      } else {
        base_name = variant_name(other, kb);
      }
      if (!produced_by.count(base_name)) {
        Pos pos = fam.axes.at(Axis::package).front().pos;
        for (const auto& p : fam.axes.at(Axis::package))
          if (p.value == v.package) pos = p.pos;
        throw spec_error(
            spec, pos, fmt::format("{} needs {}, which the matrix does not contain", v.name, base_name),
            fmt::format("{} recipes build against the matching {} variant: add it to a family; or write inline = "
                        "[\"{}\"] in this family where each recipe builds its own, or take it from another "
                        "repository's recipe with [family.version.external.{}] or [family.external.{}] (doc/spec.md)",
                        v.package, base->name, base->name, base->attribute, base->attribute));
      }
    }
  }
  return m;
}

}  // namespace tailor
