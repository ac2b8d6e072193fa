#include "settings/build_settings.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/rules.hpp"
#include "settings/descriptions.hpp"

namespace tailor {

namespace {

std::string nix_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& i : items) out += " \"" + i + "\"";
  return out + " ]";
}

class Deriver {
 public:
  Deriver(const Variant& v, const Spec& spec, const Matrix& m, const KnowledgeBase& kb)
      : v_(v), spec_(spec), matrix_(m), kb_(kb), pin_(*kb.pin(v.pin)) {
    s_.variant = v;
  }

  BuildSettings run() {
    identity();
    nixpkgs();
    if (v_.backend == Backend::cuda) cuda();
    if (v_.backend == Backend::cpu) cpu_only();
    if (v_.backend == Backend::mps) mps();
    if (!v_.isa.empty()) isa();
    workarounds();
    build_policy();
    describe(s_, kb_);
    note("meta", "description", s_.description, "built from the knowledge base's product and architecture names");
    return std::move(s_);
  }

 private:
  void note(std::string group, std::string key, std::string value, std::string because) {
    s_.trail.push_back({std::move(group), std::move(key), std::move(value), std::move(because)});
  }
  void arg(std::string name, std::string value, std::string because) {
    note("override", name, value, std::move(because));
    s_.override_args.emplace_back(std::move(name), std::move(value));
  }
  // An argument the recipe passes to .override as written (a Nix literal).
  void literal_arg(std::string name, std::string value, std::string because) {
    s_.recipe_override.emplace_back(name, value);
    arg(std::move(name), std::move(value), std::move(because));
  }
  void env(std::string name, std::string value, std::string because) {
    note("environment", name, value, std::move(because));
    s_.env.emplace_back(std::move(name), std::move(value));
  }
  void disable(std::string feature, std::string reason) {
    note("disabled", feature, "off", reason);
    s_.disabled.push_back({std::move(feature), std::move(reason)});
  }

  void identity() {
    s_.pname = v_.name;
    note("variant", "name", v_.name, fmt::format("family '{}' of {}", v_.family, spec_.path));
    note("variant", "package", std::string(package_name(v_.package)), "spec family");
    if (!v_.torch.empty()) {
      s_.torch_version = v_.torch;
      note("variant", "torch", v_.torch,
           spec_.torch.empty() ? fmt::format("what nixpkgs pin {} ships", pin_.short_rev)
                               : fmt::format("[branch] torch = \"{}\"", spec_.torch));
    }
    s_.platforms = {v_.platform};
    note("variant", "platform", v_.platform,
         v_.backend == Backend::mps ? std::string("MPS builds are Apple Silicon only")
                                    : fmt::format("ISA {} runs on {} (cpu_isas.toml)", v_.isa, v_.platform));
  }

  void nixpkgs() {
    s_.pin_rev = pin_.rev;
    s_.pin_short = pin_.short_rev;
    s_.pin_url = pin_.tarball_url();
    s_.pin_sha256 = pin_.sha256;
    note("nixpkgs", "rev", pin_.rev, fmt::format("pin {} (nixpkgs_pins.toml; {})", pin_.short_rev, pin_.source));
    note("nixpkgs", "sha256", pin_.sha256.empty() ? "(unknown)" : pin_.sha256,
         pin_.sha256.empty() ? "the pin table has no tarball hash for this revision: evaluation stays impure until one "
                               "is recorded in nixpkgs_pins.toml"
                             : "pure evaluation: the tarball is fetched by hash");
    if (v_.package != Package::magma) {
      s_.python_packages = kb_.python(v_.python)->packages_attr();
      s_.python_interpreter = kb_.python(v_.python)->name_token();
      note("nixpkgs", "python package set", s_.python_packages,
           fmt::format("the name says {}; an explicit set keeps torch and its companions on one derivation (not "
                       "python3Packages, which follows the pin's default)",
                       kb_.python(v_.python)->name_token()));
    }
  }

  void cuda() {
    const GpuArch& gpu = *kb_.gpu(v_.sm);
    const CudaToolkit& tk = *kb_.cuda(v_.cuda);
    s_.cuda_support = true;
    note("nixpkgs", "config.cudaSupport", "true", "CUDA variant");
    s_.cuda_capabilities = {v_.sm};
    note("nixpkgs", "config.cudaCapabilities", nix_list(s_.cuda_capabilities),
         "gpuTargets reaches torch only; magma, torchvision, torchaudio and vLLM follow config.cudaCapabilities "
         "(nixpkgs torch expression), so both are set");
    s_.cuda_packages = tk.nixpkgs_attr();
    note("nixpkgs", "overlay", "cudaPackages = " + tk.nixpkgs_attr(), fmt::format("CUDA {} toolkit", tk.version.str()));

    switch (v_.package) {
      case Package::pytorch:
        literal_arg("cudaSupport", "true", "nixpkgs torch defaults to cudaSupport = false; overrideAttrs alone builds CPU-only");
        literal_arg("gpuTargets", nix_list({v_.sm}),
            fmt::format("one SM: {} ({}, {})", gpu.display(), gpu.family, fmt::join(gpu.products, ", ")));
        magma();
        break;
      case Package::torchvision:
      case Package::torchaudio: companion(); break;
      case Package::vllm: {
        // The custom torch is the pytorch variant of the same cell, built inline;
        // its name tells CUDA versions (and SMs, ISAs) apart in store paths.
        Variant torch = v_;
        torch.package = Package::pytorch;
        s_.custom_torch_name = variant_name(torch, kb_);
        literal_arg("cudaSupport", "true", "the custom torch is a CUDA build");
        literal_arg("gpuTargets", nix_list({v_.sm}),
                    fmt::format("the custom torch targets one SM: {} ({})", gpu.display(), gpu.family));
        arg("torch", s_.custom_torch_name,
            "packageOverrides swaps torch for the whole Python set, so vLLM, xformers, flashinfer, torchvision, "
            "torchaudio and bitsandbytes share one torch (flox/build-vllm)");
        std::string bnb = fmt::format("-DCOMPUTE_CAPABILITY={}{}", gpu.capability.major(), gpu.capability.minor());
        s_.bitsandbytes_cmake_flags = {bnb};
        note("override", "bitsandbytes cmakeFlags", bnb,
             "bitsandbytes built for one SM: CCCL 2.8.2's preprocessor bug breaks the 19-SM default (flox/build-vllm)");
        break;
      }
      case Package::magma:
        literal_arg("cudaSupport", "true", "MAGMA for CUDA");
        literal_arg("static", "true", "dynamic CUDA magma is marked broken in nixpkgs; torch links it statically (the nixpkgs magma package)");
        for (std::string flag : {fmt::format("-DCMAKE_CUDA_ARCHITECTURES={}{}", gpu.capability.major(), gpu.capability.minor()),
                                 fmt::format("-DMIN_ARCH={}{}0", gpu.capability.major(), gpu.capability.minor())}) {
          s_.cmake_flags.push_back(flag);
          note("cmake", flag, "", "MAGMA compiled for this SM alone (Flox's GPU-optimized PyTorch guide); matches config.cudaCapabilities");
        }
        break;
    }

    if (v_.package == Package::pytorch || v_.package == Package::vllm) {
      const auto& cudnn = pin_.cudnn;
      if (gpu.cudnn_last && (!cudnn || *gpu.cudnn_last < *cudnn)) {
        std::string why = cudnn ? fmt::format("cuDNN {} on pin {} no longer supports SM {} (last: cuDNN {})",
                                              cudnn->str(), pin_.short_rev, gpu.sm, gpu.cudnn_last->str())
                                : fmt::format("pin {} does not record its cuDNN version, and cuDNN after {} dropped "
                                              "SM {}: disabled to be safe",
                                              pin_.short_rev, gpu.cudnn_last->str(), gpu.sm);
        env("USE_CUDNN", "0", why);
        disable("CUDNN", why);
      }
      s_.required_system_features = {"big-parallel"};
      note("build", "requiredSystemFeatures", "[ \"big-parallel\" ]",
           "routes the build to builders that advertise big-parallel");
      if (spec_.build.strip_toolchain) {
        s_.strip_toolchain = true;
        note("build", "strip toolchain", "disallowedReferences + remove-references-to on out and lib",
             "gcc/binutils references in torch/_inductor/config.py and the profiler drag ~750 MiB into the closure "
             "(Flox's GPU-optimized PyTorch guide)");
      }
    }
    if (spec_.build.compress_fatbin) {
      s_.nvcc_flags = {"-Xfatbin", "-compress-all"};
      note("compiler", "NVCC_APPEND_FLAGS", "-Xfatbin -compress-all",
           "keeps fatbins small (PyTorch measured 1.08 GB -> 694 MB for a CUDA 12.9 wheel)");
    }
    s_.blas_provider = "cublas";
    note("meta", "blasProvider", "cublas", "GPU linear algebra through cuBLAS");
    DriverRequirement d{tk.version.str(), tk.min_driver.str(),
                        tk.minor_compat_driver ? tk.minor_compat_driver->str() : std::string()};
    s_.driver = d;
    note("driver", "minimum", d.min_driver + "+",
         fmt::format("NVIDIA: CUDA {} GA needs driver {} ({})", d.cuda, d.min_driver, tk.source) +
             (d.minor_compat_driver.empty()
                  ? std::string()
                  : fmt::format("; minor-version compatibility runs it on {}+ without PTX JIT of newer PTX",
                                d.minor_compat_driver)));
  }

  void magma() {
    for (const auto& m : matrix_.variants) {
      if (m.package == Package::magma && m.cuda == v_.cuda && m.sm == v_.sm && m.isa == v_.isa && m.pin == v_.pin) {
        s_.magma_variant = m.name;
        arg("effectiveMagma", m.name, "the matrix builds MAGMA for this SM alone");
        return;
      }
    }
  }

  void companion() {
    Variant torch = v_;
    torch.package = Package::pytorch;
    s_.torch_variant = variant_name(torch, kb_);
    arg("torch", s_.torch_variant, "built against the matching custom torch; the derivation is shared, not rebuilt");
  }

  void cpu_only() {
    if (v_.package == Package::pytorch) literal_arg("cudaSupport", "false", "CPU-only variant");
    note("override", "buildInputs", "CUDA inputs filtered out", "CPU-only: no CUDA libraries in the closure");
    s_.blas_provider = "openblas";
    note("meta", "blasProvider", "openblas", "CPU builds use OpenBLAS (flox/build-pytorch README)");
  }

  void mps() {
    note("override", "expression", "upstream torch, unchanged",
         "nixpkgs enables USE_MPS on Darwin when CUDA and ROCm are off: reuse it (the nixpkgs torch package)");
    s_.blas_provider = "accelerate";
    note("meta", "blasProvider", "accelerate", "vecLib (Apple Accelerate) on Darwin");
  }

  void isa() {
    const CpuIsa& isa = *kb_.isa(v_.isa);
    s_.cpu_flags = isa.flags;
    note("compiler", "CFLAGS/CXXFLAGS", fmt::format("{}", fmt::join(isa.flags, " ")),
         fmt::format("ISA {} ({}): needs CPU features {}", isa.name, isa.display, fmt::join(isa.requires_features, ", ")));
    bool builds_torch = v_.package == Package::pytorch || v_.package == Package::vllm;
    if (!builds_torch) return;
    for (const auto& f : isa.disable) {
      env("USE_" + f, "0", isa.disable_reason);
      disable(f, isa.disable_reason);
    }
    for (const auto& var : isa.cmake_force_off) {
      std::string flag = "-D" + var + "=FALSE";
      s_.cmake_flags.push_back(flag);
      note("cmake", var, "FALSE", isa.cmake_force_off_reason);
    }
  }

  void workarounds() {
    for (const Workaround* w : applicable_workarounds(v_, spec_, kb_)) {
      s_.workarounds.push_back(*w);
      std::string because = fmt::format("workaround {}: {} ({})", w->id, w->summary, w->source);
      if (w->torch_source)
        note("workaround", "torch.src",
             fmt::format("fetchFromGitHub {}/{} {} ({})", w->torch_source->owner, w->torch_source->repo,
                         w->torch_source->rev, w->torch_source->hash),
             because);
      if (w->clear_patches) note("workaround", "patches", "[ ]", because);
      if (w->allow_broken) note("workaround", "config.allowBroken", "true", because);
      for (const auto& f : w->cmake_flags) {
        s_.cmake_flags.push_back(f);
        note("cmake", f, "", because);
      }
      for (const auto& e : w->env) {
        auto eq = e.find('=');
        env(e.substr(0, eq), e.substr(eq + 1), because);
      }
      if (!w->version_txt.empty()) note("workaround", "version.txt", w->version_txt, because);
      if (!w->cccl_include_links.empty())
        note("workaround", "CCCL include links", fmt::format("{}", fmt::join(w->cccl_include_links, ", ")), because);
      if (w->shim_find_cuda_toolkit) note("workaround", "cmake/Modules/FindCUDAToolkit.cmake", "CMake's own", because);
      for (const auto& p : w->magma_patches)
        note("workaround", "magma patch", fmt::format("{}/{}@{}", p.owner, p.repo, p.rev), because);
    }
  }

  void build_policy() {
    s_.gb_per_job = spec_.build.gb_per_job;
    s_.max_jobs = spec_.build.max_jobs;
    s_.metadata_rev = spec_.build.metadata_rev;
    if (v_.backend == Backend::cuda) {
      std::string jobs = fmt::format("min(cores, available GB / {})", s_.gb_per_job);
      if (s_.max_jobs) jobs = fmt::format("min({}, {})", jobs, *s_.max_jobs);
      note("build", "jobs", jobs + ", decided on the builder",
           "nvcc units of CUTLASS/FlashAttention take 3-8 GB each; a fixed -j swaps small builders to death");
    }
    note("build", "$out/.metadata-rev", std::to_string(s_.metadata_rev),
         "metadata-only edits do not change the store path; bump to republish (flox/build-pytorch README)");
    note("build", "$out/nix-support/tailor-variant.json", "the variant's description",
         "lets `tailor verify` check a result without knowing its name");
  }

  const Variant& v_;
  const Spec& spec_;
  const Matrix& matrix_;
  const KnowledgeBase& kb_;
  const NixpkgsPin& pin_;
  BuildSettings s_;
};

}  // namespace

BuildSettings derive_settings(const Variant& v, const Spec& spec, const Matrix& matrix, const KnowledgeBase& kb) {
  return Deriver(v, spec, matrix, kb).run();
}

}  // namespace tailor
