#pragma once
/// The NVIDIA GPUs of a host and the driver that runs them, however they were
/// found (NVML, nvidia-smi, or --gpus for planning another machine).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tailor {

struct GpuInfo {
  int index = 0;
  std::string name;    ///< "NVIDIA H200"
  std::string sm;      ///< compute capability, "9.0"
  std::string driver;  ///< "580.159.04"; empty if unknown
  std::optional<uint64_t> memory_mib;
};

struct GpuReport {
  std::vector<GpuInfo> gpus;
  std::string driver;              ///< the host's driver version; empty if unknown or none
  std::string source;              ///< "nvml", "nvidia-smi", "--gpus", "none"
  std::vector<std::string> notes;  ///< why a source was not used, and similar
  /// --gpus named a machine whose CPU comes with its GPU (host_features.toml
  /// [[system]] name): its CPU stands in for this host's.
  std::string system;
};

}  // namespace tailor
