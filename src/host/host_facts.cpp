#include "host/host_facts.hpp"

#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/utsname.h>

#include "host/cpuid_x86.hpp"
#include "host/gpu_detect.hpp"
#include "host/gpu_spec.hpp"
#include "host/hwcap_aarch64.hpp"
#include "host/isa_match.hpp"
#include "host/sysctl_darwin.hpp"
#include "util/diagnostic.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace {

// The one input reader: a regular file only (a FIFO does not hang, /dev/zero is refused),
// no bigger than the input size limit (procfs says 0 bytes: read to its end, bounded).
std::string read_text(const std::string& path) { return read_file(path, "the CPU description"); }

std::string native_os() {
#if defined(__APPLE__)
  return "darwin";
#else
  return "linux";
#endif
}

std::string native_arch() {
  struct utsname u {};
  if (::uname(&u) != 0) return "unknown";
  std::string m = u.machine;
  if (m == "arm64") return "aarch64";
  if (m == "amd64") return "x86_64";
  return m;
}

CpuInfo live_cpu() {
  if (auto text = read_sysctl_text()) return parse_sysctl(*text, "sysctl");
  std::ifstream probe("/proc/cpuinfo");
  if (!probe) {
    CpuInfo cpu;
    cpu.arch = native_arch();
    cpu.source = "uname";
    cpu.notes.push_back("/proc/cpuinfo is not readable: CPU features unknown");
    return cpu;
  }
  CpuInfo cpu = parse_cpuinfo(read_text("/proc/cpuinfo"), "/proc/cpuinfo");
  if (auto regs = read_cpuid()) {
    cross_check(cpu, cpuid_features(*regs), cpuid_feature_names(), "cpuid");
    cpu.source += " + cpuid";
  } else if (auto caps = read_hwcaps()) {
    cross_check(cpu, hwcap_features(*caps), hwcap_feature_names(), "getauxval(AT_HWCAP)");
    cpu.source += " + hwcap";
  }
  return cpu;
}

// The OS known without reading a file: --os, or this host's where no saved CPU
// sample stands in for it. A sample must be read first (a sysctl dump is macOS).
std::optional<std::string> os_before_reading(const HostOptions& options) {
  if (options.os) return *options.os;
  if (!options.cpuinfo_path) return native_os();
  return std::nullopt;
}

}  // namespace

void cross_check(CpuInfo& cpu, const std::set<std::string>& other, const std::set<std::string>& comparable,
                 std::string_view other_name) {
  std::vector<std::string> only_cpuinfo, only_other;
  for (const auto& f : comparable) {
    bool a = cpu.has(f), b = other.count(f) != 0;
    if (a && !b) only_cpuinfo.push_back(f);
    if (b && !a) only_other.push_back(f);
  }
  for (const auto& f : only_cpuinfo) cpu.features.erase(f);
  if (!only_cpuinfo.empty())
    cpu.notes.push_back(fmt::format("/proc/cpuinfo lists {} but {} does not report {}: not counted",
                                    fmt::join(only_cpuinfo, " "), other_name,
                                    only_cpuinfo.size() == 1 ? "it" : "them"));
  if (!only_other.empty())
    cpu.notes.push_back(fmt::format("{} reports {} but /proc/cpuinfo does not (disabled by the kernel): not counted",
                                    other_name, fmt::join(only_other, " ")));
}

HostFacts make_host_facts(CpuInfo cpu, GpuReport gpu, std::string os, const KnowledgeBase& kb) {
  HostFacts h;
  h.os = std::move(os);
  h.platform = host_platform(cpu.arch, h.os);
  // The targets whose features the CPU has; a baseline needs none and runs on every CPU of the platform.
  for (const CpuIsa* isa : runnable_isas(cpu, h.platform, kb))
    if (!isa->baseline()) h.isas.push_back(isa->name);
  if (!h.isas.empty()) h.best_isa = h.isas.front();
  h.x86_64_level = x86_64_level(cpu);
  h.cpu = std::move(cpu);
  h.gpu = std::move(gpu);
  return h;
}

EarlyGpuQuery::EarlyGpuQuery(const HostOptions& options) {
  // Only where detect_host would ask the driver: no --gpus, on Linux.
  if (!options.gpus && os_before_reading(options) == "linux")
    report_ = std::async(std::launch::async, detect_gpus, options.gpu_cache);
}

std::optional<GpuReport> EarlyGpuQuery::take() {
  if (!report_.valid()) return std::nullopt;
  return report_.get();
}

HostFacts detect_host(const HostOptions& options, const KnowledgeBase& kb, EarlyGpuQuery* early) {
  CpuInfo cpu;
  std::string os = os_before_reading(options).value_or("");
  if (options.cpuinfo_path) {
    std::string text = read_text(*options.cpuinfo_path);
    if (looks_like_sysctl(text)) {
      cpu = parse_sysctl(text, *options.cpuinfo_path);
      if (os.empty()) os = "darwin";
    } else {
      cpu = parse_cpuinfo(text, *options.cpuinfo_path);
    }
  } else {
    cpu = live_cpu();
  }
  if (os.empty()) os = "linux";  // a /proc/cpuinfo sample

  GpuReport gpu;
  if (options.gpus) {
    gpu = parse_gpu_spec(*options.gpus, kb);
  } else if (os == "darwin") {
    gpu.source = "none";  // no NVIDIA on macOS; Apple's GPU is implied by the platform
  } else if (auto started = early ? early->take() : std::nullopt) {
    gpu = std::move(*started);
  } else {
    gpu = detect_gpus(options.gpu_cache);
  }
  return make_host_facts(std::move(cpu), std::move(gpu), std::move(os), kb);
}

}  // namespace tailor
