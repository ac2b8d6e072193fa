#pragma once
/// Finds this host's NVIDIA GPUs: NVML first (its answer cached while the
/// driver's state stays the same, host/gpu_cache.hpp), nvidia-smi when NVML
/// cannot be loaded, and the driver version files for the driver alone.

#include "host/gpu_info.hpp"

namespace tailor {

/// Whether detection may answer from, and record into, the GPU cache.
enum class GpuCache { use, bypass };

/// The GPUs of this host (TAILOR_NO_NVML=1 skips NVML and the cache, to test
/// the fallback); source "none" (with notes saying what was tried) when there
/// are none.
GpuReport detect_gpus(GpuCache cache = GpuCache::use);

}  // namespace tailor
