#pragma once
/// How a user checks that their CPU has the features of a catalog CPU
/// choice: one shell command for Linux (/proc/cpuinfo) and one for macOS
/// (sysctl), spelled with the names each system uses (data/host_features.toml).

#include <string>
#include <vector>

#include "host/host_tables.hpp"

namespace tailor {

struct FeatureCheck {
  std::string linux_command;  ///< empty when there is nothing to check
  std::string macos_command;  ///< empty when macOS cannot report these features
};

/// The commands that show \a features (cpuinfo spelling) on \a arch ("x86_64", "aarch64").
FeatureCheck feature_check(const std::vector<std::string>& features, const std::string& arch, const HostTables& t);

}  // namespace tailor
