#pragma once
/// The nvidia-smi fallback for GPU detection: the query tailor runs, and the
/// parser of its CSV answer (one line per GPU).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/gpu_info.hpp"

namespace tailor {

/// The command line tailor runs; its fields are what parse_nvidia_smi_csv reads.
inline constexpr const char* kNvidiaSmiQuery =
    "nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv,noheader";

/// Parses the output of kNvidiaSmiQuery: `0, NVIDIA H200, 9.0, 580.159.04,
/// 143771 MiB`. "No devices were found" gives an empty list. Throws
/// DiagnosticError (with \a source and the line) for a malformed line.
std::vector<GpuInfo> parse_nvidia_smi_csv(std::string_view text, std::string_view source = "nvidia-smi");

/// Runs kNvidiaSmiQuery; nullopt when nvidia-smi cannot be run or fails.
std::optional<std::string> run_nvidia_smi();

}  // namespace tailor
