#pragma once
/// Which entries of one fatbin container the CUDA driver could load on given
/// GPUs (NVIDIA CUDA C++ Programming Guide, "Application Compatibility"): the
/// best SASS for the device, PTX JIT-compiled only when no SASS fits. Whether
/// an entry runs at all is kb/runs_on.hpp's rule. prune keeps by this choice;
/// verify checks a pruned or built artifact against it.
///
/// Per container and GPU the driver could take the newest SASS that runs
/// (ties, such as sm_90 beside sm_90a, all kept as found); the newest PTX that
/// runs only when no SASS does, or when asked. Entries that are neither SASS
/// nor PTX (NVVM IR for JIT LTO) are no per-SM choice: kept.
///
/// A container in which nothing runs on any of the GPUs keeps those entries
/// that are no per-SM choice, or else only its one smallest entry: it stays a
/// valid container that registers, and on these GPUs it had no code to load
/// before either, so nothing that ran is lost (issue 59; until then such
/// containers were kept whole, 48.5 MB of cuBLASLt's for SM 9.0).

#include <span>
#include <string>
#include <vector>

#include "binfmt/fatbin.hpp"
#include "kb/runs_on.hpp"

namespace tailor {

/// The decision for one container.
struct ContainerChoice {
  std::vector<bool> keep;  ///< one per entry
  /// GPUs (their sm) for which no entry of the container runs.
  std::vector<std::string> unusable_for;
  /// No GPU can use any entry: \a keep holds the entries that are no per-SM
  /// choice, else the one smallest entry.
  bool foreign_only = false;
  size_t kept() const;
};

/// Chooses what to keep of one container's \a entries for the union of
/// \a gpus. \a keep_ptx also keeps the newest PTX that runs beside SASS.
ContainerChoice choose_entries(std::span<const FatbinEntry> entries, std::span<const GpuTarget> gpus, bool keep_ptx);

}  // namespace tailor
