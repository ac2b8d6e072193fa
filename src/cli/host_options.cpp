#include "cli/host_options.hpp"

namespace tailor {

HostOptions HostArgs::options() const {
  HostOptions o;
  if (!cpuinfo.empty()) o.cpuinfo_path = cpuinfo;
  if (!gpus.empty()) o.gpus = gpus;
  if (!os.empty()) o.os = kOperatingSystems.parse(os);  // CLI11 checked it is one
  if (!arch.empty()) o.arch = arch;
  if (no_cache) o.gpu_cache = GpuCache::bypass;
  return o;
}

void add_host_options(CLI::App& app, HostArgs& args) {
  app.add_option("--cpuinfo", args.cpuinfo,
                 "read a saved /proc/cpuinfo (or macOS 'sysctl -a' output) instead of this host's")
      ->type_name("FILE");
  app.add_option("--gpus", args.gpus,
                 "replace GPU detection: GPU[:DRIVER],... where GPU is an SM or a product, e.g. 9.0:580.65.06, "
                 "H100:550, 'DGX Spark', 'Apple M3', or 'none'")
      ->type_name("SPEC");
  app.add_option("--os", args.os, "the operating system to plan for")->check(CLI::IsMember(kOperatingSystems.names()));
  app.add_option("--arch", args.arch, "the CPU architecture to plan for, when no --cpuinfo sample tells it")
      ->check(CLI::IsMember({"x86_64", "aarch64"}));
  app.add_flag("--no-cache", args.no_cache,
               "ask NVML even when the driver and its GPUs are as they were when its last answer was kept "
               "(in $XDG_CACHE_HOME/tailor/gpus.json), and keep nothing");
}

}  // namespace tailor
