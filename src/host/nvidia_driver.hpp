#pragma once
/// The loaded NVIDIA kernel driver's version, from /proc/driver/nvidia/version
/// or /sys/module/nvidia/version: present even when no GPU can be queried.

#include <optional>
#include <string>
#include <string_view>

namespace tailor {

/// The version in the text of /proc/driver/nvidia/version ("NVRM version:
/// NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...")
/// or /sys/module/nvidia/version ("580.159.04"); nullopt if none.
std::optional<std::string> parse_driver_version(std::string_view text);

/// Reads the version files of this host; nullopt when no NVIDIA driver is loaded.
std::optional<std::string> read_driver_version();

}  // namespace tailor
