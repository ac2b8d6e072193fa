#include "host/gpu_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include <nlohmann/json.hpp>

#include "host/nvidia_driver.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// Bumped whenever the file's shape or what a report holds changes: an older
// file is then a miss, not a misreading.
constexpr int kFormat = 1;
constexpr uint64_t kMaxFileBytes = 1 << 20;  // a cache file, or one of the driver's
constexpr uint64_t kMaxIndex = 1 << 16;

// The whole of a small file (procfs files report size 0: read to the end);
// with \a only_ours, only when it is a regular file of this user, not a link.
std::optional<std::string> read_small(const fs::path& path, bool only_ours = false) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (only_ours ? O_NOFOLLOW : 0));
  if (fd < 0) return std::nullopt;
  struct stat st {};
  bool readable = !only_ours || (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
                                 static_cast<uint64_t>(st.st_size) <= kMaxFileBytes);
  std::string text;
  bool ok = readable && !read_bounded(fd, only_ours ? static_cast<uint64_t>(st.st_size) : 0, text);
  ::close(fd);
  if (!ok || text.size() > kMaxFileBytes) return std::nullopt;
  return text;
}

std::optional<std::string> absolute_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || v[0] != '/') return std::nullopt;
  return std::string(v);
}

// The report answers for every GPU the driver lists, each named, with an SM
// and the driver version the version file names.
bool covers(const GpuReport& report, const DriverState& state) {
  if (report.gpus.size() != state.gpus.size() || report.driver.empty()) return false;
  for (const auto& g : report.gpus)
    if (g.name.empty() || g.sm.empty() || g.driver != report.driver) return false;
  return parse_driver_version(state.version_text) == report.driver;
}

}  // namespace

std::optional<DriverState> read_driver_state(const fs::path& proc) {
  DriverState s;
  auto boot = read_small(proc / "sys/kernel/random/boot_id");
  auto version = read_small(proc / "driver/nvidia/version");
  if (!boot || !version) return std::nullopt;
  s.boot_id = std::move(*boot);
  s.version_text = std::move(*version);
  std::error_code ec;
  for (fs::directory_iterator it(proc / "driver/nvidia/gpus", ec), end; !ec && it != end; it.increment(ec)) {
    auto info = read_small(it->path() / "information");
    if (!info) return std::nullopt;
    s.gpus.emplace(it->path().filename().string(), std::move(*info));
  }
  if (ec) return std::nullopt;
  return s;
}

std::optional<fs::path> gpu_cache_path() {
  if (auto xdg = absolute_env("XDG_CACHE_HOME")) return fs::path(*xdg) / "tailor/gpus.json";
  if (auto home = absolute_env("HOME")) return fs::path(*home) / ".cache/tailor/gpus.json";
  return std::nullopt;
}

bool cacheable(const GpuReport& report, const DriverState& state) {
  return report.source == "nvml" && report.notes.empty() && covers(report, state);
}

std::string gpu_cache_text(const DriverState& state, const GpuReport& report) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : report.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"sm", g.sm},
                    {"memory_mib", g.memory_mib ? nlohmann::json(*g.memory_mib) : nlohmann::json()}});
  nlohmann::json j = {
      {"format", kFormat},
      {"state", {{"boot_id", state.boot_id}, {"version", state.version_text}, {"gpus", state.gpus}}},
      {"report", {{"driver", report.driver}, {"gpus", gpus}}},
  };
  return j.dump(1) + "\n";
}

std::optional<GpuReport> parse_gpu_cache(std::string_view text, const DriverState& state) {
  try {
    auto j = nlohmann::json::parse(text);
    if (j.at("format") != kFormat) return std::nullopt;
    const auto& s = j.at("state");
    DriverState recorded{s.at("boot_id").get<std::string>(), s.at("version").get<std::string>(),
                         s.at("gpus").get<std::map<std::string, std::string>>()};
    if (recorded != state) return std::nullopt;
    const auto& r = j.at("report");
    GpuReport report;
    report.source = kCachedNvmlSource;
    report.driver = r.at("driver").get<std::string>();
    for (const auto& g : r.at("gpus")) {
      GpuInfo info;
      if (!g.at("index").is_number_unsigned() || g.at("index").get<uint64_t>() > kMaxIndex) return std::nullopt;
      info.index = g.at("index").get<int>();
      info.name = g.at("name").get<std::string>();
      info.sm = g.at("sm").get<std::string>();
      info.driver = report.driver;
      if (const auto& m = g.at("memory_mib"); !m.is_null()) {
        if (!m.is_number_unsigned()) return std::nullopt;
        info.memory_mib = m.get<uint64_t>();
      }
      report.gpus.push_back(std::move(info));
    }
    // What was kept must still be what may be kept (a hand-edited file is a miss).
    if (!covers(report, state)) return std::nullopt;
    return report;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> read_gpu_cache_file(const fs::path& file) { return read_small(file, true); }

bool write_gpu_cache_file(const fs::path& file, std::string_view text) {
  std::error_code ec;
  fs::create_directories(file.parent_path().parent_path(), ec);
  // The answer describes this user's machine: the directory is theirs alone.
  if (::mkdir(file.parent_path().c_str(), 0700) != 0 && errno != EEXIST) return false;
  try {
    write_file_atomically(file, text, fs::perms::owner_read | fs::perms::owner_write);
  } catch (const DiagnosticError&) {
    return false;
  }
  return true;
}

GpuReport cached_gpu_query(const GpuCacheSite& site, const std::function<GpuReport()>& query) {
  std::optional<DriverState> before = site.file ? read_driver_state(site.proc) : std::nullopt;
  if (before)
    if (auto text = read_gpu_cache_file(*site.file))
      if (auto cached = parse_gpu_cache(*text, *before)) return *cached;
  GpuReport report = query();
  if (before && cacheable(report, *before) && read_driver_state(site.proc) == before)
    write_gpu_cache_file(*site.file, gpu_cache_text(*before, report));
  return report;
}

}  // namespace tailor
