#pragma once
/// The knowledge base: the facts tailor reasons with, loaded from the TOML
/// files under data/ (embedded in the binary) and an optional user overlay
/// directory whose entries replace or extend the embedded ones.

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/cpu_isa.hpp"
#include "kb/cuda_library.hpp"
#include "kb/cuda_toolkit.hpp"
#include "kb/gpu_arch.hpp"
#include "kb/nixpkgs_pin.hpp"
#include "kb/package.hpp"
#include "kb/platform.hpp"
#include "kb/python_version.hpp"
#include "kb/recipe_formals.hpp"
#include "kb/workaround.hpp"

namespace tailor {

struct KnowledgeBase {
  std::vector<GpuArch> gpus;
  std::vector<CudaToolkit> cudas;
  /// cudaPackages libraries that carry device code for every GPU (cuda_toolkits.toml [[library]]).
  std::vector<CudaLibrary> cuda_libraries;
  std::vector<CpuIsa> isas;
  std::map<std::string, std::vector<std::string>> flag_features;  ///< compiler flag -> CPU features
  /// -march base ("armv9-a") -> the CPU features every CPU of that architecture has.
  std::map<std::string, std::vector<std::string>> march_implies;
  /// -march "+extension" ("sve2") -> the CPU features it enables.
  std::map<std::string, std::vector<std::string>> march_extensions;
  /// Platform -> ATen's CPU capabilities on it, lowest first ("DEFAULT", "AVX2", "AVX512").
  std::map<std::string, std::vector<std::string>> aten_capabilities;
  /// TORCH_CUDA_ARCH_LIST's words: "generation_names" (Ampere, Hopper, …) and "suffixes" (+PTX).
  std::map<std::string, std::vector<std::string>> torch_arch_list;
  std::vector<NixpkgsPin> pins;
  /// [[formals]]: package functions' formal arguments, per release, as sources state them.
  std::vector<RecipeFormals> formals;
  std::vector<PythonVersion> pythons;
  std::vector<Workaround> workarounds;
  std::vector<BackendDef> backends;
  std::vector<PackageDef> packages;
  /// platforms.toml: the Nix systems tailor builds for, their ELF machine, CI runner labels.
  PlatformTable platforms;
  std::vector<std::string> json_version_keys;  ///< attributes reported as keys of their own
  std::string headline;                        ///< the matrix's main package
  /// The Nix builders the knowledge base carries (data/builders/, an overlay's
  /// builders/): "lib/NAME.nix" -> text. A tree gets those it uses
  /// (kb/builder_imports.hpp).
  std::map<std::string, std::string> builder_files;
  /// The builder files an overlay's builders/ folder holds: a tree that uses
  /// one of them gets them all (the folder is carried whole).
  std::set<std::string> overlay_builder_files;
  /// What each builder builds (packages.toml [builds]): builder file -> an
  /// attribute ("vllm"), or a template: "{attribute}" (the package's own
  /// attribute, which its variant records then carry as `attribute`) or
  /// "{package}" (the attribute named like the package).
  std::map<std::string, std::string> builds;
  std::map<std::string, DataPos> builds_at;

  /// The embedded knowledge base, overlaid with \a overlay_dir when given.
  /// Throws DiagnosticError for bad data, including invariant violations.
  static KnowledgeBase load(const std::optional<std::filesystem::path>& overlay_dir = std::nullopt);

  /// Loads from explicit file contents (file name -> text), e.g. for tests and
  /// fuzzing. Files missing from \a files are taken from the embedded data;
  /// "builders/x.nix" entries are builders, as an overlay directory's.
  static KnowledgeBase load_texts(const std::map<std::string, std::string>& files);

  const GpuArch* gpu(std::string_view sm) const;
  const CudaToolkit* cuda(std::string_view version) const;
  const CpuIsa* isa(std::string_view name) const;
  /// By short or full revision.
  const NixpkgsPin* pin(std::string_view rev) const;
  const PythonVersion* python(std::string_view version) const;
  const BackendDef* backend(std::string_view name) const;
  /// The platform of Nix system \a system; null when tailor does not build for it.
  const Platform* platform(std::string_view system) const { return platforms.find(system); }
  /// The headline package (packages.toml `headline`; an invariant makes it a
  /// package whose pins record its version): repin and import follow its attribute.
  const PackageDef& headline_package() const;
  const PackageDef* package(std::string_view name) const;
  /// The package \a p needs by \a strategy; null when it needs none.
  const PackageDef* needed(const PackageDef& p, NeedStrategy strategy) const;
  /// The attribute the builder of \a p builds for it; empty when [builds] does not say.
  std::string builder_builds(const PackageDef& p) const;
  /// Whether the builder of \a p reads the attribute from the variant record.
  bool builder_takes_attribute(const PackageDef& p) const;

  std::vector<std::string> gpu_names() const;
  std::vector<std::string> cuda_names() const;
  std::vector<std::string> isa_names() const;
  std::vector<std::string> pin_names() const;
  std::vector<std::string> python_names() const;
  std::vector<std::string> backend_names() const;
  std::vector<std::string> package_names() const;

  /// The ATen CPU capabilities at or above \a isa's aten_capability, lowest
  /// first; empty when that is its platform's lowest (any dispatch meets it)
  /// or not stated.
  std::vector<std::string> aten_capabilities_meeting(const CpuIsa& isa) const;
};

/// The embedded knowledge base, loaded once.
const KnowledgeBase& embedded_kb();

/// The data files, in load order.
const std::vector<std::string>& kb_file_names();
/// Files an overlay directory may hold that layers above the knowledge base
/// read themselves (the host tables).
const std::vector<std::string>& overlay_files_read_elsewhere();

}  // namespace tailor
