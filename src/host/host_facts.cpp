#include "host/host_facts.hpp"

#include <fstream>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/utsname.h>

#include "host/cpuid_x86.hpp"
#include "host/gpu_detect.hpp"
#include "host/gpu_spec.hpp"
#include "host/host_tables.hpp"
#include "host/hwcap_aarch64.hpp"
#include "host/isa_match.hpp"
#include "host/sysctl_darwin.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace {

// The one input reader: a regular file only (a FIFO does not hang, /dev/zero is refused),
// no bigger than the input size limit; the system's reason (ENOENT, EACCES…) goes with the path.
std::string read_text(const std::string& path) { return read_file(path, "the CPU description"); }

Os native_os() {
#if defined(__APPLE__)
  return Os::darwin;
#else
  return Os::gnu_linux;
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

CpuInfo live_cpu(const HostTables& t) {
  if (auto text = read_sysctl_text()) return parse_sysctl(*text, "sysctl", t);
  std::ifstream probe("/proc/cpuinfo");
  if (!probe) {
    CpuInfo cpu;
    cpu.arch = native_arch();
    cpu.source = "uname";
    cpu.notes.push_back("/proc/cpuinfo is not readable: CPU features unknown");
    return cpu;
  }
  CpuInfo cpu = parse_cpuinfo(read_text("/proc/cpuinfo"), "/proc/cpuinfo", t);
  if (auto regs = read_cpuid()) {
    cross_check(cpu, cpuid_features(*regs, t), cpuid_feature_names(t), "cpuid");
    cpu.source += " + cpuid";
  } else if (auto caps = read_hwcaps()) {
    cross_check(cpu, hwcap_features(*caps, t), hwcap_feature_names(t), "getauxval(AT_HWCAP)");
    cpu.source += " + hwcap";
  }
  return cpu;
}

// The OS known without reading a file: --os, or this host's where no saved CPU
// sample stands in for it. A sample must be read first (a sysctl dump is macOS).
std::optional<Os> os_before_reading(const HostOptions& options) {
  if (options.os) return *options.os;
  if (!options.cpuinfo_path) return native_os();
  return std::nullopt;
}

// The CPU of a machine whose CPU comes with its GPU (DGX Spark, GH200, a Mac).
CpuInfo system_cpu(const IntegratedSystem& s) {
  CpuInfo cpu;
  cpu.arch = s.arch;
  cpu.model = s.cpu;
  cpu.features.insert(s.features.begin(), s.features.end());
  cpu.source = "--gpus " + s.name;
  return cpu;
}

// A CPU known only by its architecture: no sample to read, so only the
// baseline targets (which need no feature) are known to run.
CpuInfo planned_cpu(const std::string& arch, std::string note) {
  CpuInfo cpu;
  cpu.arch = arch;
  cpu.source = "--arch";
  cpu.notes.push_back(std::move(note));
  return cpu;
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

HostFacts make_host_facts(CpuInfo cpu, GpuReport gpu, Os os, const KnowledgeBase& kb, const HostTables& t) {
  HostFacts h;
  h.os = os;
  h.platform = host_platform(cpu.arch, name_of(h.os));
  // The targets whose features the CPU has; a baseline needs none and runs on every CPU of the platform.
  for (const CpuIsa* isa : runnable_isas(cpu, h.platform, kb))
    if (!isa->baseline()) h.isas.push_back(isa->name);
  if (!h.isas.empty()) h.best_isa = h.isas.front();
  h.x86_64_level = x86_64_level(cpu, t);
  h.cpu = std::move(cpu);
  h.gpu = std::move(gpu);
  const GpuInfo* lowest = nullptr;
  for (const auto& g : h.gpu.gpus) {
    auto v = Version::parse(g.sm);
    if (v && (!lowest || *v < *Version::parse(lowest->sm))) lowest = &g;
  }
  if (lowest) h.conda_cuda_arch = lowest->sm;
  if (auto driver = Version::parse(h.gpu.driver); driver && !h.gpu.gpus.empty()) {
    const CudaToolkit* newest = nullptr;
    for (const auto& c : kb.cudas)
      if (c.min_driver && *c.min_driver <= *driver && (!newest || newest->version < c.version)) newest = &c;
    if (newest) h.conda_cuda = newest->version.str();
  }
  return h;
}

EarlyGpuQuery::EarlyGpuQuery(const HostOptions& options) {
  // Only where detect_host would ask the driver: no --gpus, on Linux.
  if (!options.gpus && os_before_reading(options) == Os::gnu_linux)
    report_ = std::async(std::launch::async, detect_gpus, options.gpu_cache);
}

std::optional<GpuReport> EarlyGpuQuery::take() {
  if (!report_.valid()) return std::nullopt;
  return report_.get();
}

HostFacts detect_host(const HostOptions& options, const KnowledgeBase& kb, const HostTables& t, EarlyGpuQuery* early) {
  std::optional<GpuReport> named_gpus;
  if (options.gpus) named_gpus = parse_gpu_spec(*options.gpus, kb, t);
  const IntegratedSystem* system = named_gpus ? t.system(named_gpus->system) : nullptr;
  if (system && options.os && *options.os != system->os)
    throw_file_error("", fmt::format("--os {}: {} runs {}", name_of(*options.os), system->name, name_of(system->os)));

  CpuInfo cpu;
  std::optional<Os> os = os_before_reading(options);
  if (options.cpuinfo_path) {
    std::string text = read_text(*options.cpuinfo_path);
    if (looks_like_sysctl(text)) {
      cpu = parse_sysctl(text, *options.cpuinfo_path, t);
      if (!os) os = Os::darwin;
    } else {
      cpu = parse_cpuinfo(text, *options.cpuinfo_path, t);
    }
    if (system && system->arch != cpu.arch)
      cpu.notes.push_back(fmt::format("{} has an {} CPU, but {} is {}: the CPU is read from the file", system->name,
                                      system->arch, *options.cpuinfo_path, cpu.arch));
  } else if (system) {
    cpu = system_cpu(*system);
    os = system->os;
  } else if (options.arch && (*options.arch != native_arch() || os != native_os())) {
    cpu = planned_cpu(*options.arch, fmt::format("--arch {}: no CPU sample, so only the {} baseline is known to run "
                                                 "(--cpuinfo FILE tells the CPU's features)",
                                                 *options.arch, *options.arch));
  } else if (os == Os::darwin && native_os() != Os::darwin) {
    // A Mac planned from another host: Apple silicon, the only Mac platform the knowledge base builds for.
    cpu = planned_cpu("aarch64",
                      "--os darwin without a sysctl sample: planned for an Apple silicon Mac (aarch64); "
                      "--arch x86_64 for an Intel Mac, or --gpus \"Apple M3\" to name the Mac");
  } else {
    cpu = live_cpu(t);
  }
  if (!os) os = Os::gnu_linux;  // a /proc/cpuinfo sample

  GpuReport gpu;
  if (named_gpus) {
    gpu = std::move(*named_gpus);
  } else if (os == Os::darwin) {
    gpu.source = "none";  // no NVIDIA on macOS; Apple's GPU is implied by the platform
  } else if (auto started = early ? early->take() : std::nullopt) {
    gpu = std::move(*started);
  } else {
    gpu = detect_gpus(options.gpu_cache);
  }
  return make_host_facts(std::move(cpu), std::move(gpu), *os, kb, t);
}

}  // namespace tailor
