#include "matrix/rules.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {
bool listed(const std::vector<std::string>& v, std::string_view x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

// Every version condition holds: the variant asks for that version of that attribute.
bool requested_matches(const Workaround& w, const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  return std::all_of(w.requested.begin(), w.requested.end(),
                     [&](const auto& r) { return requested_for(v, spec, kb, r.first) == r.second; });
}

// Whether a source disputing the version of \a attribute on \a pin claims \a want.
bool claimed_by_dispute(const NixpkgsPin& pin, const std::string& attribute, const std::string& want) {
  const FactEvidence* d = pin.version_dispute(attribute);
  if (!d) return false;
  auto w = Version::parse(want);
  return std::any_of(d->claims.begin(), d->claims.end(), [&](const FactClaim& c) {
    auto v = Version::parse(c.value);
    return w && v && *w == *v;
  });
}

// A workaround that builds a version of what another repository's recipe
// builds for the variant does not apply: that repository builds it.
bool about_external(const Workaround& w, const Variant& v, const Spec& spec) {
  return std::any_of(w.requested.begin(), w.requested.end(),
                     [&](const auto& r) { return external_recipe_for(v, spec, r.first) != nullptr; }) ||
         (w.source_override && external_recipe_for(v, spec, w.source_override->attribute));
}

bool workaround_matches(const Workaround& w, const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  return listed(w.pins, v.pin) && requested_matches(w, v, spec, kb) && !about_external(w, v, spec) &&
         (w.cuda.empty() || (!v.cuda.empty() && listed(w.cuda, v.cuda))) && listed(w.packages, v.package);
}
}  // namespace

std::string requested_for(const Variant& v, const Spec& spec, const KnowledgeBase& kb, std::string_view attribute) {
  if (!v.version.empty() && kb.package(v.package)->attribute == attribute) return v.version;
  for (const auto& [attr, version] : v.paired)
    if (attr == attribute) return version;
  return spec.requested(attribute);
}

const PackageVersion* package_version(const Variant& v, const Spec& spec) {
  if (v.version_index < 0) return nullptr;
  const Family* f = spec.family(v.family);
  return f && static_cast<size_t>(v.version_index) < f->versions.size() ? &f->versions[v.version_index] : nullptr;
}

const ExternalRecipe* external_recipe_for(const Variant& v, const Spec& spec, std::string_view attribute) {
  if (const PackageVersion* pv = package_version(v, spec); pv && pv->external_for(attribute))
    return pv->external_for(attribute);  // a version's own recipe wins over its family's
  const Family* f = spec.family(v.family);
  return f ? f->external_for(attribute) : nullptr;
}

std::vector<const ExternalRecipe*> external_recipes_for(const Variant& v, const Spec& spec) {
  std::vector<const ExternalRecipe*> out;
  if (const PackageVersion* pv = package_version(v, spec))
    for (const auto& e : pv->external) out.push_back(&e);
  if (const Family* f = spec.family(v.family))
    for (const auto& e : f->external)
      if (external_recipe_for(v, spec, e.attribute) == &e) out.push_back(&e);
  return out;
}

const SourceOverride* source_override_for(const Variant& v, const Spec& spec, const KnowledgeBase& kb,
                                          std::string_view attribute) {
  if (external_recipe_for(v, spec, attribute)) return nullptr;  // another repository builds it, from its own source
  // A version's own source, on the pins that do not ship it: a pin that ships it needs none.
  if (const PackageVersion* pv = package_version(v, spec); pv && pv->source && pv->source->attribute == attribute) {
    // A disputed version may or may not be the one: building the source is right either way.
    const NixpkgsPin& pin = *kb.pin(v.pin);
    const Version* shipped = pin.version(attribute);
    if (!shipped || pin.version_dispute(attribute) || *shipped != *Version::parse(pv->version)) return &*pv->source;
  }
  if (const SourceOverride* o = spec.source_override(attribute, requested_for(v, spec, kb, attribute), v.pin)) return o;
  for (const Workaround* w : applicable_workarounds(v, spec, kb))
    if (w->source_override && w->source_override->attribute == attribute) return &*w->source_override;
  return nullptr;
}

std::vector<const PackageDef*> built_packages(const PackageDef& p, const KnowledgeBase& kb) {
  std::vector<const PackageDef*> out = {&p};
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& n : out[i]->needs) {
      const PackageDef* d = kb.package(n.package);
      if ((n.strategy == NeedStrategy::companion_of || n.strategy == NeedStrategy::python_set_substitution) &&
          std::find(out.begin(), out.end(), d) == out.end())
        out.push_back(d);
    }
  return out;
}

std::vector<std::pair<std::string, std::string>> built_versions(const Variant& v, const NixpkgsPin& pin,
                                                                const Spec& spec, const KnowledgeBase& kb) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const PackageDef* b : built_packages(*kb.package(v.package), kb)) {
    if (const SourceOverride* o = source_override_for(v, spec, kb, b->attribute)) {
      out.emplace_back(b->name, o->version);
      continue;
    }
    if (!b->version_in_pins) continue;
    std::string version = requested_for(v, spec, kb, b->attribute);
    // What another repository's recipe builds is that repository's: no pin tells it.
    if (version.empty() && pin.version(b->attribute) && !external_recipe_for(v, spec, b->attribute))
      version = pin.version(b->attribute)->str();
    if (!version.empty()) out.emplace_back(b->name, version);
  }
  return out;
}

std::vector<DisputedVersion> disputed_versions(const Variant& v, const NixpkgsPin& pin, const Spec& spec,
                                               const KnowledgeBase& kb) {
  std::vector<DisputedVersion> out;
  for (const PackageDef* b : built_packages(*kb.package(v.package), kb)) {
    if (!b->version_in_pins) continue;
    const FactEvidence* d = pin.version_dispute(b->attribute);
    if (!d || source_override_for(v, spec, kb, b->attribute) || external_recipe_for(v, spec, b->attribute)) continue;
    out.push_back({b, d, requested_for(v, spec, kb, b->attribute)});
  }
  return out;
}

std::vector<const Workaround*> applicable_workarounds(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<const Workaround*> out;
  for (const auto& w : kb.workarounds)
    if (workaround_matches(w, v, spec, kb)) out.push_back(&w);
  return out;
}

std::vector<RuleViolation> check_facts(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  CellFacts f{kb.pin(v.pin), v.sm.empty() || !v.sm_set.empty() ? nullptr : kb.gpu(v.sm),
              v.cuda.empty() ? nullptr : kb.cuda(v.cuda)};
  return check_facts(v, f, spec, kb);
}

std::vector<RuleViolation> check_facts(const Variant& v, const CellFacts& facts, const Spec& spec,
                                       const KnowledgeBase& kb) {
  std::vector<RuleViolation> out;
  const NixpkgsPin& pin = *facts.pin;

  if (!v.python.empty() && !pin.provides_python(v.python) && !spec.claim(pin.short_rev, "", v.python))
    out.push_back({"pin-lacks-python", fmt::format("nixpkgs pin {} provides Python {}, not {}", pin.short_rev,
                                                   fmt::join(pin.python, ", "), v.python)});

  if (kb.backend(v.backend)->gpu()) {
    const CudaToolkit& cuda = *facts.cuda;
    // One SM, or each SM of a set (expand reports a set's SM the toolkit cannot compile as an error).
    std::vector<const GpuArch*> gpus = {facts.gpu};
    if (!v.sm_set.empty()) {
      gpus.clear();
      for (const auto& sm : v.sm_set) gpus.push_back(kb.gpu(sm));
    }
    for (const GpuArch* g : gpus) {
      const GpuArch& gpu = *g;
      if (cuda.version < gpu.min_cuda)
        out.push_back(
            {"cuda-too-old-for-sm",
             fmt::format("SM {} ({}) needs CUDA {} or newer: nvcc {} cannot compile for sm_{}{}", gpu.sm, gpu.family,
                         gpu.min_cuda.str(), cuda.version.str(), gpu.capability.major(), gpu.capability.minor())});
      if (gpu.max_cuda && *gpu.max_cuda < cuda.version)
        out.push_back({"cuda-too-new-for-sm",
                       fmt::format("SM {} ({}) is supported up to CUDA {}: nvcc {} cannot compile for sm_{}{}", gpu.sm,
                                   gpu.family, gpu.max_cuda->str(), cuda.version.str(), gpu.capability.major(),
                                   gpu.capability.minor())});
    }
    // A set is for a platform when one of its GPUs sits in such hosts.
    bool on_platform =
        std::any_of(gpus.begin(), gpus.end(), [&](const GpuArch* g) { return listed(g->platforms, v.platform); });
    if (!on_platform) {
      const GpuArch& gpu = *gpus.front();
      out.push_back(
          {"sm-platform",
           v.sm_set.empty()
               ? fmt::format("SM {} ({}) GPUs sit in {} hosts only; ISA {} targets {}", gpu.sm,
                             fmt::join(gpu.products, "/"), fmt::join(gpu.platforms, ", "), v.isa, v.platform)
               : fmt::format("no GPU of SM set '{}' sits in {} hosts; ISA {} targets it", v.sm, v.platform, v.isa)});
    }
    // A pin's CUDA list is what teams build with there, not all it provides:
    // only a list measured complete rules a CUDA out (expand warns about the rest).
    if (!pin.provides_cuda(v.cuda) && pin.is_complete("cuda") && !spec.claim(pin.short_rev, v.cuda, ""))
      out.push_back({"pin-lacks-cuda", fmt::format("nixpkgs pin {} provides CUDA {}, not {}", pin.short_rev,
                                                   fmt::join(pin.cuda, ", "), v.cuda)});
  }

  // A prebuilt package is the wheel the pin repackages: its GPU code is built
  // with the wheel's CUDA (or there is none), whatever cudaPackages it links.
  if (const PackageDef* def = kb.package(v.package);
      def && def->gpu_target == GpuTargetStrategy::pruned_output && !v.cuda.empty()) {
    std::string wheel = pin.wheel_cuda_of(def->attribute, v.platform);
    if (wheel == "none")
      out.push_back({"prebuilt-without-gpu-code",
                     fmt::format("nixpkgs pin {} repackages the CPU-only {} wheel on {}: it has no GPU code to prune "
                                 "to SM {}",
                                 pin.short_rev, def->attribute, v.platform, v.sm)});
    else if (!wheel.empty() && wheel != v.cuda)
      out.push_back({"prebuilt-wheel-cuda",
                     fmt::format("nixpkgs pin {} repackages the CUDA {} {} wheel on {}: its GPU code is built with "
                                 "CUDA {}, not {}",
                                 pin.short_rev, wheel, def->attribute, v.platform, wheel, v.cuda)});
  }

  // Keeping the caches: what they hold is the pin's build with its default
  // cudaPackages (nixpkgs_pins.toml cuda_sets), and a copy keeps that toolkit.
  if (const PackageDef* def = kb.package(v.package);
      spec.build.keep_cache && def && def->cache != CacheRole::none && !v.cuda.empty()) {
    auto set = pin.cuda_sets.find("cudaPackages");
    if (set == pin.cuda_sets.end())
      out.push_back({"cached-cuda", fmt::format("nixpkgs pin {} records no CUDA for its default cudaPackages: which "
                                                "CUDA the caches' {} is built with is not known",
                                                pin.short_rev, def->attribute)});
    else if (set->second != v.cuda)
      out.push_back({"cached-cuda", fmt::format("the binary caches hold nixpkgs pin {}'s {} built with its default "
                                                "cudaPackages, CUDA {}, not {}",
                                                pin.short_rev, def->attribute, set->second, v.cuda)});
  }

  // Each built package whose version pins record must be what the pin ships,
  // or built from source by a source override.
  auto built = built_packages(*kb.package(v.package), kb);
  for (auto it = built.rbegin(); it != built.rend(); ++it) {  // what it builds against first
    const PackageDef* p = *it;
    // What another repository's recipe builds is that repository's: the spec states its version.
    if (!p->version_in_pins || source_override_for(v, spec, kb, p->attribute) ||
        external_recipe_for(v, spec, p->attribute))
      continue;
    const Version* shipped = pin.version(p->attribute);
    std::string want = requested_for(v, spec, kb, p->attribute);
    std::string rule = p->attribute + "-unavailable";
    if (!shipped)
      out.push_back({rule, fmt::format("nixpkgs pin {} ships no {}", pin.short_rev, p->display)});
    else if (!want.empty() && want != shipped->str() && *Version::parse(want) != *shipped &&
             !claimed_by_dispute(pin, p->attribute, want))  // one source says it ships it: a warning, no verdict
      out.push_back({rule, fmt::format("nixpkgs pin {} ships {} {}, and no workaround of the knowledge base builds {} "
                                       "{} on it",
                                       pin.short_rev, p->attribute, shipped->str(), p->attribute, want)});
  }
  return out;
}

}  // namespace tailor
