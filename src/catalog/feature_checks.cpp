#include "catalog/feature_checks.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/host_tables.hpp"
#include "util/shell_command.hpp"

namespace tailor {

namespace {

// The machdep.cpu flag an Intel Mac prints for a cpuinfo feature: the table's
// exceptions, else upper case with '_' as '.'.
std::string darwin_x86_flag(const std::string& feature, const HostTables& t) {
  for (const auto& [flag, f] : t.darwin_x86)
    if (f == feature) {
      std::string upper = flag;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return upper;
    }
  std::string flag = feature;
  for (char& c : flag) c = c == '_' ? '.' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return flag;
}

}  // namespace

FeatureCheck feature_check(const std::vector<std::string>& features, const std::string& arch, const HostTables& t) {
  FeatureCheck check;
  if (features.empty()) return check;
  // Feature names are data (an overlay may name any): every word goes through the one shell gate.
  const std::string linux_pattern = fmt::format("{}", fmt::join(features, "|"));
  check.linux_command = shell_command({{"grep", "-o", "-w", "-E", linux_pattern, "/proc/cpuinfo"}, {"sort", "-u"}});
  if (arch == "x86_64") {
    std::vector<std::string> flags;
    for (const auto& f : features) flags.push_back(darwin_x86_flag(f, t));
    const std::string pattern = fmt::format("{}", fmt::join(flags, "|"));
    check.macos_command = shell_command({{"sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"},
                                         {"tr", " ", "\\n"},
                                         {"grep", "-x", "-E", pattern},
                                         {"sort", "-u"}});
    return check;
  }
  std::vector<std::string> keys;  // one key per feature: the first the table names
  for (const auto& f : features) {
    auto it = std::find_if(t.darwin_arm.begin(), t.darwin_arm.end(), [&](const auto& kv) { return kv.second == f; });
    if (it == t.darwin_arm.end()) return check;  // macOS cannot report it: no command that would mislead
    if (std::find(keys.begin(), keys.end(), it->first) == keys.end()) keys.push_back(it->first);
  }
  keys.insert(keys.begin(), "sysctl");
  check.macos_command = shell_command({keys});
  return check;
}

}  // namespace tailor
