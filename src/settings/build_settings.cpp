#include "settings/build_settings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <fmt/ranges.h>
#include "kb/driver_rule.hpp"

#include "matrix/rules.hpp"
#include "settings/descriptions.hpp"
#include "settings/gpu_values.hpp"

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
      : v_(v),
        spec_(spec),
        matrix_(m),
        kb_(kb),
        pin_(*kb.pin(v.pin)),
        package_(*kb.package(v.package)),
        backend_(*kb.backend(v.backend)) {
    s_.variant = v;
    cached_ = spec.build.keep_cache && package_.cache != CacheRole::none && backend_.gpu();
    // What the variant compiles: its package and any it builds inline.
    for (const PackageDef* p = &package_; p; p = kb.needed(*p, NeedStrategy::python_set_substitution)) {
      big_build_ = big_build_ || p->big_build;
      feature_switches_ = feature_switches_ || p->feature_switches;
    }
  }

  BuildSettings run() {
    identity();
    nixpkgs();
    if (cached_)
      cached();
    else if (backend_.gpu())
      cuda();
    else
      other_backend();
    if (!v_.isa.empty() && !cached_) isa();
    if (!cached_) workarounds();  // the caches hold the pin's build as it ships
    build_policy();
    describe(s_, kb_);
    // A variant made from the caches' build says so where others name their targets.
    if (cached_ && s_.header_comment.size() == 3) {
      std::vector<std::string> quoted;
      for (const auto& sm : v_.sms()) quoted.push_back("\"" + sm + "\"");
      s_.header_comment[2] =
          package_.cache == CacheRole::pruned_copy
              ? fmt::format("nixpkgs {} — the binary caches' {} (default capabilities), copied and pruned to [ {} ]",
                            pin_.short_rev, package_.attribute, fmt::join(quoted, " "))
              : fmt::format("nixpkgs {} — the binary caches' {} with {} swapped in by replaceDependencies",
                            pin_.short_rev, package_.attribute,
                            s_.dependency_variants.empty() ? std::string("?") : s_.dependency_variants.back().second);
    }
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
    note("variant", "package", v_.package, "spec family");
    for (auto it = v_.versions.rbegin(); it != v_.versions.rend(); ++it) {  // what it builds against first
      std::string attr = kb_.package(it->first)->attribute, asked = requested_for(v_, spec_, kb_, attr);
      std::string because = asked.empty() ? fmt::format("what nixpkgs pin {} ships", pin_.short_rev)
                                          : fmt::format("[branch] {} = \"{}\"", attr, asked);
      if (const PackageVersion* pv = package_version(v_, spec_)) {
        if (it->first == v_.package)
          because = fmt::format("[[family.version]] of family '{}' ({}:{})", v_.family, spec_.path, pv->pos.line);
        else if (!pv->paired_with(attr).empty())
          because = fmt::format("{} {} pairs with {} {} ({}:{})", v_.package, v_.version, attr, asked, spec_.path,
                                pv->pos.line);
      }
      // Another repository's recipe builds it: that repository's version, whatever the pin ships.
      const ExternalRecipe* external = external_recipe_for(v_, spec_, attr);
      if (external) because += fmt::format(", built by {}, not the pin's", external->describe(&v_));
      // Built as the pin ships it, where the pin's sources disagree on that version: say so.
      if (const FactEvidence* d = pin_.version_dispute(attr);
          d && !external && !source_override_for(v_, spec_, kb_, attr))
        because += fmt::format("; what pin {} ships is disputed: {} ({})", pin_.short_rev, d->claims_text(),
                               probe_pin_command(pin_));
      note("variant", attr, it->second, because);
    }
    s_.platforms = {v_.platform};
    note("variant", "platform", v_.platform,
         backend_.platform.empty() ? fmt::format("ISA {} runs on {} (cpu_isas.toml)", v_.isa, v_.platform)
                                   : backend_.platform_because);
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
    if (package_.python()) {
      s_.python_packages = kb_.python(v_.python)->packages_attr();
      s_.python_interpreter = kb_.python(v_.python)->name_token();
      note("nixpkgs", "python package set", s_.python_packages,
           fmt::format("the name says {}; an explicit set keeps torch and its companions on one derivation (not "
                       "python3Packages, which follows the pin's default)",
                       kb_.python(v_.python)->name_token()));
    }
  }

  void cuda() {
    const CudaToolkit& tk = *kb_.cuda(v_.cuda);
    s_.cuda_support = true;
    note("nixpkgs", "config.cudaSupport", "true", "CUDA variant");
    s_.cuda_capabilities = v_.sms();
    note("nixpkgs", "config.cudaCapabilities", nix_list(s_.cuda_capabilities),
         "gpuTargets reaches torch only; magma, torchvision, torchaudio and vLLM follow config.cudaCapabilities "
         "(nixpkgs torch expression), so both are set");
    s_.cuda_packages = tk.nixpkgs_attr();
    note("nixpkgs", "overlay", "cudaPackages = " + tk.nixpkgs_attr(), fmt::format("CUDA {} toolkit", tk.version.str()));

    arguments();
    needs();
    gpu_cmake_flags();

    // cuDNN goes when it no longer supports an SM the build targets (one of a set is enough).
    for (const auto& sm : v_.sms()) {
      const GpuArch& gpu = *kb_.gpu(sm);
      if (!feature_switches_) break;
      const auto& cudnn = pin_.cudnn;
      if (gpu.cudnn_last && (!cudnn || *gpu.cudnn_last < *cudnn)) {
        std::string why = cudnn ? fmt::format("cuDNN {} on pin {} no longer supports SM {} (last: cuDNN {})",
                                              cudnn->str(), pin_.short_rev, gpu.sm, gpu.cudnn_last->str())
                                : fmt::format(
                                      "pin {} does not record its cuDNN version, and cuDNN after {} dropped "
                                      "SM {}: disabled to be safe",
                                      pin_.short_rev, gpu.cudnn_last->str(), gpu.sm);
        env("USE_CUDNN", "0", why);
        disable("CUDNN", why);
        break;
      }
    }
    if (big_build_) {
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
    blas();
    driver(tk);
  }

  // The oldest driver that runs the toolkit, raised by a GPU that needs a newer one.
  void driver(const CudaToolkit& tk) {
    DriverRequirement d{tk.version.str(), tk.min_driver ? tk.min_driver->str() : std::string(),
                        tk.minor_compat_driver ? tk.minor_compat_driver->str() : std::string()};
    // A GPU whose first driver is above the toolkit's GA driver (a B300 on CUDA 12.9) raises the floor.
    const std::string ga = d.min_driver;
    std::string gpu_why;
    for (const auto& sm : v_.sms()) {
      auto g = driver_floor(tk, kb_.gpu(sm));
      if (g && (d.min_driver.empty() || !written_floor_meets(d.min_driver, g->floor))) {
        d.min_driver = g->floor.str();
        gpu_why = g->why;
      }
    }
    s_.driver = d;
    note("driver", "minimum", d.floor() + "+",
         (d.min_driver.empty() ? fmt::format("the driver CUDA {} GA needs is not recorded ({})", d.cuda, tk.source)
                               : fmt::format("NVIDIA: CUDA {} GA needs driver {} ({})", d.cuda, ga, tk.source)) +
             (gpu_why.empty() ? std::string() : "; " + gpu_why) +
             (d.minor_compat_driver.empty()
                  ? std::string()
                  : fmt::format("; minor-version compatibility runs it on {}+ without PTX JIT of newer PTX",
                                d.minor_compat_driver)));
  }

  // Keeping the binary caches ([build] keep_cache): the pin's own build of the
  // package, evaluated as the caches' builds are, copied and pruned
  // (pruned-copy) or with such a copy swapped into its closure by
  // replaceDependencies (dependencies-replaced). Nothing is compiled.
  void cached() {
    const CudaToolkit& tk = *kb_.cuda(v_.cuda);
    s_.cuda_support = true;
    s_.cache = std::string(name_of(package_.cache));
    s_.cuda_packages = tk.nixpkgs_attr();
    note("nixpkgs", "config", "{ allowUnfree = true; cudaSupport = true; }",
         "[build] keep_cache: the binary caches' CUDA builds are evaluated so, with nixpkgs' default "
         "cudaCapabilities and no overlay; any change to torch's inputs is a new derivation, built for hours");
    note("nixpkgs", "cudaPackages", fmt::format("the pin's default (CUDA {})", tk.version.str()),
         "what the cached builds link (nixpkgs_pins.toml cuda_sets)");
    const std::string from = fmt::format("{}.{}", package_.python() ? s_.python_packages : "pkgs", package_.attribute);
    if (package_.cache == CacheRole::pruned_copy) {
      note("cache", package_.attribute,
           fmt::format("{}, copied under its own name, its outputs' references to each other rewritten", from),
           "replaceDependencies rewrites store paths in place, so a replacement's name must have the cached one's "
           "length (nixpkgs pkgs/build-support/replace-dependencies.nix)");
    } else {
      for (const auto& n : package_.needs) {
        const PackageDef* copied = kb_.package(n.package);
        if (!copied || copied->cache != CacheRole::pruned_copy) continue;
        Variant other = v_;
        other.package = n.package;
        std::string name = variant_name(other, kb_);
        s_.dependency_variants.emplace_back("cachedVariant", name);
        note("cache", "replaceDependencies",
             fmt::format("{} with each output of the cached {} replaced by {}'s", from, copied->attribute, name),
             fmt::format("nothing rebuilt: the cached {} reaches {}'s GPU code through its libraries at run time, "
                         "and its closure is rewritten to the pruned copy's store paths",
                         package_.display, copied->display));
      }
    }
    blas();
    driver(tk);
  }

  // {sm}, {capability}, {gpu}, ... of the variant's GPU, for argument and flag templates.
  std::vector<std::pair<std::string, std::string>> gpu_values() const { return gpu_template_values(v_, kb_); }
  // Why an argument or flag has its value: a set variant's own explanation where the data gives one.
  const std::string& because(const PackageArgument& a) const {
    return !v_.sm_set.empty() && !a.because_set.empty() ? a.because_set : a.because;
  }

  // The package's own override arguments for this backend (passed verbatim).
  void arguments() {
    auto values = gpu_values();
    for (const auto& a : package_.arguments)
      if (a.backend == v_.backend)
        literal_arg(a.name, fill_template(a.value, values), fill_template(because(a), values));
  }

  // The packages of the matrix it builds against, by the strategy data names.
  void needs() {
    for (const auto& n : package_.needs) {
      Variant other = v_;
      other.package = n.package;
      if (v_.version_index >= 0) {  // a version of the package: the other builds the version it pairs with
        other.version_index = -1;
        other.package_word.clear();
        other.paired.clear();
        other.version = requested_for(v_, spec_, kb_, kb_.package(n.package)->attribute);
        for (const auto& m : matrix_.variants)
          if (m.package == n.package && m.version == other.version && m.python == v_.python && m.cuda == v_.cuda &&
              m.sm == v_.sm && m.isa == v_.isa && m.platform == v_.platform)
            other.package_word = m.package_word;
      }
      const ExternalRecipe* external = external_recipe_for(v_, spec_, kb_.package(n.package)->attribute);
      if (n.strategy == NeedStrategy::companion_of && external) {
        // A family's recipe for variants without a version: the version [branch] asks for, if any.
        if (v_.version_index < 0) other.version = requested_for(v_, spec_, kb_, external->attribute);
        s_.external_builds.push_back({n.argument, external, other.version});
        arg(n.argument,
            other.version.empty() ? external->attribute : fmt::format("{} {}", external->attribute, other.version),
            fmt::format("built by {}, the {}'s {}: which {} that is, is that repository's, not the nixpkgs pin's",
                        external->describe(&v_), external->family_level ? "family" : "version", external->table(),
                        external->attribute));
      } else if (n.strategy == NeedStrategy::companion_of && builds_inline(n.package)) {
        inline_build(n, other);
      } else if (n.strategy == NeedStrategy::companion_of) {
        std::string name = variant_name(other, kb_);
        s_.dependency_variants.emplace_back(n.recipe_key, name);
        arg(n.argument, name, n.because);
      } else if (n.strategy == NeedStrategy::python_set_substitution) {
        std::string name = variant_name(other, kb_);
        s_.substituted.emplace_back(n.recipe_key, name);
        arg(n.argument, name, n.because);
      } else if (n.strategy == NeedStrategy::links_if_built) {
        links_if_built(n);
      }
    }
  }

  bool builds_inline(const std::string& package) const {
    return std::find(v_.inline_packages.begin(), v_.inline_packages.end(), package) != v_.inline_packages.end();
  }

  // The package this recipe builds inline gets the settings its own variant
  // would have: the same builder, flags and workarounds.
  void inline_build(const PackageNeed& n, Variant other) {
    other.inline_packages.clear();
    other.name = variant_name(other, kb_);
    other.versions = built_versions(other, pin_, spec_, kb_);
    s_.inline_builds.push_back({n.argument, derive_settings(other, spec_, matrix_, kb_)});
    arg(n.argument, other.name,
        fmt::format("built inside this recipe with the settings its own variant would have (inline in family '{}')",
                    v_.family));
  }

  void links_if_built(const PackageNeed& n) {
    for (const auto& m : matrix_.variants) {
      if (m.package == n.package && m.cuda == v_.cuda && m.sm == v_.sm && m.isa == v_.isa && m.pin == v_.pin) {
        s_.dependency_variants.emplace_back(n.recipe_key, m.name);
        arg(n.argument, m.name, n.because);
        return;
      }
    }
  }

  void gpu_cmake_flags() {
    auto values = gpu_values();
    for (const auto& f : package_.cmake_flags) {
      if (f.backend != v_.backend) continue;
      std::string flag = fill_template(f.name, values);
      if (f.recipe_key.empty()) {
        s_.cmake_flags.push_back(flag);
        note("cmake", flag, "", fill_template(because(f), values));
        continue;
      }
      auto it = std::find_if(s_.extra_cmake_flags.begin(), s_.extra_cmake_flags.end(),
                             [&](const auto& e) { return e.first == f.recipe_key; });
      if (it == s_.extra_cmake_flags.end()) it = s_.extra_cmake_flags.insert(it, {f.recipe_key, {}});
      it->second.push_back(flag);
      note("override", f.label, flag, fill_template(because(f), values));
    }
  }

  void blas() {
    s_.blas_provider = backend_.blas;
    note("meta", "blasProvider", backend_.blas, backend_.blas_because);
  }

  // Backends without a GPU: their arguments and notes, then BLAS.
  void other_backend() {
    arguments();
    needs();  // a CPU or MPS companion imports its torch as a CUDA one does
    for (const auto& n : backend_.notes) note(n[0], n[1], n[2], n[3]);
    blas();
  }

  void isa() {
    const CpuIsa& isa = *kb_.isa(v_.isa);
    s_.cpu_flags = isa.flags;
    note("compiler", "CFLAGS/CXXFLAGS", fmt::format("{}", fmt::join(isa.flags, " ")),
         fmt::format("ISA {} ({}): needs CPU features {}", isa.name, isa.display,
                     fmt::join(isa.requires_features, ", ")));
    if (!feature_switches_) return;
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

  // Whether this recipe builds \a attribute itself: its own package, one built
  // inline or substituted into its Python set. A companion imports its torch
  // variant, whose own recipe applies torch's source, flags and environment.
  bool builds_here(const std::string& attribute) const {
    if (attribute == package_.attribute) return true;
    return std::any_of(package_.needs.begin(), package_.needs.end(), [&](const PackageNeed& n) {
      return kb_.package(n.package)->attribute == attribute &&
             (n.strategy == NeedStrategy::python_set_substitution ||
              (n.strategy == NeedStrategy::companion_of && builds_inline(n.package)));
    });
  }

  void workarounds() {
    for (const Workaround* w : applicable_workarounds(v_, spec_, kb_)) {
      s_.workarounds.push_back(*w);
      std::string because = fmt::format("workaround {}: {} ({})", w->id, w->summary, w->source);
      if (w->source_override && builds_here(w->source_override->attribute) &&  // the spec's own override wins
          source_override_for(v_, spec_, kb_, w->source_override->attribute) == &*w->source_override)
        source_override(*w->source_override, because);
      if (w->allow_broken) note("workaround", "config.allowBroken", "true", because);
      for (const auto& name : w->switches) note("workaround", name, "true", because);
      for (const auto& l : w->include_links)
        note("workaround", l.key + " include links", fmt::format("{}", fmt::join(l.names, ", ")), because);
      for (const auto& p : w->patches)
        note("workaround", p.key, fmt::format("{}/{}@{}", p.commit.owner, p.commit.repo, p.commit.rev), because);
      for (const auto& e : w->env) {
        auto eq = e.find('=');
        env(e.substr(0, eq), e.substr(eq + 1), because);
      }
    }
    auto built = built_packages(*kb_.package(v_.package), kb_);
    for (const auto& o : spec_.source_overrides)
      if (std::any_of(built.begin(), built.end(), [&](const PackageDef* p) { return p->attribute == o.attribute; }) &&
          builds_here(o.attribute) && source_override_for(v_, spec_, kb_, o.attribute) == &o)
        source_override(o, o.pins.empty() ? fmt::format("[[source_override]] of {} builds {} {}", spec_.path,
                                                        o.attribute, o.version)
                                          : fmt::format("[[source_override]] of {} builds {} {} on pins {}", spec_.path,
                                                        o.attribute, o.version, fmt::join(o.pins, ", ")));
    if (const PackageVersion* pv = package_version(v_, spec_);
        pv && pv->source && source_override_for(v_, spec_, kb_, pv->source->attribute) == &*pv->source)
      source_override(*pv->source,
                      fmt::format("[[family.version]] {} of family '{}' ({}:{}) is built from its release: "
                                  "nixpkgs pin {} does not ship it",
                                  pv->version, v_.family, spec_.path, pv->pos.line, pin_.short_rev));
  }

  void source_override(const SourceOverride& o, const std::string& because) {
    s_.source_overrides.push_back(o);
    auto fetch = [](const GitHubSource& f) {
      return fmt::format("fetchFromGitHub {}/{} {} ({})", f.owner, f.repo, f.rev, f.hash);
    };
    note("workaround", o.attribute + ".src", fetch(o.fetch), because);
    for (const auto& x : o.extra_sources)
      note("workaround", o.attribute + " source " + x.name, fetch(x.fetch), because);
    if (o.clear_patches) note("workaround", "patches", "[ ]", because);
    for (const auto& f : o.cmake_flags) {
      s_.cmake_flags.push_back(f);
      note("cmake", f, "", because);
    }
    for (const auto& e : o.env) {
      auto eq = e.find('=');
      env(e.substr(0, eq), e.substr(eq + 1), because);
    }
    if (!o.version_txt.empty()) note("workaround", "version.txt", o.version_txt, because);
  }

  void build_policy() {
    s_.gb_per_job = spec_.build.gb_per_job;
    s_.max_jobs = spec_.build.max_jobs;
    s_.metadata_rev = spec_.build.metadata_rev;
    if (backend_.gpu() && !cached_) {  // a variant made from the caches compiles nothing
      std::string jobs = fmt::format("min(cores, available GB / {})", s_.gb_per_job);
      if (s_.max_jobs) jobs = fmt::format("min({}, {})", jobs, *s_.max_jobs);
      note("build", "jobs", jobs + ", decided on the builder",
           "nvcc units of CUTLASS/FlashAttention take 3-8 GB each; a fixed -j swaps small builders to death");
    }
    note("build", "$out/.metadata-rev", std::to_string(s_.metadata_rev),
         "metadata-only edits do not change the store path; bump to republish (flox/build-pytorch README)");
    note("build", "$out/nix-support/tailor-variant.json", "the variant's description",
         "lets `tailor verify` check a result without knowing its name");
    prune_policy();
  }

  // Phases that run tailor prune: a prebuilt package's own output, and the
  // CUDA libraries the spec asks to prune, each to the variant's SMs.
  void prune_policy() {
    bool output =
        package_.gpu_target == GpuTargetStrategy::pruned_output || s_.cache == name_of(CacheRole::pruned_copy);
    bool libraries = spec_.build.prune_cuda_libraries && backend_.gpu();
    // A package built on a cached one imports that one's pruned copy, whose build runs tailor.
    if (s_.cache == name_of(CacheRole::dependencies_replaced)) s_.tailor = spec_.tailor;
    if (!output && !libraries) return;
    s_.tailor = spec_.tailor;
    for (const auto& sm : v_.sms()) s_.prune_sms.push_back(sm);
    std::string sms = fmt::format("{}", fmt::join(s_.prune_sms, ","));
    note("prune", "tailor",
         spec_.tailor.kind == TailorSource::Kind::catalog
             ? "the Flox catalog's (the recipe's `tailor` argument)"
             : fmt::format("built from {}/{} {} by its nix/package.nix", spec_.tailor.fetch.owner,
                           spec_.tailor.fetch.repo, spec_.tailor.fetch.rev),
         "the spec's [tailor]");
    if (output && !s_.cache.empty())
      note("prune", "each output of the copy", fmt::format("tailor prune --in-place --sm {}", sms),
           fmt::format("the binary caches' {} carries GPU code for nixpkgs' default capabilities; the variant keeps "
                       "what SM {} can load",
                       package_.display, sms));
    else if (output)
      note("prune", "postFixup", fmt::format("tailor prune --in-place --sm {} $out", sms),
           fmt::format("{} is prebuilt with GPU code for every SM it supports; the variant keeps what SM {} can load",
                       package_.display, sms));
    if (libraries)
      for (const auto& lib : kb_.cuda_libraries) {
        s_.pruned_cuda_libraries.push_back(lib.attribute);
        note("prune", s_.cuda_packages + "." + lib.attribute,
             fmt::format("tailor prune --in-place --sm {} in its fixup phase", sms),
             fmt::format("{} carries GPU code for every SM ({}: {})", lib.display, evidence_kind_name(lib.kind),
                         lib.source));
      }
  }

  const Variant& v_;
  const Spec& spec_;
  const Matrix& matrix_;
  const KnowledgeBase& kb_;
  const NixpkgsPin& pin_;
  const PackageDef& package_;
  const BackendDef& backend_;
  bool big_build_ = false, feature_switches_ = false, cached_ = false;
  BuildSettings s_;
};

}  // namespace

BuildSettings derive_settings(const Variant& v, const Spec& spec, const Matrix& matrix, const KnowledgeBase& kb) {
  return Deriver(v, spec, matrix, kb).run();
}

}  // namespace tailor
