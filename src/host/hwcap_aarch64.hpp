#pragma once
/// CPU features from the kernel's auxiliary vector (getauxval AT_HWCAP and
/// AT_HWCAP2) on aarch64 Linux: what the kernel lets user space use, the same
/// source /proc/cpuinfo's `Features` line is printed from.

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "host/host_tables.hpp"

namespace tailor {

struct Hwcaps {
  uint64_t hwcap = 0;
  uint64_t hwcap2 = 0;
};

/// AT_HWCAP/AT_HWCAP2 of this process; nullopt unless built for aarch64 Linux.
std::optional<Hwcaps> read_hwcaps();

/// The features the bits of \a h name, in /proc/cpuinfo spelling.
std::set<std::string> hwcap_features(const Hwcaps& h, const HostTables& t);

/// Every name hwcap_features can report.
std::set<std::string> hwcap_feature_names(const HostTables& t);

}  // namespace tailor
