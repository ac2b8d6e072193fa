#include "host/gpu_detect.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "host/nvidia_driver.hpp"
#include "host/nvidia_smi.hpp"
#include "host/nvml.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

GpuReport detect_gpus() {
  std::vector<std::string> notes;
  std::string why = "disabled by TAILOR_NO_NVML";
  // TAILOR_NO_NVML=1 exercises the nvidia-smi fallback on a machine with NVML.
  const char* no_nvml = std::getenv("TAILOR_NO_NVML");
  if (auto r = no_nvml && *no_nvml ? std::nullopt : detect_with_nvml(why)) {
    if (r->driver.empty())
      if (auto d = read_driver_version()) r->driver = *d;
    return *r;
  }
  notes.push_back("NVML: " + why);
  if (auto text = run_nvidia_smi()) {
    try {
      GpuReport r;
      r.source = "nvidia-smi";
      r.gpus = parse_nvidia_smi_csv(*text);
      r.notes = notes;
      if (!r.gpus.empty()) r.driver = r.gpus.front().driver;
      if (r.driver.empty())
        if (auto d = read_driver_version()) r.driver = *d;
      return r;
    } catch (const DiagnosticError& e) {
      notes.push_back("nvidia-smi: unexpected output: " + e.diagnostic().message);
    }
  } else {
    notes.push_back("nvidia-smi: not found or failed");
  }
  GpuReport r;
  r.source = "none";
  r.notes = std::move(notes);
  if (auto d = read_driver_version()) {
    r.driver = *d;
    r.notes.push_back(fmt::format("NVIDIA driver {} is loaded, but no GPU could be queried", *d));
  }
  return r;
}

}  // namespace tailor
