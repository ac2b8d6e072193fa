#pragma once
/// One NVIDIA GPU architecture (compute capability) of the knowledge base.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

struct GpuArch {
  std::string sm;  ///< compute capability as written, "9.0"
  Version capability;
  std::string family;  ///< "Hopper", "Ada Lovelace"
  std::vector<std::string> products;
  std::vector<std::string> also_called;  ///< names docs use besides the products ("Orin", "GB10")
  /// Longer names that begin with a product's but are other GPUs ("Vera Rubin
  /// Ultra" is not Vera Rubin): text that says them does not name this one.
  std::vector<std::string> not_called;
  Version min_cuda;
  std::optional<Version> max_cuda;                  ///< inclusive
  std::optional<Version> arch_specific_min_cuda;    ///< sm_XYa
  std::optional<Version> family_specific_min_cuda;  ///< sm_XYf
  /// SMs whose family-specific code (sm_XYf, compute_XYf) runs here, "10.0" for 10.3.
  std::vector<std::string> runs_family_specific;
  std::optional<Version> cudnn_last;  ///< last cuDNN that supports it; absent: current
  std::vector<std::string> platforms;
  bool jetson = false;
  /// The first Linux driver branch ("570") or release ("580.82.07") that runs it; absent: not read.
  std::optional<Version> first_driver;
  std::optional<Version> last_driver;  ///< the last branch that supports it ("580"); absent: current
  bool driver_inferred = false;        ///< first_driver follows from a toolkit's GA driver, not read
  bool open_modules_only = false;      ///< needs NVIDIA's open kernel modules
  bool preview = false;                ///< its support is a developer preview
  /// false: a target nvcc knows that no build names (sm_88): --gpus and inspect know it, the catalog does not offer it
  bool build_target = true;
  std::string driver_source;
  std::string notes;
  std::string source;

  /// "sm90", "sm103": the token used in variant names.
  std::string name_token() const;
  /// Whether \a token is name_token(), without building it (names are read by the thousand).
  bool has_name_token(std::string_view token) const;
  /// "SM90": the token used in descriptions.
  std::string display() const;
  /// Whether nvcc of \a cuda can compile for this SM.
  bool supported_by(const Version& cuda) const;
  /// Whether \a name is how NVIDIA names this SM's architecture: its family
  /// ("Blackwell" also for "Blackwell (GB10)"), or a name recorded in also_called.
  bool names_family(std::string_view name) const;
  /// Whether \a name is one of this SM's products.
  bool lists_product(std::string_view name) const;
};

/// Turns "sm90"/"sm_90"/"90" into "9.0" (for hints); nullopt if not of that shape.
std::optional<std::string> sm_from_token(std::string_view token);

GpuArch read_gpu_arch(TableReader& r);

}  // namespace tailor
