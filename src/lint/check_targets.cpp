// TLR009 sm-unsupported, TLR010 cuda-mismatch, TLR011 sm-mismatch,
// TLR012 platform-mismatch, TLR013 isa-flags-extra, TLR014 isa-flags-missing,
// TLR015 gpu-targets-only.
#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

/// "cudaPackages_12_8" -> "12.8".
std::string overlay_cuda(const std::string& attr) {
  if (!attr.starts_with("cudaPackages_")) return "";
  std::string rest = attr.substr(13);
  size_t u = rest.find('_');
  auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (u == std::string::npos || !digits(std::string_view(rest).substr(0, u)) || !digits(std::string_view(rest).substr(u + 1)))
    return "";
  return rest.substr(0, u) + "." + rest.substr(u + 1);
}

/// "sm_89", "89", "8.9", "9.0a", "8.9+PTX" -> "8.9"; empty if not an SM.
std::string normal_sm(std::string s) {
  if (s.size() > kMaxRegexName) return "";
  if (auto p = s.find("+PTX"); p != std::string::npos) s = s.substr(0, p);
  while (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back())) && s.find('.') != std::string::npos) s.pop_back();
  static const std::regex dotted(R"(\d+\.\d+)");
  if (std::regex_match(s, dotted)) return s;
  if (auto sm = sm_from_token(s)) return *sm;
  return "";
}

}  // namespace

std::string effective_cuda(const NixFile& f) {
  for (const auto& o : f.facts.cuda_overlays)
    if (auto c = overlay_cuda(o.text); !c.empty()) return c;
  return f.variant ? f.variant->cuda : "";
}

void check_targets(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.variant) continue;
    const Variant& v = *f.variant;
    const RecipeFacts& x = f.facts;
    const GpuArch* gpu = v.sm.empty() ? nullptr : kb.gpu(v.sm);

    // The overlay's toolkit vs the name, and vs the SM.
    const Fact* overlay = nullptr;
    for (const auto& o : x.cuda_overlays)
      if (!overlay_cuda(o.text).empty()) {
        overlay = &o;
        break;
      }
    if (overlay && !v.cuda.empty() && overlay_cuda(overlay->text) != v.cuda)
      sink.add(f, "TLR010", overlay->span,
               fmt::format("{} is CUDA {}, but the name says cuda{}", overlay->text, overlay_cuda(overlay->text),
                           fmt::format("{}", std::regex_replace(v.cuda, std::regex("\\."), "_"))),
               fmt::format("use cudaPackages_{}", std::regex_replace(v.cuda, std::regex("\\."), "_")));
    std::string cuda = effective_cuda(f);
    auto cuda_version = Version::parse(cuda);
    if (gpu && cuda_version && !gpu->supported_by(*cuda_version)) {
      std::string range = gpu->max_cuda ? fmt::format("CUDA {} to {}", gpu->min_cuda.str(), gpu->max_cuda->str())
                                        : fmt::format("CUDA {} or newer", gpu->min_cuda.str());
      nix::Span at = overlay ? overlay->span : name_span(f);
      sink.add(f, "TLR009", at,
               fmt::format("{} ({}) cannot be compiled by CUDA {}{}: nvcc supports it from {}", gpu->display(),
                           fmt::join(gpu->products, ", "), cuda, overlay ? " of " + overlay->text : "", range),
               "drop this variant or build it with a toolkit that supports the SM");
    }

    // gpuTargets / cudaCapabilities vs the name's SM.
    if (gpu) {
      for (const auto* list : {&x.gpu_targets, &x.cuda_capabilities})
        for (const auto& e : *list) {
          std::string sm = normal_sm(e.text);
          if (sm.empty() || sm == gpu->sm) continue;
          sink.add(f, "TLR011", e.span,
                   fmt::format("{} entry \"{}\" is SM {}, but the name says {}", e.key, e.text, sm, gpu->name_token()),
                   fmt::format("use \"{}\"", e.key == "gpuTargets" && e.text.starts_with("sm_")
                                                ? "sm_" + gpu->name_token().substr(2)
                                                : gpu->sm));
        }
      if (x.has_gpu_targets && !x.has_cuda_capabilities)
        sink.add(f, "TLR015", x.gpu_targets_span,
                 "gpuTargets without config.cudaCapabilities: only torch is built for this SM",
                 fmt::format("magma, torchvision, torchaudio and vLLM follow config.cudaCapabilities; import nixpkgs "
                             "with config.cudaCapabilities = [ \"{}\" ] as well",
                             gpu->sm));
    }

    // Platforms: the ISA's (or darwin's) platform, and the GPU's.
    if (!v.platform.empty()) {
      for (const auto& p : x.platforms) {
        if (p.text == v.platform || p.text.find('-') == std::string::npos) continue;
        std::string why = v.isa.empty() ? "an Apple Silicon (MPS) variant" : fmt::format("{} is an {} ISA", v.isa, v.platform);
        sink.add(f, "TLR012", p.span,
                 fmt::format("{} {} {}, but {}", p.key, p.key == "platforms" ? "lists" : "is", p.text, why),
                 fmt::format("use \"{}\"", v.platform));
      }
      if (gpu && std::find(gpu->platforms.begin(), gpu->platforms.end(), v.platform) == gpu->platforms.end())
        sink.add(f, "TLR012", name_span(f),
                 fmt::format("{} ({}) GPUs are not found in {} hosts, but the name's ISA {} is {}", gpu->display(),
                             fmt::join(gpu->products, ", "), v.platform, v.isa, v.platform),
                 fmt::format("{} runs on {}", gpu->display(), fmt::join(gpu->platforms, ", ")));
    }

    // CPU flags vs the name's ISA.
    const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa);
    if (!isa || x.cpu_flags.empty()) continue;
    auto promised = [&](const std::string& feature) {
      return std::find(isa->requires_features.begin(), isa->requires_features.end(), feature) !=
             isa->requires_features.end();
    };
    std::vector<std::string> seen;
    for (const auto& fl : x.cpu_flags) {
      seen.push_back(fl.text);
      if (std::find(isa->flags.begin(), isa->flags.end(), fl.text) != isa->flags.end()) continue;
      if (fl.text.starts_with("-mno-")) continue;
      auto known = kb.flag_features.find(fl.text);
      std::vector<std::string> beyond;
      if (known != kb.flag_features.end()) {
        for (const auto& feat : known->second)
          if (!promised(feat)) beyond.push_back(feat);
      } else if (fl.text.starts_with("-march=")) {
        beyond.push_back(fl.text.substr(7));
      }
      if (beyond.empty()) continue;
      sink.add(f, "TLR013", fl.span,
               fmt::format("{} makes the compiler use {}, which the {} ISA of the name does not promise", fl.text,
                           fmt::join(beyond, ", "), isa->name),
               fmt::format("{} CPUs lacking it die with SIGILL; {} uses {}", isa->display, isa->name,
                           fmt::join(isa->flags, " ")));
    }
    std::vector<std::string> missing;
    for (const auto& want : isa->flags)
      if (std::find(seen.begin(), seen.end(), want) == seen.end()) missing.push_back(want);
    if (!missing.empty())
      sink.add(f, "TLR014", x.cpu_flags.front().span,
               fmt::format("CPU flags lack {} of the {} ISA", fmt::join(missing, " "), isa->name),
               fmt::format("{} uses {}", isa->name, fmt::join(isa->flags, " ")));
  }
}

}  // namespace tailor::lint
