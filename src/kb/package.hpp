#pragma once
/// The packages tailor builds and the backends they are built for, as data
/// (data/packages.toml). The core reads these definitions and runs the small
/// named strategies they select; it names no package.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/diagnostic.hpp"
#include "util/enum_names.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

/// The device a backend's variants compute on.
enum class Accelerator { cuda, metal, none };
inline constexpr EnumNames<Accelerator, 3> kAccelerators{
    {{{Accelerator::cuda, "cuda"}, {Accelerator::metal, "metal"}, {Accelerator::none, "none"}}}};

/// How a package takes another package of the matrix ([[package.needs]] strategy).
enum class NeedStrategy { companion_of, python_set_substitution, links_if_built };
inline constexpr EnumNames<NeedStrategy, 3> kNeedStrategies{
    {{{NeedStrategy::companion_of, "companion-of"},
      {NeedStrategy::python_set_substitution, "python-set-substitution"},
      {NeedStrategy::links_if_built, "links-if-built"}}}};

/// How a package's recipe is told which GPUs to compile for (gpu_target).
enum class GpuTargetStrategy { override_argument, cmake_flag, config_capabilities, substituted, pruned_output };
inline constexpr EnumNames<GpuTargetStrategy, 5> kGpuTargets{
    {{{GpuTargetStrategy::override_argument, "override-argument"},
      {GpuTargetStrategy::cmake_flag, "cmake-flag"},
      {GpuTargetStrategy::config_capabilities, "config-capabilities"},
      {GpuTargetStrategy::substituted, "substituted"},
      {GpuTargetStrategy::pruned_output, "pruned-output"}}}};

/// What a variant of a package is when its spec keeps the binary caches
/// ([build] keep_cache; the `cache` of data/packages.toml): nothing, a copy of
/// nixpkgs' cached build pruned to the variant's SMs, or nixpkgs' cached build
/// with such a copy swapped into its closure by replaceDependencies.
enum class CacheRole { none, pruned_copy, dependencies_replaced };
inline constexpr EnumNames<CacheRole, 3> kCacheRoles{{{{CacheRole::none, "none"},
                                                       {CacheRole::pruned_copy, "pruned-copy"},
                                                       {CacheRole::dependencies_replaced, "dependencies-replaced"}}}};

/// Where a package lives in nixpkgs: the Python set or the top level.
enum class PackageScope { python, top_level };
inline constexpr EnumNames<PackageScope, 2> kPackageScopes{
    {{{PackageScope::python, "python"}, {PackageScope::top_level, "top-level"}}}};

constexpr std::string_view name_of(Accelerator e) { return kAccelerators.name(e); }
constexpr std::string_view name_of(NeedStrategy e) { return kNeedStrategies.name(e); }
constexpr std::string_view name_of(GpuTargetStrategy e) { return kGpuTargets.name(e); }
constexpr std::string_view name_of(CacheRole e) { return kCacheRoles.name(e); }
constexpr std::string_view name_of(PackageScope e) { return kPackageScopes.name(e); }

/// Where a definition was read, for file:line:col errors found after loading.
struct DataPos {
  std::string path;
  Pos pos;
};

/// How a variant accelerates: CUDA, CPU only, Apple's Metal, ...
struct BackendDef {
  std::string name;               ///< "cuda"
  std::string display;            ///< "CUDA"
  std::vector<std::string> axes;  ///< of "cuda", "sm", "isa"
  Accelerator accelerator = Accelerator::none;
  std::string name_part;  ///< "{cuda}-{sm}-{isa}"
  std::string platform;   ///< fixed platform; empty: the ISA's
  std::string platform_because;
  std::string blas, blas_because;
  std::vector<std::vector<std::string>> notes;  ///< group, key, value, because
  std::string description;
  std::vector<std::string> header;
  std::vector<std::string> details;
  std::string use_case;  ///< the matrix README's "primary use case"; empty: from the GPU and ISA
  DataPos at, name_part_at;

  bool has_axis(std::string_view axis) const;
  bool gpu() const { return accelerator == Accelerator::cuda; }
};

/// An override argument (or cmake flag) a package's recipe passes for one backend.
struct PackageArgument {
  std::string backend;
  std::string name;   ///< argument name; for cmake flags, the flag template
  std::string value;  ///< Nix literal template
  std::string because;
  std::string because_set;  ///< for a variant of an SM set; empty: because
  std::string recipe_key;   ///< cmake flags: the recipe attribute that carries them; empty: cmakeFlags
  std::string label;        ///< cmake flags with a recipe_key: the explanation's key
};

/// What a package needs from another package of the matrix.
struct PackageNeed {
  std::string package;
  NeedStrategy strategy = NeedStrategy::companion_of;
  std::string argument;  ///< override argument that receives it
  std::string recipe_key;
  std::string because;
  DataPos at, strategy_at;
};

/// [[package.pairing]]: which release of another package of the matrix this
/// one is made for (torchvision 0.24 for torch 2.9): a companion built against
/// another release of it fails at import. Versions are compared by major.minor.
struct VersionPairing {
  std::string with;  ///< the other package ("pytorch")
  /// (this package's release, the other's): ("0.24", "2.9"), …
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string source;  ///< where the table comes from (a release table, release notes)
  DataPos at;
};

struct PackageDef {
  std::string name;       ///< "pytorch", may contain '-'
  std::string display;    ///< "PyTorch"
  std::string attribute;  ///< nixpkgs attribute, "torch"
  PackageScope scope = PackageScope::python;
  std::vector<std::string> backends;
  std::string builder;  ///< "lib/torch.nix"
  /// Other files of the knowledge base's builders the builder imports
  /// ("lib/sgl-kernel.nix"), written beside it into every tree that builds the package.
  std::vector<std::string> builder_files;
  std::string variant_name;                                             ///< "{package}-{python}-{backend}"
  GpuTargetStrategy gpu_target = GpuTargetStrategy::override_argument;  ///< see data/packages.toml
  bool version_in_pins = false;
  bool big_build = false;
  bool feature_switches = false;
  /// What its GPU variants are when the spec keeps the binary caches; none: it cannot keep them.
  CacheRole cache = CacheRole::none;
  /// The package of the matrix this one ships prebuilt ("pytorch" for torch-bin):
  /// `tailor recommend` offers its variants beside that package's; empty: none.
  std::string prebuilt_of;
  /// What choosing it gains and loses against a build from source, in words (recommend shows it).
  std::string tradeoff;
  /// What `tailor verify` imports and asks: the Python module of data/probes/PROBE.py; empty: none.
  std::string probe;
  std::vector<PackageArgument> arguments;
  std::vector<PackageArgument> cmake_flags;
  std::vector<PackageNeed> needs;
  std::vector<VersionPairing> pairings;
  std::vector<std::pair<std::string, std::string>> description;  ///< backend -> template
  std::vector<std::pair<std::string, std::vector<std::string>>> header;
  DataPos at, variant_name_at, gpu_target_at, builder_at, prebuilt_of_at, cache_at;
  std::vector<DataPos> builder_files_at;  ///< one per builder_files entry

  bool python() const { return scope == PackageScope::python; }
  bool builds_for(std::string_view backend) const;
  const PackageNeed* need(NeedStrategy strategy) const;
};

/// Whether \a p, or a package it builds inline (python-set-substitution),
/// honours the feature switches (feature_switches). \a kb resolves the needs.
struct KnowledgeBase;
bool compiles_feature_switches(const PackageDef& p, const KnowledgeBase& kb);

BackendDef read_backend(TableReader& r);
PackageDef read_package(TableReader& r);

/// Splits a name template on '-' into its segments ("{package}", "cpu", ...).
std::vector<std::string> template_segments(std::string_view tmpl);
/// A {word} of a template: the text after '{' up to its '}' in the same
/// segment; without one (\a closed false), the rest of the segment.
struct TemplateKey {
  std::string word;
  bool closed = true;
};
/// The {word}s of \a tmpl, in order ("py{python_nodot}-{sm}" -> python_nodot, sm).
std::vector<TemplateKey> template_keys(std::string_view tmpl);
/// Replaces each {key} of \a tmpl by its value; unknown keys stay as written.
std::string fill_template(std::string_view tmpl, const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace tailor
