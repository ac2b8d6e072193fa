#pragma once
/// The one "runs on" rule: whether CUDA code built for a target (sm_90a,
/// compute_120, the "9.0" of a variant) can run on a GPU of the knowledge
/// base. prune keeps by it, verify checks by it, recommend chooses by it.
/// Sources (NVIDIA CUDA C++ Programming Guide, "Binary Compatibility", "PTX
/// Compatibility", "Feature Availability"; CUDA 12.9 release notes and nvcc
/// documentation, "family-specific features"):
///  - a plain cubin sm_XY runs on compute capability X.Z with Z >= Y (same major);
///  - plain PTX compute_XY is JIT-compiled for any capability >= X.Y;
///  - arch-specific code (sm_XYa, compute_XYa) runs on X.Y alone;
///  - family-specific code (sm_XYf, compute_XYf) runs on the GPUs whose
///    `runs_family_specific` (data/gpu_architectures.toml) lists X.Y.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

struct GpuArch;
struct KnowledgeBase;

/// Code built for one target.
struct CudaCode {
  uint32_t number = 0;  ///< 90 for sm_90, 100 for compute_100f
  char suffix = '\0';   ///< 'a' arch-specific, 'f' family-specific, '\0' plain
  bool ptx = false;     ///< compute_XY (PTX), else SASS

  uint32_t major() const { return number / 10; }
};

/// Parses a compute capability as users and variants write it ("9.0", "9.0a",
/// "10.0f", "90", "sm_90", "sm90a") to its number and suffix: SASS. nullopt
/// when it is not of that shape.
std::optional<CudaCode> parse_sm(std::string_view sm);
/// Parses "sm_90a" (SASS) or "compute_120" (PTX) as fatbins and nvcc name them.
std::optional<CudaCode> parse_cuda_code(std::string_view name);

/// A GPU as the rule needs it.
struct GpuTarget {
  std::string sm;                              ///< "9.0"
  uint32_t number = 0;                         ///< 90
  std::vector<uint32_t> runs_family_specific;  ///< {100, 103} on 10.3

  uint32_t major() const { return number / 10; }
};

/// The GPU of \a sm in \a kb ("9.0", "sm_90", "90"); nullopt when the
/// knowledge base has no such compute capability (or \a sm has a suffix).
std::optional<GpuTarget> gpu_target(const KnowledgeBase& kb, std::string_view sm);
GpuTarget gpu_target(const GpuArch& gpu);
/// The GPU of \a sm in \a kb, else (a compute capability the knowledge base
/// lacks, such as a GPU newer than it) one judged by its number alone, whose
/// family-specific code is its own; nullopt when \a sm is no capability.
std::optional<GpuTarget> any_gpu_target(const KnowledgeBase& kb, std::string_view sm);

/// Whether \a code can run on \a gpu.
bool runs_on(const CudaCode& code, const GpuTarget& gpu);

}  // namespace tailor
