// TLR016 cudnn-not-disabled, TLR017 avx-disables-missing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

bool is_off(const std::string& v) {
  return v == "0" || v == "OFF" || v == "off" || v == "FALSE" || v == "false" || v == "NO";
}

bool disabled(const NixFile& f, const std::string& feature) {
  for (const auto& e : f.facts.env)
    if (e.key == "USE_" + feature && is_off(e.text)) return true;
  return false;
}

const NixpkgsPin* file_pin(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7))) return pin;
  return nullptr;
}

/// Where to point for a missing setting: gpuTargets, else the CPU flags, else the name.
nix::Span anchor(const NixFile& f, bool gpu) {
  if (gpu && f.facts.has_gpu_targets) return f.facts.gpu_targets_span;
  if (gpu && !f.facts.cuda_capabilities.empty()) return f.facts.cuda_capabilities.front().span;
  if (!gpu && !f.facts.cpu_flags.empty()) return f.facts.cpu_flags.front().span;
  return name_span(f);
}

/// The fix of TLR016/TLR017: `export USE_X=0` lines, with a comment saying
/// why, added at the end of preConfigure (when its closing '' has a line of its own).
void add_exports(const NixFile& f, const std::vector<std::string>& exports, const std::string& why, Problem& p) {
  if (!f.facts.pre_configure_insert || why.find("''") != std::string::npos || why.find("${") != std::string::npos)
    return;
  const std::string& indent = f.facts.pre_configure_indent;
  std::string text = indent + "# " + why + "\n";
  for (const auto& e : exports) text += indent + "export " + e + "\n";
  p.fix.push_back({f.facts.pre_configure_insert, f.facts.pre_configure_insert, text, {}});
  p.fix_summary = fmt::format("added export {} to preConfigure", fmt::join(exports, " "));
}

}  // namespace

void check_workarounds(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.variant) continue;
    const Variant& v = *f.variant;
    // Feature switches reach the packages that compile them (pytorch recipes,
    // and vLLM's inline custom torch); companions inherit them from what they import.
    if (!compiles_feature_switches(*kb.package(v.package), kb)) continue;
    if (const GpuArch* gpu = v.sm.empty() ? nullptr : kb.gpu(v.sm)) {
      const NixpkgsPin* pin = file_pin(f, kb);
      bool pin_dropped = pin && pin->cudnn && gpu->cudnn_last && *gpu->cudnn_last < *pin->cudnn;
      bool unknown = gpu->cudnn_last && (!pin || !pin->cudnn);
      if ((pin_dropped || unknown) && !disabled(f, "CUDNN")) {
        std::string why = pin_dropped
                              ? fmt::format("cuDNN {} of pin {} no longer supports {} (last: cuDNN {})",
                                            pin->cudnn->str(), pin->short_rev, gpu->display(), gpu->cudnn_last->str())
                              : fmt::format("cuDNN after {} dropped {}, and the pin does not record its cuDNN",
                                            gpu->cudnn_last->str(), gpu->display());
        Problem& p = sink.add(
            f, "TLR016", anchor(f, true), fmt::format("{} builds without USE_CUDNN=0: {}", gpu->display(), why),
            "export USE_CUDNN=0 in preConfigure, as the flox/build-pytorch recipes do for SM61 and SM70");
        if (p.rule) add_exports(f, {"USE_CUDNN=0"}, fmt::format("{}: {}", gpu->display(), why), p);
      }
    }
    const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa);
    if (!isa || isa->disable.empty()) continue;
    std::vector<std::string> missing;
    for (const auto& feature : isa->disable)
      if (!disabled(f, feature)) missing.push_back(feature);
    if (missing.empty()) continue;
    std::vector<std::string> exports;
    for (const auto& m : missing) exports.push_back("USE_" + m + "=0");
    Problem& p =
        sink.add(f, "TLR017", anchor(f, false),
                 fmt::format("{} variant without {}: {}", isa->display, fmt::join(exports, " "), isa->disable_reason),
                 fmt::format("export {} in preConfigure", fmt::join(exports, " ")));
    if (p.rule) add_exports(f, exports, fmt::format("{}: {}", isa->display, isa->disable_reason), p);
  }
}

}  // namespace tailor::lint
