#pragma once
/// The platforms tailor builds for (data/platforms.toml): the Nix system, the
/// ELF machine of its binaries and the CI runner labels of its build jobs.
/// Read with the knowledge base (KnowledgeBase::platforms): an overlay's
/// platforms.toml gives a site its own runner labels and names, field by field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/enum_names.hpp"

namespace tailor {

/// The kernels of the Nix systems tailor builds for (nixpkgs lib/systems/parse.nix).
enum class Os { gnu_linux, darwin };
inline constexpr EnumNames<Os, 2> kOperatingSystems{{{{Os::gnu_linux, "linux"}, {Os::darwin, "darwin"}}}};
constexpr std::string_view name_of(Os e) { return kOperatingSystems.name(e); }

struct Platform {
  std::string system;  ///< "x86_64-linux", as nixpkgs and variant names write it
  Os os = Os::gnu_linux;
  std::string arch;                     ///< "x86_64", "aarch64"
  std::string display;                  ///< how pages name it: "Linux, ARM64 (aarch64)"
  std::optional<uint16_t> elf_machine;  ///< e_machine; nullopt where binaries are not ELF
  bool remote_builder = false;          ///< tailor builders may name machines of it
  std::vector<std::string> github_runs_on;
  std::vector<std::string> gitlab_tags;
};

class TableReader;

struct PlatformTable {
  std::vector<Platform> platforms;
  std::vector<std::string> drift_github_runs_on, drift_gitlab_tags;  ///< the drift job's runner

  /// The platform of Nix system \a system; null when tailor does not build for it.
  const Platform* find(std::string_view system) const;
  /// Every platform's system, in the file's order.
  std::vector<std::string> systems() const;
  /// Reads [drift_job] of \a root (data/platforms.toml's schema, closed); a
  /// label list it does not name keeps the value below (an overlay's).
  void read_drift_job(TableReader& root);
};

/// One [[platform]] entry (data/platforms.toml's schema, closed).
Platform read_platform(TableReader& r);

/// "[a, b, c]": labels as a YAML flow sequence (they are plain words).
std::string flow_list(const std::vector<std::string>& labels);

}  // namespace tailor
