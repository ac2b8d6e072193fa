// Fuzz target for the host-detection parsers of untrusted text: /proc/cpuinfo,
// sysctl output, nvidia-smi CSV, the driver version file, --gpus and the
// `tailor detect --json` files manifest --for reads. Each
// must either parse or reject the input with a DiagnosticError.
#include <cstdint>
#include <string>

#include "host/cpu_info.hpp"
#include "host/gpu_spec.hpp"
#include "host/host_file.hpp"
#include "host/isa_match.hpp"
#include "host/nvidia_driver.hpp"
#include "host/nvidia_smi.hpp"
#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  std::string text(reinterpret_cast<const char*>(data), size);
  auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const tailor::DiagnosticError& e) {
      (void)e.diagnostic().render();
    }
  };
  guarded([&] {
    tailor::CpuInfo c = tailor::parse_cpuinfo(text, "fuzz");
    (void)tailor::runnable_isas(c, tailor::host_platform(c.arch, "linux"), kb);
    (void)tailor::x86_64_level(c);
  });
  guarded([&] { (void)tailor::parse_sysctl(text, "fuzz"); });
  guarded([&] { (void)tailor::parse_nvidia_smi_csv(text); });
  guarded([&] { (void)tailor::parse_driver_version(text); });
  guarded([&] { (void)tailor::parse_host_json(text, "fuzz", kb); });
  if (size < 256) guarded([&] { (void)tailor::parse_gpu_spec(text, kb); });
  return 0;
}
