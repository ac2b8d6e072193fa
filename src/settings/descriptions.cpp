#include "settings/descriptions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {

std::string package_display(Package p) {
  switch (p) {
    case Package::pytorch: return "PyTorch";
    case Package::torchvision: return "torchvision";
    case Package::torchaudio: return "torchaudio";
    case Package::vllm: return "vLLM";
    case Package::magma: return "MAGMA";
  }
  return "PyTorch";
}

// "H100/H200/GH200": the first three products, as the flox/build-pytorch recipe descriptions do.
std::string products_short(const GpuArch& g) {
  std::vector<std::string> p(g.products.begin(), g.products.begin() + std::min<size_t>(3, g.products.size()));
  return fmt::format("{}", fmt::join(p, "/"));
}

std::string what(const BuildSettings& s) {
  const Variant& v = s.variant;
  std::string name = package_display(v.package);
  if (v.package == Package::vllm && !v.vllm.empty()) return name + " " + v.vllm;
  if (v.package == Package::pytorch && !s.torch_version.empty()) return name + " " + s.torch_version;
  return name;
}

}  // namespace

void describe(BuildSettings& s, const KnowledgeBase& kb) {
  const Variant& v = s.variant;
  const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa);
  std::string torch_note =
      v.package == Package::pytorch || v.package == Package::magma ? "" : fmt::format(", PyTorch {}", s.torch_version);
  std::vector<std::string> lines;

  switch (v.backend) {
    case Backend::cuda: {
      const GpuArch& g = *kb.gpu(v.sm);
      const DriverRequirement& d = *s.driver;
      if (v.package == Package::vllm)
        s.description = fmt::format("{} for NVIDIA {} ({}) [CUDA {}, custom PyTorch {} {}]", what(s), products_short(g),
                                    g.display(), v.cuda, s.torch_version, isa->display);
      else
        s.description = fmt::format("{} for NVIDIA {} ({}, {}) + {} [CUDA {}{}]", what(s), products_short(g), g.display(),
                                    g.family, isa->display, v.cuda, torch_note);
      s.header_comment = {
          fmt::format("{} for NVIDIA {} ({}: {}) — {}", what(s), g.family, g.display(), fmt::join(g.products, ", "),
                      isa->display),
          fmt::format("CUDA {} — Requires NVIDIA driver {}+", v.cuda, d.min_driver),
          v.package == Package::vllm
              ? fmt::format("Custom PyTorch {} built from source ({} + {})", s.torch_version, g.display(), isa->display)
              : fmt::format("nixpkgs {} — gpuTargets and cudaCapabilities = [ \"{}\" ]", s.pin_short, v.sm)};
      lines = {fmt::format("GPU: NVIDIA {} architecture ({}, compute capability {}) - {}", g.family, g.display(), g.sm,
                           fmt::join(g.products, ", ")),
               fmt::format("CPU: {} with {} (needs {})", isa->arch_display(), isa->display,
                           fmt::join(isa->requires_features, ", ")),
               fmt::format("CUDA: {} ({})", v.cuda, s.cuda_packages),
               fmt::format("Driver: NVIDIA {} or newer", d.min_driver)};
      break;
    }
    case Backend::cpu:
      s.description = fmt::format("{} CPU-only for {} with {}{}", what(s), isa->arch_display(), isa->display,
                                  torch_note.empty() ? "" : " [" + torch_note.substr(2) + "]");
      s.header_comment = {fmt::format("{} CPU-only — {} ({})", what(s), isa->display, isa->arch_display()),
                          "No GPU: CUDA inputs filtered out; BLAS: OpenBLAS",
                          fmt::format("nixpkgs {} — {}", s.pin_short, s.python_packages)};
      lines = {fmt::format("CPU: {} with {} (needs {})", isa->arch_display(), isa->display,
                           fmt::join(isa->requires_features, ", ")),
               "GPU: none (CPU-only)"};
      break;
    case Backend::mps:
      s.description = fmt::format("{} for Apple Silicon (Metal Performance Shaders){}", what(s),
                                  torch_note.empty() ? "" : " [" + torch_note.substr(2) + "]");
      s.header_comment = {fmt::format("{} for Apple Silicon — Metal Performance Shaders", what(s)),
                          "aarch64-darwin, macOS 12.3+; BLAS: Accelerate (vecLib)",
                          fmt::format("nixpkgs {} — upstream {} expression reused", s.pin_short, s.python_packages)};
      lines = {"GPU: Apple Silicon (M1 and newer) through Metal Performance Shaders", "Requires macOS 12.3 or newer"};
      break;
  }
  if (!v.python.empty()) lines.push_back("Python: " + v.python);
  if (!s.torch_version.empty() && v.package != Package::pytorch) lines.push_back("PyTorch: " + s.torch_version);
  for (const auto& d : s.disabled) lines.push_back(fmt::format("Disabled: {} ({})", d.feature, d.reason));
  s.long_description = fmt::format("{} build with targeted optimizations:\n", package_display(v.package));
  for (const auto& l : lines) s.long_description += "- " + l + "\n";
}

}  // namespace tailor
