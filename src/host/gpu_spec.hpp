#pragma once
/// --gpus SPEC: the GPUs of a machine written by hand, to plan for another
/// host or to test. `9.0:580.65.06` is one GPU of compute capability 9.0 with
/// driver 580.65.06; several are comma-separated (`9.0:580.65.06,8.6`); `none`
/// is a host without NVIDIA GPUs. One host has one driver.
///
/// People name GPUs by product and drivers by branch: a GPU may be a product
/// of the knowledge base (`H100`, `RTX 4090`, `GB10`) or a machine whose CPU
/// comes with it (host_features.toml [[system]]: `DGX Spark`, `GH200`,
/// `Apple M3`), and a driver `550` or `550.54` as well as `550.54.14`. A
/// branch alone stands for the lowest release of it the knowledge base knows
/// (a CUDA toolkit's minimum), and a note says so.

#include <string_view>

#include "host/gpu_info.hpp"
#include "host/host_tables.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

/// Parses \a spec. Throws DiagnosticError (unknown GPU, bad driver version,
/// two different drivers, empty entries). GpuReport::system names the
/// integrated system the spec named, if any.
GpuReport parse_gpu_spec(std::string_view spec, const KnowledgeBase& kb, const HostTables& t);

/// The driver a user wrote (`550`, `550.54`, `580.65.06`) as a release:
/// a branch alone becomes the lowest release of it the knowledge base knows,
/// and \a note says so. Nullopt when \a text is no driver version.
std::optional<std::string> driver_release(std::string_view text, const KnowledgeBase& kb, std::string& note);

}  // namespace tailor
