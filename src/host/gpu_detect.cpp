#include "host/gpu_detect.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "host/gpu_cache.hpp"
#include "host/nvidia_driver.hpp"
#include "host/nvidia_smi.hpp"
#include "host/nvml.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

// nvidia-smi, then the driver version files alone; \a why says why NVML was not used.
GpuReport without_nvml(const std::string& why) {
  std::vector<std::string> notes{"NVML: " + why};
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

GpuReport ask_driver() {
  std::string why;
  auto r = detect_with_nvml(why);
  if (!r) return without_nvml(why);
  if (r->driver.empty())
    if (auto d = read_driver_version()) r->driver = *d;
  return *r;
}

}  // namespace

GpuReport detect_gpus(GpuCache cache) {
  // TAILOR_NO_NVML=1 exercises the nvidia-smi fallback on a machine with NVML.
  const char* no_nvml = std::getenv("TAILOR_NO_NVML");
  if (no_nvml && *no_nvml) return without_nvml("disabled by TAILOR_NO_NVML");
  GpuCacheSite site;
  if (cache == GpuCache::use) site.file = gpu_cache_path();
  return cached_gpu_query(site, ask_driver);
}

}  // namespace tailor
