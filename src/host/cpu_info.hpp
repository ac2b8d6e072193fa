#pragma once
/// What a CPU is and which features it has, read from /proc/cpuinfo (Linux,
/// x86_64 `flags` and aarch64 `Features`) or from `sysctl` output (macOS).
/// Feature names are spelled as /proc/cpuinfo spells them, because the
/// knowledge base's `requires` lists use those names.

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "host/host_tables.hpp"

namespace tailor {

struct CpuInfo {
  std::string arch;                ///< "x86_64" or "aarch64"
  std::string vendor;              ///< "GenuineIntel", "AuthenticAMD", "ARM", "Apple"
  std::string model;               ///< "Intel(R) Xeon(R) Processor", "Neoverse-V2 (0xd4f)"
  std::set<std::string> features;  ///< cpuinfo spelling, sorted
  std::string source;              ///< where the facts came from: "/proc/cpuinfo", "cpuid", ...
  std::vector<std::string> notes;  ///< disagreements between sources, and similar

  bool has(std::string_view feature) const { return features.count(std::string(feature)) != 0; }
};

/// Parses the first processor block of a /proc/cpuinfo text. The architecture
/// follows from the key that lists features (`flags` on x86, `Features` on
/// aarch64); \a source names the text in diagnostics. Throws DiagnosticError
/// when no feature list is found.
CpuInfo parse_cpuinfo(std::string_view text, std::string_view source, const HostTables& t);

/// Parses `sysctl -a` (or `sysctl hw machdep`) output of a Mac: brand string
/// and `hw.optional.*` flags, translated to cpuinfo names. Throws
/// DiagnosticError when the text has no `hw.optional` or `machdep.cpu` keys.
CpuInfo parse_sysctl(std::string_view text, std::string_view source, const HostTables& t);

/// Whether \a text looks like sysctl output rather than /proc/cpuinfo.
bool looks_like_sysctl(std::string_view text);

}  // namespace tailor
