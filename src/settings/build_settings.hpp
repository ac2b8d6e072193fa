#pragma once
/// Variant -> build settings: the one pure function that decides everything a
/// recipe needs. Every emitter reads BuildSettings; nothing else decides. Each
/// decision is also recorded with the fact it came from, for `tailor explain`.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"

namespace tailor {

/// One decision and why it was made.
struct Explained {
  std::string group;  ///< "nixpkgs", "override", "environment", ...
  std::string key;
  std::string value;
  std::string because;
};

struct DisabledFeature {
  std::string feature;  ///< "FBGEMM", "CUDNN"
  std::string reason;
};

struct DriverRequirement {
  std::string cuda;                 ///< "12.9"
  std::string min_driver;           ///< NVIDIA's GA minimum, "575.51.03"; empty where no source states it
  std::string minor_compat_driver;  ///< empty if the major has none

  /// The oldest driver that runs the toolkit: the GA minimum, else the
  /// minor-version compatibility floor.
  const std::string& floor() const { return min_driver.empty() ? minor_compat_driver : min_driver; }
};

struct InlineBuild;

/// A package that another repository's recipe builds for the variant.
struct ExternalBuild {
  std::string argument;                    ///< the override argument ("torch")
  const ExternalRecipe* recipe = nullptr;  ///< the version's [family.version.external.<attribute>]
  std::string version;                     ///< the version of it the variant pairs with ("2.11.0")
};

struct BuildSettings {
  Variant variant;
  std::string pname;

  // nixpkgs import
  std::string pin_rev, pin_short, pin_url, pin_sha256;  ///< sha256 empty when unknown
  bool cuda_support = false;
  std::vector<std::string> cuda_capabilities;  ///< config.cudaCapabilities
  std::string cuda_packages;                   ///< overlay: cudaPackages = <this>
  std::string python_packages;                 ///< "python313Packages"; empty for magma
  std::string python_interpreter;              ///< "python313"; empty for magma
  /// Made from the binary caches' build ([build] keep_cache): the package's
  /// cache role ("pruned-copy", "dependencies-replaced"); empty: built as usual.
  std::string cache;

  // the recipe
  std::vector<std::pair<std::string, std::string>> override_args;  ///< name -> value, as explained
  /// The subset of override_args that recipes pass verbatim to .override (Nix literals).
  std::vector<std::pair<std::string, std::string>> recipe_override;
  std::vector<std::pair<std::string, std::string>> env;  ///< exported in preConfigure
  std::vector<std::string> cmake_flags;
  std::vector<std::string> cpu_flags;   ///< CFLAGS/CXXFLAGS
  std::vector<std::string> nvcc_flags;  ///< NVCC_APPEND_FLAGS
  std::vector<DisabledFeature> disabled;
  std::vector<Workaround> workarounds;
  /// Versions built from fetched sources: the workarounds' (in their order), then the spec's.
  std::vector<SourceOverride> source_overrides;
  /// Variants of the matrix this recipe imports (companion-of, links-if-built):
  /// recipe key ("torchVariant") -> variant name. Builds need them first.
  std::vector<std::pair<std::string, std::string>> dependency_variants;
  /// Packages a companion builds inside its own recipe (inline = [...] of its
  /// family): the settings their own variant would have.
  std::vector<InlineBuild> inline_builds;
  /// Packages it is built against that a recipe of another repository builds
  /// ([family.version.external]).
  std::vector<ExternalBuild> external_builds;
  /// python-set-substitution: recipe key ("customTorchName") -> pname of the
  /// package built inline for the cell and swapped into the Python set.
  std::vector<std::pair<std::string, std::string>> substituted;
  /// cmake flags a builder passes to a package other than the variant's own:
  /// recipe key ("bitsandbytesCmakeFlags") -> flags.
  std::vector<std::pair<std::string, std::vector<std::string>>> extra_cmake_flags;
  std::string blas_provider;  ///< "cublas", "openblas", "accelerate"
  std::vector<std::string> platforms;
  std::vector<std::string> required_system_features;

  // tailor prune in build phases (empty unless the variant runs it)
  TailorSource tailor;                             ///< where those phases get tailor from
  std::vector<std::string> prune_sms;              ///< the variant's SMs, "9.0"
  std::vector<std::string> pruned_cuda_libraries;  ///< cudaPackages attributes pruned in their fixup

  // build behaviour
  int gb_per_job = 8;
  std::optional<int> max_jobs;
  bool strip_toolchain = false;
  int metadata_rev = 1;

  // meta
  std::string description;
  std::string long_description;
  std::vector<std::string> header_comment;  ///< three lines, without "# "
  std::optional<DriverRequirement> driver;

  std::vector<Explained> trail;
};

/// A package built inside another's recipe, passed as override \a argument.
struct InlineBuild {
  std::string argument;  ///< "torch"
  BuildSettings settings;
};

/// Derives the settings of \a v, a variant of \a matrix expanded from \a spec.
BuildSettings derive_settings(const Variant& v, const Spec& spec, const Matrix& matrix, const KnowledgeBase& kb);

}  // namespace tailor
