#include "kb/driver_rule.hpp"

#include <fmt/format.h>

namespace tailor {

namespace {
// "an R570 driver" for a branch, "driver 580.82.07 or newer" for a release.
std::string needs_text(const Version& v) {
  return v.size() == 1 ? fmt::format("an R{} driver", v.major()) : fmt::format("driver {} or newer", v.str());
}
}  // namespace

std::optional<Version> cuda_floor(const CudaToolkit& cuda) {
  if (cuda.minor_compat_driver) return cuda.minor_compat_driver;
  return cuda.min_driver;
}

std::optional<DriverFloor> driver_floor(const CudaToolkit& cuda, const GpuArch* gpu) {
  std::optional<Version> base = cuda_floor(cuda);
  DriverFloor out;
  if (base) {
    out.floor = *base;
    out.why = cuda.minor_compat_driver
                  ? fmt::format("CUDA {}.x runs on driver {} and newer through minor-version compatibility",
                                cuda.version.major(), driver_text(*base))
                  : fmt::format("CUDA {} needs driver {}", cuda.version.str(), base->str());
    out.source = cuda.source;
  }
  if (gpu && gpu->first_driver && (!base || *base < *gpu->first_driver)) {
    out.floor = *gpu->first_driver;
    out.gpu = gpu;
    out.why = fmt::format("{} needs {}", gpu_phrase(*gpu), needs_text(*gpu->first_driver));
    out.source = gpu->driver_source;
  }
  if (!base && !out.gpu) return std::nullopt;
  return out;
}

bool written_floor_meets(std::string_view written, const Version& floor) {
  auto w = Version::parse(std::string(written));
  if (!w) return true;  // not a number: nothing to judge
  if (w->size() == 1) return w->major() >= floor.major();
  return !(*w < floor);
}

std::string written_floor(const CudaToolkit& cuda, const std::vector<const GpuArch*>& gpus, const std::string& team) {
  std::optional<Version> top;
  bool team_meets = !team.empty() && Version::parse(team);
  std::vector<const GpuArch*> judged = gpus;
  if (judged.empty()) judged.push_back(nullptr);
  for (const GpuArch* g : judged) {
    auto f = driver_floor(cuda, g);
    if (!f) continue;
    if (!top || *top < f->floor) top = f->floor;
    if (team_meets && !written_floor_meets(team, f->floor)) team_meets = false;
  }
  if (team_meets) return team;
  if (team.empty() && cuda.min_driver && (!top || *top < *cuda.min_driver)) top = cuda.min_driver;
  return top ? std::to_string(top->major()) : team;
}

std::string driver_text(const Version& v) { return v.size() == 1 ? fmt::format("R{}", v.major()) : v.str(); }

std::string gpu_phrase(const GpuArch& g) {
  const std::string& name = g.products.empty() ? g.family : g.products.front();
  // The article by how the first letter is said: "an RTX", "an H100", "a B200".
  char c = name.empty() ? 'x' : name.front();
  bool vowel_sound = std::string_view("AEFHILMNORSXaeiou").find(c) != std::string_view::npos;
  return fmt::format("{} {} ({})", vowel_sound ? "an" : "a", name, g.display());
}

DriverSupport driver_supports(const GpuArch& gpu, const Version& driver) {
  if (gpu.first_driver && driver < *gpu.first_driver &&
      !(gpu.first_driver->size() == 1 && driver.major() == gpu.first_driver->major()))
    return DriverSupport::too_old;
  if (gpu.last_driver && driver.major() > gpu.last_driver->major()) return DriverSupport::too_new;
  return DriverSupport::supported;
}

std::string unsupported_text(const GpuArch& gpu, const Version& driver, DriverSupport s) {
  if (s == DriverSupport::too_new)
    return fmt::format("driver {} no longer supports {}: the {} branch is the last for {}", driver.str(), gpu.family,
                       driver_text(*gpu.last_driver), gpu_phrase(gpu));
  if (s == DriverSupport::too_old)
    return fmt::format("driver {} is too old for {}: {} needs {}", driver.str(), gpu.family, gpu_phrase(gpu),
                       needs_text(*gpu.first_driver));
  return "";
}

}  // namespace tailor
