#pragma once
/// Finds this host's NVIDIA GPUs: NVML first, nvidia-smi when NVML cannot be
/// loaded, and the driver version files for the driver alone.

#include "host/gpu_info.hpp"

namespace tailor {

/// The GPUs of this host (TAILOR_NO_NVML=1 skips NVML, to test the fallback); source "none" (with notes saying what was
/// tried) when there are none.
GpuReport detect_gpus();

}  // namespace tailor
