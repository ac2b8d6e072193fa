// Fuzz target for the host-detection parsers of untrusted text: /proc/cpuinfo,
// sysctl output, nvidia-smi CSV, the driver version file, --gpus, the
// `tailor detect --json` files manifest --for reads, and the GPU cache file
// (read in the driver state its corpus seed, gpu-cache.json, was kept in). Each
// must either parse or reject the input with a DiagnosticError.
#include <cstdint>
#include <string>

#include "host/cpu_info.hpp"
#include "host/gpu_cache.hpp"
#include "host/gpu_spec.hpp"
#include "host/host_file.hpp"
#include "host/isa_match.hpp"
#include "host/nvidia_driver.hpp"
#include "host/nvidia_smi.hpp"
#include "kb/knowledge_base.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  static const tailor::DriverState state{"boot\n",
                                         "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04\n",
                                         {{"0000:00:06.0", "Model: \t\t NVIDIA H100 80GB HBM3\n"}}};
  std::string text(reinterpret_cast<const char*>(data), size);
  auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const tailor::DiagnosticError& e) {
      (void)e.diagnostic().render();
    }
  };
  guarded([&] {
    tailor::CpuInfo c = tailor::parse_cpuinfo(text, "fuzz", tailor::embedded_host_tables());
    (void)tailor::runnable_isas(c, tailor::host_platform(c.arch, "linux"), kb);
    (void)tailor::x86_64_level(c, tailor::embedded_host_tables());
  });
  guarded([&] { (void)tailor::parse_sysctl(text, "fuzz", tailor::embedded_host_tables()); });
  guarded([&] { (void)tailor::parse_nvidia_smi_csv(text); });
  guarded([&] { (void)tailor::parse_driver_version(text); });
  guarded([&] { (void)tailor::parse_host_json(text, "fuzz", kb, tailor::embedded_host_tables()); });
  (void)tailor::parse_gpu_cache(text, state);  // never throws: a damaged cache is a miss
  if (size < 256) guarded([&] { (void)tailor::parse_gpu_spec(text, kb, tailor::embedded_host_tables()); });
  return 0;
}
