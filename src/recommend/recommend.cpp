#include "recommend/recommend.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/isa_match.hpp"
#include "kb/driver_rule.hpp"
#include "kb/runs_on.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

std::string_view workload_name(Workload w) { return workload_names().at(static_cast<size_t>(w)); }

std::optional<Workload> workload_from_name(std::string_view name) {
  for (Workload w : {Workload::general, Workload::bf16_training, Workload::int8_inference})
    if (workload_name(w) == name) return w;
  return std::nullopt;
}

namespace {

// Why the request has this package, version or Python: the command line's
// flag, or the page's words for a choice made on it.
std::string asked(const RecommendRequest& req, std::string_view flag) {
  return req.chosen_by.empty() ? fmt::format("asked for with --{}", flag) : req.chosen_by;
}

std::string sm_token(std::string_view sm) { return "sm" + nodot(sm); }

enum class SmMatch { none = 0, lower_minor = 1, exact = 2 };

// Whether code built for \a built runs on a GPU of \a gpu: the one rule of
// kb/runs_on.hpp (a GPU the knowledge base lacks: any_gpu_target's).
SmMatch sm_match(const std::optional<CudaCode>& built, const std::optional<GpuTarget>& gpu) {
  if (!built || !gpu || !runs_on(*built, *gpu)) return SmMatch::none;
  return built->number == gpu->number ? SmMatch::exact : SmMatch::lower_minor;
}
SmMatch sm_match(const KnowledgeBase& kb, std::string_view built, std::string_view gpu) {
  return sm_match(parse_sm(built), any_gpu_target(kb, gpu));
}

enum class DriverFit { not_needed = 0, minor_compat = 1, unknown = 2, full = 3 };

// Why a variant cannot run here, one flag each, in the order texts list them.
// Kept as flags and worded only where a text is read (problem_texts): the
// catalog evaluates every variant on thousands of hosts and reads the words
// of a few.
enum Problem : uint8_t {
  kWrongPlatform = 1 << 0,
  kNoGpu = 1 << 1,
  kNoSmOfSetRuns = 1 << 2,
  kSmDoesNotRun = 1 << 3,
  kDriverTooOld = 1 << 4,
  kCpuLacksFeatures = 1 << 5,
  kGpuNewerThanDriver = 1 << 6,  ///< the driver predates the GPU's first branch (kb/driver_rule.hpp)
  kDriverDropsGpu = 1 << 7,      ///< the driver is past the GPU's last branch
};

struct Fit {
  const Variant* v = nullptr;
  uint8_t problems = 0;                  ///< Problem flags
  const CudaToolkit* toolkit = nullptr;  ///< the variant's CUDA, where the knowledge base has it
  const GpuArch* arch = nullptr;         ///< the knowledge base's entry of the GPU it runs on
  const CpuIsa* isa = nullptr;           ///< the variant's ISA, where the knowledge base has it
  const GpuInfo* gpu = nullptr;
  int backend = 0, gpu_rank = 0;
  SmMatch match = SmMatch::none;
  int sm_minor = 0;
  int single = 0;  // 1: built for one SM; 0: an SM set that contains one the GPU runs
  DriverFit driver = DriverFit::not_needed;
  int isa_workload = 0, isa_general = 0, isa_rank = 0;
  size_t missing = 0;  // CPU features the ISA needs and the CPU lacks

  bool runs() const { return problems == 0; }
  int problem_count() const { return std::popcount(problems); }
  // References, not copies: the catalog sorts the fits of every host it answers.
  // The toolkit's version; none (lowest) where the knowledge base lacks the toolkit or the variant is not CUDA.
  const Version& cuda() const {
    static const Version none;
    return toolkit ? toolkit->version : none;
  }
  // The key with another workload's isa_workload: the only part that depends on the workload.
  auto key_with(const int& workload_fit) const {
    return std::tie(backend, gpu_rank, match, sm_minor, single, driver, cuda(), workload_fit, isa_general, isa_rank);
  }
  auto key() const { return key_with(isa_workload); }
};

bool better(const Fit& a, const Fit& b) {
  auto x = a.key(), y = b.key();
  if (x != y) return x > y;
  return a.v->name < b.v->name;
}

// Whether the variant's ISA is the one workload \a w asks for (Fit::isa_workload).
int workload_fit(const Fit& f, Workload w) { return f.isa && f.isa->workload == workload_name(w) ? 1 : 0; }

// The best runnable fit for workload \a w among \a fits, evaluated for any
// workload and in any order: what the first runnable fit of evaluate_all for
// \a w would be, without evaluating or sorting again.
const Fit* best_runnable_for(const std::vector<Fit>& fits, Workload w) {
  const Fit* best = nullptr;
  int best_fit = 0;
  for (const auto& f : fits) {
    if (!f.runs()) continue;
    int fit = workload_fit(f, w);
    if (best) {
      auto x = f.key_with(fit), y = best->key_with(best_fit);
      if (x != y ? x < y : !(f.v->name < best->v->name)) continue;
    }
    best = &f;
    best_fit = fit;
  }
  return best;
}

// GPUs newest first (highest compute capability; lower index on ties).
std::vector<const GpuInfo*> newest_first(const HostFacts& h) {
  std::vector<const GpuInfo*> gs;
  for (const auto& g : h.gpu.gpus) gs.push_back(&g);
  std::stable_sort(gs.begin(), gs.end(), [](const GpuInfo* a, const GpuInfo* b) {
    auto va = Version::parse(a->sm), vb = Version::parse(b->sm);
    if (va && vb && *va != *vb) return *va > *vb;
    return a->index < b->index;
  });
  return gs;
}

std::string gpu_label(const GpuInfo& g) {
  return g.name.empty() ? fmt::format("GPU {}", g.index) : fmt::format("GPU {} ({})", g.index, g.name);
}

std::string driver_label(const HostFacts& h) { return h.gpu.driver.empty() ? "unknown" : h.gpu.driver; }

std::string sm_mismatch(std::string_view built, const std::vector<const GpuInfo*>& gpus) {
  auto b = parse_sm(built);
  std::vector<std::string> have;
  for (const GpuInfo* g : gpus) have.push_back(fmt::format("SM {}", g->sm));
  std::string why;
  const GpuInfo& g = *gpus.front();
  auto gs = parse_sm(g.sm);
  if (b && gs && b->major() == gs->major() && b->suffix == 'a' && b->number < gs->number)
    why = fmt::format("arch-specific sm_{}a code runs on SM {}.{} only", b->number, b->major(), b->number % 10);
  else if (b && gs && b->major() == gs->major() && b->suffix == 'f' && b->number <= gs->number)
    why = fmt::format("family-specific sm_{}f code runs only on the SMs of its family the knowledge base lists",
                      b->number);
  else if (b && gs && b->major() == gs->major())
    why = "code for a higher minor does not run on a lower one";
  else
    why = "compiled GPU code runs only within one major architecture";
  if (gpus.size() == 1) return fmt::format("built for SM {}; {} is SM {} ({})", built, gpu_label(g), g.sm, why);
  return fmt::format("built for SM {}; this host's GPUs are {} ({})", built, fmt::join(have, ", "), why);
}

// "SM set 'all' (7.5, 8.0, 9.0)": how texts name a set variant's SMs.
std::string set_label(const Variant& v) { return fmt::format("SM set '{}' ({})", v.sm, fmt::join(v.sm_set, ", ")); }

std::string set_mismatch(const Variant& v, const std::vector<const GpuInfo*>& gpus) {
  std::vector<std::string> have;
  for (const GpuInfo* g : gpus) have.push_back(fmt::format("SM {}", g->sm));
  return fmt::format(
      "built for {}; no code of it runs on {} (compiled GPU code runs within one major architecture, "
      "on the same or a higher minor)",
      set_label(v), fmt::join(have, ", "));
}

// The SM of \a v whose code runs best on \a gpu: the variant's SM, or a set's best for it.
std::string sm_for(const KnowledgeBase& kb, const Variant& v, const GpuInfo& gpu) {
  std::string best = v.sm;
  SmMatch best_match = SmMatch::none;
  for (const auto& sm : v.sms()) {
    SmMatch m = sm_match(kb, sm, gpu.sm);
    if (m != SmMatch::none && (best_match == SmMatch::none || m > best_match ||
                               (m == best_match && parse_sm(sm)->number > parse_sm(best)->number))) {
      best = sm;
      best_match = m;
    }
  }
  return best;
}

// What evaluate needs of the host, worked out once for all the variants, and
// the CPU features each ISA lacks here, which variants share: the catalog
// evaluates every variant on thousands of hosts.
struct HostView {
  const HostFacts& h;
  std::vector<const GpuInfo*> gpus;               ///< newest first
  std::vector<std::optional<GpuTarget>> targets;  ///< per gpus[k]
  std::vector<const GpuArch*> arches;             ///< per gpus[k]; null where the knowledge base lacks it
  std::optional<Version> driver;
  std::map<const CpuIsa*, std::vector<std::string>> missing_by_isa;  ///< CPU features each ISA lacks here

  HostView(const HostFacts& facts, const KnowledgeBase& kb)
      : h(facts), gpus(newest_first(facts)), driver(Version::parse(facts.gpu.driver)) {
    for (const GpuInfo* g : gpus) targets.push_back(any_gpu_target(kb, g->sm));
    for (const GpuInfo* g : gpus) arches.push_back(kb.gpu(g->sm));
  }
};

// What evaluate needs of a variant that no host changes, looked up once per
// variant a request chooses (Selection::choose) rather than once per host.
struct Candidate {
  const Variant* v;
  const CudaToolkit* toolkit = nullptr;      ///< a CUDA variant's toolkit, where the knowledge base has it
  std::vector<std::optional<CudaCode>> sms;  ///< a CUDA variant's SMs (v->sms()), parsed
  const CpuIsa* isa = nullptr;               ///< its ISA, where the knowledge base has it

  Candidate(const Variant& variant, const KnowledgeBase& kb) : v(&variant) {
    if (variant.accelerator == Accelerator::cuda) {
      toolkit = kb.cuda(variant.cuda);
      for (const auto& sm : variant.sms()) sms.push_back(parse_sm(sm));
    }
    if (!variant.isa.empty()) isa = kb.isa(variant.isa);
  }
};

Fit evaluate(const Candidate& c, HostView& view, Workload w) {
  const HostFacts& h = view.h;
  const Variant& v = *c.v;
  Fit f;
  f.v = &v;
  if (v.platform != h.platform) f.problems |= kWrongPlatform;
  switch (v.accelerator) {
    case Accelerator::metal: f.backend = 2; break;
    case Accelerator::none: f.backend = 1; break;
    case Accelerator::cuda: {
      f.backend = 2;
      const CudaToolkit* ck = c.toolkit;
      f.toolkit = ck;
      const std::vector<const GpuInfo*>& gpus = view.gpus;
      if (gpus.empty()) {
        f.problems |= kNoGpu;
        break;
      }
      // One SM, or the SM of a set that fits the GPU best: a set variant carries code for each.
      f.single = v.sm_set.empty() ? 1 : 0;
      for (size_t k = 0; k < gpus.size() && !f.gpu; ++k) {
        for (const auto& s : c.sms) {
          SmMatch m = sm_match(s, view.targets[k]);
          int minor = s ? static_cast<int>(s->number % 10) : 0;
          if (m == SmMatch::none || (f.gpu && std::make_pair(m, minor) <= std::make_pair(f.match, f.sm_minor)))
            continue;
          f.gpu = gpus[k];
          f.gpu_rank = static_cast<int>(gpus.size() - k);
          f.match = m;
          f.sm_minor = minor;
        }
      }
      if (!f.gpu) f.problems |= v.sm_set.empty() ? kSmDoesNotRun : kNoSmOfSetRuns;
      if (f.gpu) f.arch = view.arches[gpus.size() - static_cast<size_t>(f.gpu_rank)];
      if (!ck) break;
      const std::optional<Version>& driver = view.driver;
      // The driver rule (kb/driver_rule.hpp): a driver runs a GPU only between its first and last branch; in
      // between, the CUDA major's floor decides.
      if (driver && f.arch) {
        DriverSupport s = driver_supports(*f.arch, *driver);
        if (s == DriverSupport::too_old) f.problems |= kGpuNewerThanDriver;
        if (s == DriverSupport::too_new) f.problems |= kDriverDropsGpu;
      }
      if (!driver) {
        f.driver = DriverFit::unknown;
      } else if (ck->min_driver && *driver >= *ck->min_driver) {
        f.driver = DriverFit::full;
      } else if (ck->minor_compat_driver && *driver >= *ck->minor_compat_driver) {
        f.driver = DriverFit::minor_compat;
      } else {
        f.problems |= kDriverTooOld;
      }
      break;
    }
  }
  if (!v.isa.empty()) {
    if (const CpuIsa* isa = c.isa) {
      f.isa = isa;
      auto known = view.missing_by_isa.find(isa);
      if (known == view.missing_by_isa.end())
        known = view.missing_by_isa.emplace(isa, missing_features(*isa, h.cpu)).first;
      f.missing = known->second.size();
      if (f.missing) f.problems |= kCpuLacksFeatures;
      f.isa_workload = workload_fit(f, w);
      f.isa_general = isa->workload.empty() || isa->workload == "general" ? 1 : 0;
      f.isa_rank = isa->rank;
    }
  }
  return f;
}

// The words of \a f's problems, in the order evaluate found them.
std::vector<std::string> problem_texts(const Fit& f, const HostFacts& h) {
  const Variant& v = *f.v;
  std::vector<std::string> out;
  if (f.problems & kWrongPlatform) out.push_back(fmt::format("built for {}; this host is {}", v.platform, h.platform));
  if (f.problems & kNoGpu) out.push_back(fmt::format("needs an NVIDIA GPU; none found ({})", h.gpu.source));
  if (f.problems & kNoSmOfSetRuns) out.push_back(set_mismatch(v, newest_first(h)));
  if (f.problems & kSmDoesNotRun) out.push_back(sm_mismatch(v.sm, newest_first(h)));
  if (f.problems & kDriverTooOld) {
    const CudaToolkit& ck = *f.toolkit;
    if (ck.minor_compat_driver)
      out.push_back(fmt::format(
          "driver {} is older than {}, NVIDIA's minimum for CUDA {}, and than {}, the floor of minor-version "
          "compatibility",
          h.gpu.driver, ck.min_driver_text(), ck.version.str(), ck.minor_compat_driver->str()));
    else
      out.push_back(fmt::format("driver {} is older than {}, NVIDIA's minimum for CUDA {}", h.gpu.driver,
                                ck.min_driver_text(), ck.version.str()));
  }
  if (f.problems & kGpuNewerThanDriver)
    out.push_back(unsupported_text(*f.arch, *Version::parse(h.gpu.driver), DriverSupport::too_old) +
                  fmt::format(": upgrade to {}+", driver_text(*f.arch->first_driver)));
  if (f.problems & kDriverDropsGpu)
    out.push_back(unsupported_text(*f.arch, *Version::parse(h.gpu.driver), DriverSupport::too_new));
  if (f.problems & kCpuLacksFeatures)
    out.push_back(fmt::format("the CPU lacks {} (required by ISA {})", fmt::join(missing_features(*f.isa, h.cpu), " "),
                              f.isa->name));
  return out;
}

std::string join_names(const std::set<std::string>& s) { return fmt::format("{}", fmt::join(s, ", ")); }

struct Selection {
  std::string package, version, python;  ///< version empty: any
  std::vector<std::string> reasons;
  std::vector<Candidate> candidates;  ///< the variants chosen, in the matrix's order (choose)

  void choose(const Matrix& m, const KnowledgeBase& kb) {
    candidates.clear();
    for (const auto& v : m.variants)
      if (chosen(v)) candidates.emplace_back(v, kb);
  }

  bool chosen(const Variant& v) const {
    return v.package == package && (version.empty() || version_built(v) == version) &&
           (python.empty() || v.python == python);
  }
  // The version of the package a variant builds: its [[family.version]], else what it reports.
  std::string version_built(const Variant& v) const { return v.version.empty() ? v.version_of(package) : v.version; }
};

// Versions newest first, as text.
std::vector<std::string> newest_first(const std::set<std::string>& versions) {
  std::vector<std::string> out(versions.begin(), versions.end());
  std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    auto va = Version::parse(a), vb = Version::parse(b);
    return va && vb ? *va > *vb : a > b;
  });
  return out;
}

Selection select(const Matrix& m, const RecommendRequest& req, const KnowledgeBase& kb) {
  Selection s;
  std::set<std::string> packages;
  for (const auto& v : m.variants) packages.insert(v.package);
  if (!req.package.empty()) {
    if (!packages.count(req.package)) {
      Diagnostic d;
      d.message = fmt::format("--package {}: the matrix builds {}", req.package, join_names(packages));
      std::vector<std::string> names(packages.begin(), packages.end());
      d.hint = did_you_mean(req.package, names);
      throw DiagnosticError(std::move(d));
    }
    s.package = req.package;
    if (packages.size() > 1) s.reasons.push_back(fmt::format("package {}: {}", s.package, asked(req, "package")));
  } else {
    s.package = packages.count(kb.headline) ? kb.headline : m.variants.front().package;
    if (packages.size() > 1)
      s.reasons.push_back(
          fmt::format("package {}: the matrix's main package (it also builds {}; --package to choose)", s.package, [&] {
            std::set<std::string> others = packages;
            others.erase(s.package);
            return join_names(others);
          }()));
  }
  // The version: asked for, else the newest where the spec lists several ([[family.version]]).
  std::set<std::string> versions;
  bool listed = false;
  for (const auto& v : m.variants)
    if (v.package == s.package) {
      if (std::string x = s.version_built(v); !x.empty()) versions.insert(x);
      listed = listed || !v.version.empty();
    }
  std::vector<std::string> ordered = newest_first(versions);
  if (!req.version.empty()) {
    if (!versions.count(req.version)) {
      Diagnostic d;
      d.message = fmt::format(
          "--version {}: the matrix builds {} {}", req.version, s.package,
          versions.empty() ? std::string("in no version it records") : fmt::format("{}", fmt::join(ordered, ", ")));
      throw DiagnosticError(std::move(d));
    }
    s.version = req.version;
    if (versions.size() > 1)
      s.reasons.push_back(fmt::format("version {} {}: {}", s.package, s.version, asked(req, "version")));
  } else if (listed && !ordered.empty()) {
    s.version = ordered.front();
    if (versions.size() > 1)
      s.reasons.push_back(fmt::format("version {} {}: the newest the matrix builds (also {}; --version to choose)",
                                      s.package, s.version,
                                      fmt::format("{}", fmt::join(ordered.begin() + 1, ordered.end(), ", "))));
  }
  std::set<std::string> pythons;
  std::optional<Version> newest;
  for (const auto& v : m.variants) {
    if (v.package != s.package || (!s.version.empty() && s.version_built(v) != s.version) || v.python.empty()) continue;
    pythons.insert(v.python);
    auto pv = Version::parse(v.python);
    if (pv && (!newest || *pv > *newest)) newest = pv;
  }
  if (!req.python.empty()) {
    if (!pythons.count(req.python)) {
      Diagnostic d;
      d.message = fmt::format("--python {}: the matrix builds {} for Python {}", req.python, s.package,
                              pythons.empty() ? std::string("none") : join_names(pythons));
      throw DiagnosticError(std::move(d));
    }
    s.python = req.python;
    if (pythons.size() > 1) s.reasons.push_back(fmt::format("python {}: {}", s.python, asked(req, "python")));
  } else if (newest) {
    s.python = newest->str();
    if (pythons.size() > 1)
      s.reasons.push_back(fmt::format("python {}: the newest the matrix builds {} for (also {}; --python to choose)",
                                      s.python, s.package, [&] {
                                        std::set<std::string> others = pythons;
                                        others.erase(s.python);
                                        return join_names(others);
                                      }()));
  }
  s.choose(m, kb);
  return s;
}

// The fits of the variants \a s chooses, in the matrix's order.
std::vector<Fit> evaluate_chosen(const HostFacts& h, const KnowledgeBase& kb, Workload w, const Selection& s) {
  std::vector<Fit> fits;
  fits.reserve(s.candidates.size());
  HostView view(h, kb);
  for (const Candidate& c : s.candidates) fits.push_back(evaluate(c, view, w));
  return fits;
}

// The fits, best first.
std::vector<Fit> evaluate_all(const HostFacts& h, const KnowledgeBase& kb, Workload w, const Selection& s) {
  std::vector<Fit> fits = evaluate_chosen(h, kb, w, s);
  std::sort(fits.begin(), fits.end(), better);
  return fits;
}

// For "the closest candidate": fewest problems, fewest missing CPU features,
// then the oldest toolkit (the smallest driver upgrade), then the better rank.
bool closer(const Fit& f, const Fit* than) {
  if (!than) return true;
  if (f.problem_count() != than->problem_count()) return f.problem_count() < than->problem_count();
  if (f.missing != than->missing) return f.missing < than->missing;
  return f.cuda() < than->cuda();
}

const Fit* best_runnable(const std::vector<Fit>& fits) {
  for (const auto& f : fits)
    if (f.runs()) return &f;
  return nullptr;
}

std::string isa_reason(const Fit& f, const HostFacts& h, const KnowledgeBase& kb, Workload w,
                       const std::vector<Fit>& fits) {
  const CpuIsa* isa = f.isa;
  if (!isa) return {};
  std::string r = isa->baseline()
                      ? fmt::format("ISA {} ({}): no CPU ISA targeting, runs on any {} CPU", isa->name, isa->display,
                                    isa->arch_display())
                      : fmt::format("ISA {}: the CPU has {}", isa->name, fmt::join(isa->requires_features, " "));
  if (isa->workload == workload_name(w))
    return r + fmt::format("; workload {} picks {}", workload_name(w), isa->display);
  // Name what kept the better targets out: the workload's own target, then
  // the general targets above this one.
  std::vector<std::string> why;
  for (const auto& other : kb.isas) {
    if (other.platform != isa->platform || &other == isa) continue;
    bool wanted = other.workload == workload_name(w);
    bool higher_general = (other.workload.empty() || other.workload == "general") && other.rank > isa->rank;
    if (!wanted && !higher_general) continue;
    auto missing = missing_features(other, h.cpu);
    if (!missing.empty()) {
      why.push_back(fmt::format("{} needs {}, missing", other.name, fmt::join(missing, " ")));
      continue;
    }
    bool offered = std::any_of(fits.begin(), fits.end(), [&](const Fit& o) {
      return o.v->isa == other.name && o.v->backend == f.v->backend && o.v->sm == f.v->sm && o.v->cuda == f.v->cuda;
    });
    if (!offered) why.push_back(fmt::format("the matrix has no {} build of this kind", other.name));
  }
  if (!why.empty()) r += fmt::format(" ({})", fmt::join(why, "; "));
  if (w != Workload::general && isa->workload != workload_name(w))
    r += fmt::format("; workload {} falls back to the general choice", workload_name(w));
  return r;
}

// How \a b differs from the recommendation \a a, at the first deciding key.
std::string difference(const Fit& a, const Fit& b, const KnowledgeBase& kb) {
  if (b.backend != a.backend)
    return b.v->accelerator == Accelerator::none ? "CPU only: leaves the GPU unused" : "other backend";
  if (b.gpu_rank != a.gpu_rank && b.gpu) return fmt::format("for {}, SM {}", gpu_label(*b.gpu), b.gpu->sm);
  if (b.match != a.match || b.sm_minor != a.sm_minor)
    return b.gpu ? fmt::format("SM {} code on an SM {} GPU", b.v->sm_set.empty() ? b.v->sm : sm_for(kb, *b.v, *b.gpu),
                               b.gpu->sm)
                 : "other SM";
  if (b.single != a.single)
    return b.single ? fmt::format("built for SM {} alone", b.v->sm)
                    : fmt::format("{}: one build for several GPUs, larger", set_label(*b.v));
  if (b.driver != a.driver && b.driver == DriverFit::minor_compat)
    return fmt::format("CUDA {} through minor-version compatibility only", b.v->cuda);
  if (b.cuda() != a.cuda()) return fmt::format("CUDA {} instead of {}", b.v->cuda, a.v->cuda);
  const CpuIsa* isa = b.isa;
  if (isa && !isa->workload.empty() && isa->workload != "general")
    return fmt::format("for {} workloads", isa->workload);
  return fmt::format("ISA {}, less specific", b.v->isa);
}

}  // namespace

namespace {

// Why nothing runs: the platforms the matrix is built for, or the closest candidate's problems.
void explain_nothing_runs(const HostFacts& h, const std::vector<Fit>& fits, const Selection& s, Recommendation& r) {
  std::set<std::string> platforms;
  for (const auto& f : fits) platforms.insert(f.v->platform);
  std::string what = fmt::format("{} (python {})", s.package, s.python.empty() ? "-" : s.python);
  if (!platforms.count(h.platform)) {
    r.reasons.push_back(
        fmt::format("no {} variant of the matrix runs on this host: they are built for {}; this "
                    "host is {}",
                    what, join_names(platforms), h.platform));
    return;
  }
  // The closest candidate of this platform: fewest problems, then best rank.
  const Fit* closest = nullptr;
  for (const auto& f : fits)
    if (f.v->platform == h.platform && closer(f, closest)) closest = &f;
  r.reasons.push_back(fmt::format("no {} variant of the matrix runs on this host; the closest, {}: {}", what,
                                  closest->v->name, fmt::join(problem_texts(*closest, h), "; ")));
}

// A CPU variant chosen: whether a GPU is left unused, and why.
void explain_cpu_choice(const HostFacts& h, const std::vector<Fit>& fits, const std::vector<const GpuInfo*>& gpus,
                        Recommendation& r) {
  if (gpus.empty()) {
    r.reasons.push_back(fmt::format("GPU: no NVIDIA GPU found ({}); a CPU-only variant", h.gpu.source));
    return;
  }
  const Fit* cuda = nullptr;
  for (const auto& f : fits)
    if (f.v->accelerator == Accelerator::cuda && f.v->platform == h.platform && closer(f, cuda)) cuda = &f;
  std::string why = cuda ? fmt::format("the closest, {}: {}", cuda->v->name, fmt::join(problem_texts(*cuda, h), "; "))
                         : std::string("the matrix has no CUDA variant for this platform");
  r.reasons.push_back(fmt::format("GPU: no CUDA variant runs on {} (SM {}, driver {}): {}; a CPU-only variant",
                                  gpu_label(*gpus.front()), gpus.front()->sm, driver_label(h), why));
  r.warnings.push_back(fmt::format("the NVIDIA GPU{} will not be used", gpus.size() == 1 ? "" : "s"));
}

void explain_other_gpus(const KnowledgeBase& kb, const Variant& v, const std::vector<const GpuInfo*>& gpus,
                        Recommendation& r);

// The SM the CUDA variant is built for, against the GPU it was chosen for and the others.
void explain_sm(const HostFacts& h, const KnowledgeBase& kb, const Fit& best, const std::vector<const GpuInfo*>& gpus,
                Recommendation& r) {
  const Variant& v = *best.v;
  const GpuInfo& g = *best.gpu;
  if (!v.sm_set.empty()) {  // a set chosen: no single-SM build fits better
    std::string sm = sm_for(kb, v, g);
    r.reasons.push_back(fmt::format(
        "GPU: {} is SM {} ({}); no {} build of the matrix runs here, and {} carries {} code, which runs on it{}",
        gpu_label(g), g.sm, h.gpu.source, sm_token(g.sm), set_label(v), sm_token(sm),
        best.match == SmMatch::exact ? "" : " (same major, lower minor)"));
    explain_other_gpus(kb, v, gpus, r);
    return;
  }
  if (best.match == SmMatch::exact) {
    r.reasons.push_back(fmt::format("GPU: {} is SM {} ({}); {} variants are built for exactly this SM", gpu_label(g),
                                    g.sm, h.gpu.source, sm_token(v.sm)));
  } else {
    r.reasons.push_back(fmt::format(
        "GPU: {} is SM {} ({}); the matrix has no {} build, and {} code runs on it (same major, lower minor)",
        gpu_label(g), g.sm, h.gpu.source, sm_token(g.sm), sm_token(v.sm)));
    r.warnings.push_back(fmt::format(
        "{} code on an SM {} GPU: it runs, but without kernels compiled for SM {}; a {} build would be faster",
        sm_token(v.sm), g.sm, g.sm, sm_token(g.sm)));
  }
  explain_other_gpus(kb, v, gpus, r);
}

// On a host of several GPU architectures: which GPUs the chosen variant cannot use.
void explain_other_gpus(const KnowledgeBase& kb, const Variant& v, const std::vector<const GpuInfo*>& gpus,
                        Recommendation& r) {
  std::vector<std::string> sms;  // newest first
  for (const GpuInfo* x : gpus)
    if (std::find(sms.begin(), sms.end(), x->sm) == sms.end()) sms.push_back(x->sm);
  if (sms.size() <= 1) return;
  std::vector<std::string> left_out;
  for (const GpuInfo* x : gpus)
    if (sm_match(kb, sm_for(kb, v, *x), x->sm) == SmMatch::none)
      left_out.push_back(x->name.empty() ? fmt::format("GPU {} (SM {})", x->index, x->sm)
                                         : fmt::format("GPU {} ({}, SM {})", x->index, x->name, x->sm));
  std::string note = fmt::format("GPUs of several architectures (SM {}): chose for the newest that a variant fits",
                                 fmt::join(sms, ", SM "));
  if (!left_out.empty())
    note += fmt::format("; {} cannot run {} code", fmt::join(left_out, ", "),
                        v.sm_set.empty() ? sm_token(v.sm) : set_label(v));
  r.warnings.push_back(note);
}

// The CUDA toolkit against the driver, naming newer toolkits the driver rules out.
void explain_cuda(const HostFacts& h, const Fit& best, const std::vector<Fit>& fits, Recommendation& r) {
  const Variant& v = *best.v;
  const CudaToolkit* ck = best.toolkit;
  std::vector<std::string> newer;
  std::set<std::string> seen;
  for (const auto& f : fits)
    if (f.v->accelerator == Accelerator::cuda && f.v->sm == v.sm && f.cuda() > best.cuda() &&
        seen.insert(f.v->cuda).second)
      if (const CudaToolkit* nk = f.toolkit)
        newer.push_back(fmt::format("CUDA {} needs {}", nk->version.str(), nk->lowest_driver()->str()));
  std::string newer_note = newer.empty() ? "" : fmt::format(" ({})", fmt::join(newer, "; "));
  if (best.arch && best.arch->preview)
    r.warnings.push_back(fmt::format("{} ({}) support is a developer preview, not for production ({})",
                                     best.arch->family, best.arch->display(), best.arch->driver_source));
  if (best.driver == DriverFit::full) {
    r.reasons.push_back(fmt::format("CUDA {}: driver {} meets {}, NVIDIA's minimum driver for CUDA {}{}", v.cuda,
                                    h.gpu.driver, ck->min_driver->str(), v.cuda, newer_note));
  } else if (best.driver == DriverFit::minor_compat) {
    r.reasons.push_back(fmt::format(
        "CUDA {}: through minor-version compatibility only: driver {} is older than {}, NVIDIA's minimum for CUDA "
        "{}, but not older than {}{}",
        v.cuda, h.gpu.driver, ck->min_driver_text(), v.cuda, ck->minor_compat_driver->str(), newer_note));
    r.warnings.push_back(
        ck->min_driver
            ? fmt::format("CUDA {} runs on driver {} only through minor-version compatibility (no JIT of newer PTX); "
                          "upgrade the NVIDIA driver to {} or newer",
                          v.cuda, h.gpu.driver, ck->min_driver->str())
            : fmt::format("CUDA {} runs on driver {} only through minor-version compatibility (no JIT of newer PTX); "
                          "the driver CUDA {} GA needs is not recorded",
                          v.cuda, h.gpu.driver, v.cuda));
  } else {
    r.reasons.push_back(fmt::format("CUDA {}: the newest toolkit offered for {} (driver version unknown)", v.cuda,
                                    v.sm_set.empty() ? sm_token(v.sm) : set_label(v)));
    r.warnings.push_back(fmt::format(
        "driver version unknown: CUDA {} needs NVIDIA driver {} or newer{}", v.cuda, ck->min_driver_text(),
        ck->minor_compat_driver ? fmt::format(" ({} with minor-version compatibility)", ck->minor_compat_driver->str())
                                : std::string()));
  }
}

// A package that ships \a s's package prebuilt (packages.toml prebuilt_of), and
// the selection \a s makes for it (any version of it).
using Prebuilt = std::pair<const PackageDef*, Selection>;

std::vector<Prebuilt> prebuilts_of(const Selection& s, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<Prebuilt> out;
  for (const auto& p : kb.packages) {
    if (p.prebuilt_of != s.package) continue;
    Selection prebuilt;
    prebuilt.package = p.name;
    prebuilt.python = s.python;
    prebuilt.reasons = s.reasons;
    prebuilt.choose(m, kb);
    out.emplace_back(&p, std::move(prebuilt));
  }
  return out;
}

// Alternatives: what the other workloads would get, then the runners-up.
void list_alternatives(const HostFacts& h, const KnowledgeBase& kb, const RecommendRequest& req,
                       const std::vector<Prebuilt>& prebuilts, const Fit& best, const std::vector<Fit>& fits,
                       Recommendation& r) {
  std::set<std::string> listed = {best.v->name};
  for (Workload w : {Workload::general, Workload::bf16_training, Workload::int8_inference}) {
    if (w == req.workload) continue;
    const Fit* ob = best_runnable_for(fits, w);
    if (ob && listed.insert(ob->v->name).second)
      r.alternatives.push_back({ob->v->name, fmt::format("for {} workloads", workload_name(w))});
  }
  // The same software prebuilt (packages.toml prebuilt_of): ready in minutes, at the cost its tradeoff names.
  for (const auto& [p, prebuilt] : prebuilts) {
    auto prebuilt_fits = evaluate_chosen(h, kb, req.workload, prebuilt);
    if (const Fit* pb = best_runnable_for(prebuilt_fits, req.workload); pb && listed.insert(pb->v->name).second)
      r.alternatives.push_back({pb->v->name, p->tradeoff.empty() ? p->display : p->tradeoff});
  }
  // The most portable build (a baseline ISA, data: no flags) of the same kind, where the pick is not one.
  if (best.isa && !best.isa->baseline())
    for (const auto& f : fits) {
      const CpuIsa* other = f.isa;
      if (!f.runs() || !other || !other->baseline() || f.v->backend != best.v->backend || f.v->cuda != best.v->cuda ||
          f.gpu != best.gpu)
        continue;
      if (listed.insert(f.v->name).second)
        r.alternatives.push_back(
            {f.v->name, fmt::format("the most portable: {}, no CPU ISA targeting (runs on any {} CPU)", other->display,
                                    other->arch_display())});
      break;
    }
  for (const auto& f : fits) {
    if (r.alternatives.size() >= 4) break;
    if (!f.runs() || !listed.insert(f.v->name).second) continue;
    r.alternatives.push_back({f.v->name, difference(best, f, kb)});
  }
}

}  // namespace

// What recommend settles before it looks at a host.
struct Recommender::Plan {
  const Matrix& m;
  const KnowledgeBase& kb;
  RecommendRequest req;
  std::optional<Selection> selection;  ///< none: the matrix has no variants
  std::vector<Prebuilt> prebuilts;     ///< the selection's package prebuilt
};

Recommender::Recommender(const Matrix& m, const KnowledgeBase& kb, RecommendRequest req)
    : plan_(std::make_unique<Plan>(Plan{m, kb, std::move(req), std::nullopt, {}})) {
  if (m.variants.empty()) return;
  plan_->selection = select(m, plan_->req, kb);
  plan_->prebuilts = prebuilts_of(*plan_->selection, m, kb);
}

Recommender::~Recommender() = default;

Recommendation Recommender::recommend(const HostFacts& h) const {
  const KnowledgeBase& kb = plan_->kb;
  const RecommendRequest& req = plan_->req;
  Recommendation r;
  if (!plan_->selection) {
    r.reasons.push_back("the matrix has no variants");
    return r;
  }
  const Selection* s = &*plan_->selection;
  const std::vector<Prebuilt>* prebuilts = &plan_->prebuilts;
  std::vector<Fit> fits = evaluate_all(h, kb, req.workload, *s);
  const Fit* best = best_runnable(fits);
  // Nothing built from source runs here: the same software prebuilt may (packages.toml prebuilt_of).
  Selection switched;
  std::vector<Prebuilt> switched_prebuilts;
  for (const auto& [p, prebuilt] : plan_->prebuilts) {
    if (best || !req.package.empty()) break;
    std::vector<Fit> prebuilt_fits = evaluate_all(h, kb, req.workload, prebuilt);
    if (!best_runnable(prebuilt_fits)) continue;
    switched = prebuilt;
    switched.reasons.push_back(fmt::format("package {}: no {} variant of the matrix runs here; {} does ({})", p->name,
                                           s->package, p->display, p->tradeoff.empty() ? "prebuilt" : p->tradeoff));
    switched_prebuilts = prebuilts_of(switched, plan_->m, kb);
    s = &switched;
    prebuilts = &switched_prebuilts;
    fits = std::move(prebuilt_fits);
    best = best_runnable(fits);
  }
  if (!best) {
    explain_nothing_runs(h, fits, *s, r);
    return r;
  }
  r.variant = best->v;
  const Variant& v = *best->v;
  r.reasons.push_back(fmt::format("platform {}: {} CPU ({}), {}", h.platform, h.cpu.arch, h.cpu.source, name_of(h.os)));
  for (const auto& x : s->reasons) r.reasons.push_back(x);
  auto gpus = newest_first(h);
  switch (v.accelerator) {
    case Accelerator::metal:
      r.reasons.push_back("GPU: macOS on Apple silicon; the MPS variant uses the Apple GPU through Metal");
      break;
    case Accelerator::none: explain_cpu_choice(h, fits, gpus, r); break;
    case Accelerator::cuda:
      explain_sm(h, kb, *best, gpus, r);
      explain_cuda(h, *best, fits, r);
      break;
  }
  if (!v.isa.empty()) r.reasons.push_back(isa_reason(*best, h, kb, req.workload, fits));
  list_alternatives(h, kb, req, *prebuilts, *best, fits, r);
  return r;
}

Recommendation recommend(const HostFacts& h, const Matrix& m, const KnowledgeBase& kb, const RecommendRequest& req) {
  return Recommender(m, kb, req).recommend(h);
}

std::vector<std::string> why_not_recommended(std::string_view name, const HostFacts& h, const Matrix& m,
                                             const KnowledgeBase& kb, const RecommendRequest& req) {
  const Variant* v = m.find(name);
  if (!v) {
    std::vector<std::string> names;
    for (const auto& x : m.variants) names.push_back(x.name);
    Diagnostic d;
    d.message = fmt::format("{} is not in the matrix", name);
    d.hint = did_you_mean(name, names);
    if (d.hint.empty()) d.hint = fmt::format("'tailor explain --why-not {}' says why", name);
    throw DiagnosticError(std::move(d));
  }
  std::vector<std::string> lines;
  HostView view(h, kb);
  Fit f = evaluate(Candidate(*v, kb), view, req.workload);
  if (!f.runs()) {
    lines.push_back(fmt::format("{} cannot run on this host:", name));
    for (const auto& p : problem_texts(f, h)) lines.push_back("  " + p);
    return lines;
  }
  Recommendation r = recommend(h, m, kb, req);
  if (r.variant == v) {
    lines.push_back(fmt::format("{} is the recommended variant for this host", name));
    return lines;
  }
  Selection s = select(m, req, kb);
  if (!s.chosen(*v)) {
    Selection its = s;
    its.package = v->package;
    std::string version = its.version_built(*v);
    bool other_version = !s.version.empty() && !version.empty() && (v->package != s.package || version != s.version);
    lines.push_back(
        fmt::format("{} runs on this host, but the recommendation is for {}{} (python {}); use --package "
                    "{}{} --python {}",
                    name, s.package, other_version ? " " + s.version : "", s.python, v->package,
                    other_version ? " --version " + version : "", v->python));
    return lines;
  }
  std::vector<Fit> fits = evaluate_all(h, kb, req.workload, s);
  const Fit* best = best_runnable(fits);
  lines.push_back(fmt::format("{} runs on this host, but {} fits better: {} is {}", name, best->v->name, name,
                              difference(*best, f, kb)));
  return lines;
}

}  // namespace tailor
