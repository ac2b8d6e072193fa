#pragma once
/// --gpus SPEC: the GPUs of a machine written by hand, to plan for another
/// host or to test. `9.0:580.65.06` is one GPU of compute capability 9.0 with
/// driver 580.65.06; several are comma-separated (`9.0:580.65.06,8.6`); `none`
/// is a host without NVIDIA GPUs. One host has one driver.

#include <string_view>

#include "host/gpu_info.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

/// Parses \a spec. Throws DiagnosticError (unknown compute capability, bad
/// driver version, two different drivers, empty entries).
GpuReport parse_gpu_spec(std::string_view spec, const KnowledgeBase& kb);

}  // namespace tailor
