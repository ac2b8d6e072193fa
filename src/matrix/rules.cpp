#include "matrix/rules.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {
bool listed(const std::vector<std::string>& v, std::string_view x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

bool workaround_matches(const Workaround& w, const Variant& v, const Spec& spec) {
  return listed(w.pins, v.pin) && (w.torch.empty() || w.torch == spec.torch) &&
         (w.cuda.empty() || (!v.cuda.empty() && listed(w.cuda, v.cuda))) && listed(w.packages, package_name(v.package));
}
}  // namespace

std::vector<const Workaround*> applicable_workarounds(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  std::vector<const Workaround*> out;
  for (const auto& w : kb.workarounds)
    if (workaround_matches(w, v, spec)) out.push_back(&w);
  return out;
}

std::vector<RuleViolation> check_facts(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  CellFacts f{kb.pin(v.pin), v.sm.empty() ? nullptr : kb.gpu(v.sm), v.cuda.empty() ? nullptr : kb.cuda(v.cuda)};
  return check_facts(v, f, spec, kb);
}

std::vector<RuleViolation> check_facts(const Variant& v, const CellFacts& facts, const Spec& spec,
                                       const KnowledgeBase& kb) {
  std::vector<RuleViolation> out;
  const NixpkgsPin& pin = *facts.pin;

  if (!v.python.empty() && !pin.provides_python(v.python))
    out.push_back({"pin-lacks-python", fmt::format("nixpkgs pin {} provides Python {}, not {}", pin.short_rev,
                                                   fmt::join(pin.python, ", "), v.python)});

  if (v.backend == Backend::cuda) {
    const GpuArch& gpu = *facts.gpu;
    const CudaToolkit& cuda = *facts.cuda;
    if (cuda.version < gpu.min_cuda)
      out.push_back({"cuda-too-old-for-sm",
                     fmt::format("SM {} ({}) needs CUDA {} or newer: nvcc {} cannot compile for sm_{}{}", gpu.sm,
                                 gpu.family, gpu.min_cuda.str(), cuda.version.str(), gpu.capability.major(),
                                 gpu.capability.minor())});
    if (gpu.max_cuda && *gpu.max_cuda < cuda.version)
      out.push_back({"cuda-too-new-for-sm",
                     fmt::format("SM {} ({}) is supported up to CUDA {}: nvcc {} cannot compile for sm_{}{}", gpu.sm,
                                 gpu.family, gpu.max_cuda->str(), cuda.version.str(), gpu.capability.major(),
                                 gpu.capability.minor())});
    if (!listed(gpu.platforms, v.platform))
      out.push_back({"sm-platform", fmt::format("SM {} ({}) GPUs sit in {} hosts only; ISA {} targets {}", gpu.sm,
                                                fmt::join(gpu.products, "/"), fmt::join(gpu.platforms, ", "), v.isa,
                                                v.platform)});
    if (!pin.provides_cuda(v.cuda))
      out.push_back({"pin-lacks-cuda", fmt::format("nixpkgs pin {} provides CUDA {}, not {}", pin.short_rev,
                                                   fmt::join(pin.cuda, ", "), v.cuda)});
  }

  if (v.package != Package::magma && !spec.torch.empty() && spec.torch != pin.torch.str() &&
      *Version::parse(spec.torch) != pin.torch) {
    auto ws = applicable_workarounds(v, spec, kb);
    bool builds = std::any_of(ws.begin(), ws.end(), [](const Workaround* w) { return w->torch_source.has_value(); });
    if (!builds)
      out.push_back({"torch-unavailable", fmt::format("nixpkgs pin {} ships torch {}, and no workaround of the "
                                                      "knowledge base builds torch {} on it",
                                                      pin.short_rev, pin.torch.str(), spec.torch)});
  }

  if (v.package == Package::vllm) {
    if (!pin.vllm)
      out.push_back({"vllm-unavailable", fmt::format("nixpkgs pin {} ships no vLLM", pin.short_rev)});
    else if (!spec.vllm.empty() && *Version::parse(spec.vllm) != *pin.vllm)
      out.push_back({"vllm-unavailable",
                     fmt::format("nixpkgs pin {} ships vLLM {}, not {}", pin.short_rev, pin.vllm->str(), spec.vllm)});
  }
  return out;
}

}  // namespace tailor
