#pragma once
/// NVML's answer about this host's GPUs, kept between runs. Asking NVML costs
/// about 17 ms on an H100 however little is asked (nvmlInit_v2, then a fixed
/// wait while it attaches the first GPU), most of what `tailor detect` takes.
/// The kernel driver describes its state in a few files that read in well
/// under a millisecond; an answer is reused only while that state is exactly
/// the one it was recorded in: the same boot, the same driver version text,
/// and the same GPUs, each with the same /proc/driver/nvidia/gpus/*/information
/// text (model, UUID, video BIOS, bus location, firmware). A new driver, a GPU
/// swapped or added, or a reboot (which applies pending ECC and MIG changes)
/// asks NVML again.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "host/gpu_info.hpp"

namespace tailor {

/// What the kernel driver shows of itself and its GPUs.
struct DriverState {
  std::string boot_id;                      ///< /proc/sys/kernel/random/boot_id
  std::string version_text;                 ///< /proc/driver/nvidia/version
  std::map<std::string, std::string> gpus;  ///< directory under /proc/driver/nvidia/gpus → its information text
  bool operator==(const DriverState&) const = default;
};

/// The state under \a proc (this host's: "/proc"); nullopt when no NVIDIA
/// driver is loaded or a file cannot be read.
std::optional<DriverState> read_driver_state(const std::filesystem::path& proc);

/// Where the answers are kept: $XDG_CACHE_HOME/tailor/gpus.json, else
/// $HOME/.cache/tailor/gpus.json; nullopt when neither names an absolute path.
std::optional<std::filesystem::path> gpu_cache_path();

/// The source a cached answer reports: NVML's answer, recorded earlier.
inline constexpr std::string_view kCachedNvmlSource = "nvml, cached";

/// Whether \a report may be kept for \a state: NVML answered, without a note,
/// for as many GPUs as the driver lists, each with a name and an SM, and with
/// the driver version the version file names.
bool cacheable(const GpuReport& report, const DriverState& state);

/// The text of a cache file that keeps \a report (cacheable) for \a state.
std::string gpu_cache_text(const DriverState& state, const GpuReport& report);

/// The report a cache file's \a text keeps, with source kCachedNvmlSource,
/// when it was recorded in \a state; nullopt when it was recorded in another
/// state or \a text is not a cache file of this format. Never throws on bad
/// text: a damaged cache is only a miss.
std::optional<GpuReport> parse_gpu_cache(std::string_view text, const DriverState& state);

/// The cache file's text when it is a regular file (not a link) owned by this
/// user and not over 1 MiB; nullopt otherwise.
std::optional<std::string> read_gpu_cache_file(const std::filesystem::path& file);

/// Writes \a file atomically, mode 0600, creating its folder with mode 0700;
/// false when it could not, leaving whatever was there.
bool write_gpu_cache_file(const std::filesystem::path& file, std::string_view text);

/// Where cached_gpu_query looks: the proc root and the cache file (none: no cache).
struct GpuCacheSite {
  std::filesystem::path proc = "/proc";
  std::optional<std::filesystem::path> file;
};

/// \a query's report, or the one cached at \a site when it was recorded in the
/// driver state \a site shows now. A fresh cacheable report replaces the cache
/// when the state stayed the same while \a query ran. Reading or writing the
/// cache never fails the query: a cache that cannot be read is a miss, and one
/// that cannot be written is left as it is. The file is written atomically
/// with mode 0600 in a directory of mode 0700, and read only when it is a
/// regular file of this user.
GpuReport cached_gpu_query(const GpuCacheSite& site, const std::function<GpuReport()>& query);

}  // namespace tailor
