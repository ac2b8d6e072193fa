#pragma once
/// Which fatbin entries the CUDA driver could load on a given GPU: the rule
/// `tailor prune` keeps by. Sources:
///  - NVIDIA CUDA C++ Programming Guide, "Binary Compatibility": a cubin built
///    for compute capability X.y runs only on devices of capability X.z with
///    z >= y; "PTX Compatibility": PTX for compute_XY is JIT-compiled for any
///    capability >= XY.
///  - same guide and nvcc documentation, "arch-specific features" (CUDA 12.0+):
///    sm_XYa cubins and compute_XYa PTX run on capability X.Y alone.
///  - CUDA 12.9 release notes / nvcc documentation, "family-specific features":
///    sm_XYf cubins (and compute_XYf PTX) run on the members of the family that
///    the knowledge base lists per GPU (data/gpu_architectures.toml,
///    runs_family_specific: sm_100f runs on 10.0 and 10.3).
///  - "Application Compatibility" (the driver's choice): the driver loads the
///    best SASS for the device and JIT-compiles PTX only when no SASS fits.
/// So per container and target the driver could take the newest compatible
/// SASS (ties, such as sm_90 beside sm_90a, all kept as found); PTX, the newest
/// compatible one, is kept only when no SASS fits or when asked. Entries that
/// are not SASS or PTX (NVVM IR for JIT LTO) are no per-SM choice: kept.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/fatbin.hpp"

namespace tailor {

struct KnowledgeBase;

/// A GPU to prune for.
struct PruneTarget {
  std::string sm;   ///< as the knowledge base writes it, "9.0"
  uint32_t number = 0;  ///< 90
  std::vector<uint32_t> runs_family_specific;  ///< {100, 103} on 10.3
};

/// The target for \a sm ("9.0", "sm_90", "90"). Throws DiagnosticError when it
/// is no compute capability of the knowledge base.
PruneTarget prune_target(const KnowledgeBase& kb, std::string_view sm);

/// Whether the driver could run the SASS entry \a e on \a t.
bool sass_runs_on(const FatbinEntry& e, const PruneTarget& t);
/// Whether the driver could JIT-compile the PTX entry \a e for \a t.
bool ptx_runs_on(const FatbinEntry& e, const PruneTarget& t);

/// The decision for one container.
struct ContainerChoice {
  std::vector<bool> keep;  ///< one per entry
  /// Targets (their sm) for which no entry of the container runs.
  std::vector<std::string> unusable_for;
  /// No target can use any entry: the container is left as it is (keep all).
  bool untouched = false;
  size_t kept() const;
};

/// Chooses what to keep of one container's \a entries for the union of
/// \a targets. \a keep_ptx also keeps the newest compatible PTX beside SASS.
ContainerChoice choose_entries(std::span<const FatbinEntry> entries, std::span<const PruneTarget> targets, bool keep_ptx);

}  // namespace tailor
