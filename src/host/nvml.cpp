#include "host/nvml.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

namespace tailor {

namespace {

// The few NVML declarations tailor uses (nvml.h, NVML API reference); the
// versioned symbols are those nvml.h maps the plain names to.
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr unsigned kNameSize = 96;     // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kVersionSize = 80;  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE

using InitFn = nvmlReturn_t (*)();
using CountFn = nvmlReturn_t (*)(unsigned*);
using HandleFn = nvmlReturn_t (*)(unsigned, nvmlDevice_t*);
using NameFn = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned);
using CapabilityFn = nvmlReturn_t (*)(nvmlDevice_t, int*, int*);
using MemoryFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*);
using DriverFn = nvmlReturn_t (*)(char*, unsigned);
using ErrorStringFn = const char* (*)(nvmlReturn_t);

// Opened once and never closed: NVML stays initialised until the process
// exits (see detect_with_nvml), so its library must stay loaded.
class Library {
 public:
  explicit Library(const char* name) : handle_(::dlopen(name, RTLD_NOW | RTLD_LOCAL)) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  explicit operator bool() const { return handle_ != nullptr; }
  template <class F>
  F get(const char* symbol) const {
    return reinterpret_cast<F>(::dlsym(handle_, symbol));
  }

 private:
  void* handle_;
};

}  // namespace

std::optional<GpuReport> detect_with_nvml(std::string& why_not) {
  static const Library lib("libnvidia-ml.so.1");
  if (!lib) {
    why_not = "libnvidia-ml.so.1 not found";
    return std::nullopt;
  }
  auto init = lib.get<InitFn>("nvmlInit_v2");
  auto count_fn = lib.get<CountFn>("nvmlDeviceGetCount_v2");
  auto handle_fn = lib.get<HandleFn>("nvmlDeviceGetHandleByIndex_v2");
  auto name_fn = lib.get<NameFn>("nvmlDeviceGetName");
  auto cap_fn = lib.get<CapabilityFn>("nvmlDeviceGetCudaComputeCapability");
  auto mem_fn = lib.get<MemoryFn>("nvmlDeviceGetMemoryInfo");
  auto driver_fn = lib.get<DriverFn>("nvmlSystemGetDriverVersion");
  auto error_string = lib.get<ErrorStringFn>("nvmlErrorString");
  if (!init || !count_fn || !handle_fn || !cap_fn || !driver_fn) {
    why_not = "libnvidia-ml.so.1 lacks nvmlInit_v2 or another needed function (driver too old)";
    return std::nullopt;
  }
  auto describe = [&](nvmlReturn_t rc) {
    const char* s = error_string ? error_string(rc) : nullptr;
    return s ? std::string(s) : fmt::format("NVML error {}", rc);
  };
  if (nvmlReturn_t rc = init(); rc != kNvmlSuccess) {
    why_not = fmt::format("nvmlInit failed: {}", describe(rc));
    return std::nullopt;
  }
  GpuReport r;
  r.source = "nvml";
  char version[kVersionSize] = {};
  if (driver_fn(version, kVersionSize) == kNvmlSuccess) r.driver = version;
  unsigned count = 0;
  if (nvmlReturn_t rc = count_fn(&count); rc != kNvmlSuccess) {
    why_not = fmt::format("nvmlDeviceGetCount failed: {}", describe(rc));
    return std::nullopt;
  }
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (handle_fn(i, &dev) != kNvmlSuccess) {
      r.notes.push_back(fmt::format("NVML could not open GPU {}", i));
      continue;
    }
    GpuInfo g;
    g.index = static_cast<int>(i);
    g.driver = r.driver;
    char name[kNameSize] = {};
    if (name_fn && name_fn(dev, name, kNameSize) == kNvmlSuccess) g.name = name;
    int major = 0, minor = 0;
    if (cap_fn(dev, &major, &minor) == kNvmlSuccess) g.sm = fmt::format("{}.{}", major, minor);
    nvmlMemory_t mem{};
    if (mem_fn && mem_fn(dev, &mem) == kNvmlSuccess) g.memory_mib = mem.total / (1024ull * 1024ull);
    r.gpus.push_back(std::move(g));
  }
  // No nvmlShutdown: tailor exits soon after asking, the kernel releases
  // NVML's handles with the process, and the shutdown alone took as long as
  // the initialisation (9 ms each on an H100). nvmlInit counts its callers,
  // so asking again in the same process stays correct.
  return r;
}

}  // namespace tailor
