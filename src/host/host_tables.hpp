#pragma once
/// What tailor knows about reading a CPU: CPUID bits and the XSAVE states
/// they need, aarch64 HWCAP bits, the x86-64 psABI levels, ARM implementer
/// and part codes, and the names macOS gives features. Data, not code: they
/// are read from data/host_features.toml (embedded in the binary), with the
/// same closed schema and invariant checks as the knowledge base.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kb/platform.hpp"

namespace tailor {

struct CpuidBit {
  std::string feature;  ///< /proc/cpuinfo spelling
  std::string reg;      ///< "1.ecx", "7.ebx", "7.1.eax", "0x80000001.edx", ...
  int bit = 0;
  std::vector<std::string> xsave;  ///< XSAVE states (xsave_state names) the OS must enable
};

struct XsaveState {
  std::string name;
  uint64_t xcr0_mask = 0;
};

struct HwcapBit {
  std::string feature;
  bool hwcap2 = false;  ///< AT_HWCAP2 rather than AT_HWCAP
  int bit = 0;
};

struct IsaLevel {
  std::string name;  ///< "v1" ... "v4"
  std::vector<std::string> features;
};

struct ArmCode {
  unsigned implementer = 0;  ///< parts only: the implementer they belong to
  unsigned code = 0;
  std::string name;
};

/// A machine whose CPU comes with its GPU (DGX Spark, GH200, Jetson, a Mac):
/// host_features.toml [[system]].
struct IntegratedSystem {
  std::string name;                      ///< "DGX Spark"
  std::vector<std::string> also_called;  ///< "GB10"
  std::string gpu_sm;                    ///< its NVIDIA GPU's compute capability; empty on a Mac
  Os os = Os::gnu_linux;
  std::string arch;                   ///< "aarch64"
  std::string cpu;                    ///< "72 Neoverse V2 (NVIDIA Grace, Armv9.0-A)"
  std::vector<std::string> features;  ///< /proc/cpuinfo spelling
  std::string source;
};

struct HostTables {
  std::vector<XsaveState> xsave_states;
  std::vector<CpuidBit> cpuid;
  std::vector<HwcapBit> hwcap;
  std::vector<IsaLevel> x86_64_levels;  ///< each includes the ones before it
  std::vector<ArmCode> arm_implementers, arm_parts;
  std::vector<std::pair<std::string, std::string>> darwin_arm;  ///< sysctl key -> feature
  std::vector<std::pair<std::string, std::string>> darwin_x86;  ///< machdep flag (lower case) -> feature
  std::vector<IntegratedSystem> systems;

  /// The embedded table, then \a overlay_dir/host_features.toml when there is
  /// one (its lists replace the embedded ones). Throws DiagnosticError for bad
  /// data, invariant violations included.
  static HostTables load(const std::optional<std::filesystem::path>& overlay_dir = std::nullopt);
  /// Parses one file's text (for tests); lists it lacks stay as in \a base.
  static HostTables parse(const std::string& path, std::string text, HostTables base = {});

  const XsaveState* xsave_state(std::string_view name) const;
  const char* implementer_name(unsigned code) const;
  const char* part_name(unsigned implementer, unsigned code) const;
  /// The system \a word names (its name or another, spelled as people do:
  /// "dgx spark", "GB10"); null when none.
  const IntegratedSystem* system(std::string_view word) const;
  /// Every system's name, for hints.
  std::vector<std::string> system_names() const;
};

/// Broken invariants, one line each (empty: none).
std::vector<std::string> check_invariants(const HostTables& t);

/// The embedded tables, loaded once, without any overlay: for tests and
/// fuzzers. A command's tables are its Session's (cli/session.hpp), loaded
/// with the `--kb`/`TAILOR_KB` overlay like every other table.
const HostTables& embedded_host_tables();

}  // namespace tailor
