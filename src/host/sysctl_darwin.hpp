#pragma once
/// The CPU facts of a Mac through sysctl(3), as the text `sysctl -a` would
/// print for the keys parse_sysctl reads (so one parser serves the live host
/// and saved samples).

#include <optional>
#include <string>

namespace tailor {

/// "key: value" lines for the CPU keys of this Mac; nullopt on other systems.
std::optional<std::string> read_sysctl_text();

}  // namespace tailor
