#pragma once
/// GPU detection through NVML, the library behind nvidia-smi, loaded at run
/// time with dlopen("libnvidia-ml.so.1"): tailor needs no CUDA to build, and
/// asking the library directly is much faster than starting nvidia-smi.

#include <optional>
#include <string>

#include "host/gpu_info.hpp"

namespace tailor {

/// The GPUs NVML reports (source "nvml"); nullopt when the library is absent
/// or fails to initialise, with the reason in \a why_not.
std::optional<GpuReport> detect_with_nvml(std::string& why_not);

}  // namespace tailor
