#include "catalog/feature_checks.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/host_tables.hpp"

namespace tailor {

namespace {

// The machdep.cpu flag an Intel Mac prints for a cpuinfo feature: the table's
// exceptions, else upper case with '_' as '.'.
std::string darwin_x86_flag(const std::string& feature) {
  for (const auto& [flag, f] : host_tables().darwin_x86)
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

FeatureCheck feature_check(const std::vector<std::string>& features, const std::string& arch) {
  FeatureCheck check;
  if (features.empty()) return check;
  check.linux_command = fmt::format("grep -o -w -E '{}' /proc/cpuinfo | sort -u", fmt::join(features, "|"));
  if (arch == "x86_64") {
    std::vector<std::string> flags;
    for (const auto& f : features) flags.push_back(darwin_x86_flag(f));
    check.macos_command = fmt::format(
        "sysctl -n machdep.cpu.features machdep.cpu.leaf7_features | tr ' ' '\\n' | grep -x -E '{}' | sort -u",
        fmt::join(flags, "|"));
    return check;
  }
  std::vector<std::string> keys;  // one key per feature: the first the table names
  for (const auto& f : features) {
    auto it = std::find_if(host_tables().darwin_arm.begin(), host_tables().darwin_arm.end(),
                           [&](const auto& kv) { return kv.second == f; });
    if (it == host_tables().darwin_arm.end()) return check;  // macOS cannot report it: no command that would mislead
    if (std::find(keys.begin(), keys.end(), it->first) == keys.end()) keys.push_back(it->first);
  }
  check.macos_command = fmt::format("sysctl {}", fmt::join(keys, " "));
  return check;
}

}  // namespace tailor
