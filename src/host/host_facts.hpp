#pragma once
/// Everything tailor knows about a host: OS, CPU (features, runnable ISA
/// targets, psABI level) and GPUs. Gathered live, or from saved samples and
/// --gpus for planning another machine; `detect` prints it and `recommend`
/// decides with it.

#include <future>
#include <optional>
#include <string>
#include <vector>

#include "host/cpu_info.hpp"
#include "host/gpu_detect.hpp"
#include "host/gpu_info.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/platform.hpp"

namespace tailor {

struct HostFacts {
  Os os = Os::gnu_linux;
  std::string platform;  ///< "x86_64-linux"
  CpuInfo cpu;
  std::vector<std::string> isas;  ///< runnable ISA targets, best first
  std::string best_isa;           ///< empty when none of the KB's targets runs
  std::string x86_64_level;       ///< "v4"; empty off x86
  GpuReport gpu;
  /// What conda and pixi call this machine (their virtual packages):
  /// __cuda_arch (CEP 46) is the lowest compute capability of its GPUs,
  /// "major.minor" with no a/f suffix; __cuda the newest CUDA its driver
  /// runs, here the newest toolkit of the knowledge base whose minimum driver
  /// the driver meets. Empty where there is no GPU or no driver version.
  std::string conda_cuda_arch, conda_cuda;
};

/// Where the facts come from; unset members mean "this host".
struct HostOptions {
  std::optional<std::string> cpuinfo_path;  ///< saved /proc/cpuinfo or sysctl output
  std::optional<std::string> gpus;          ///< --gpus SPEC
  std::optional<Os> os;
  std::optional<std::string> arch;     ///< "x86_64" or "aarch64": a CPU of it with no features known
  GpuCache gpu_cache = GpuCache::use;  ///< --no-cache: ask NVML, keep nothing
};

/// Derives ISAs, best ISA, level and platform from \a cpu, \a gpu and \a os.
HostFacts make_host_facts(CpuInfo cpu, GpuReport gpu, Os os, const KnowledgeBase& kb, const HostTables& t);

/// The live GPU query of detect_host, started before the caller loads the
/// knowledge base: NVML's initialisation spends tens of milliseconds waiting
/// on the kernel driver, time in which the knowledge base loads on the main
/// thread. Starts nothing where \a options name the GPUs or may name a macOS
/// host (detect_host then decides as before).
class EarlyGpuQuery {
 public:
  explicit EarlyGpuQuery(const HostOptions& options);
  /// The report, once: waits for the query; nullopt when none was started.
  std::optional<GpuReport> take();

 private:
  std::future<GpuReport> report_;
};

/// Gathers the facts. On the live host, x86 CPUID (or aarch64 HWCAP) is
/// cross-checked with /proc/cpuinfo: a feature counts only when both report
/// it, and every disagreement becomes a note. Throws DiagnosticError for
/// unreadable or malformed inputs.
/// \a early, when given, is the GPU query started for the same \a options.
HostFacts detect_host(const HostOptions& options, const KnowledgeBase& kb, const HostTables& t,
                      EarlyGpuQuery* early = nullptr);

/// Reconciles \a cpu with the features a second source (\a other, named
/// \a other_name) reports, over the names that source can report (\a
/// comparable): keeps a feature only when both agree, notes each difference.
void cross_check(CpuInfo& cpu, const std::set<std::string>& other, const std::set<std::string>& comparable,
                 std::string_view other_name);

}  // namespace tailor
