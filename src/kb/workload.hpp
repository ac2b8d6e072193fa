#pragma once
/// The workloads a CPU target can be tuned for: the values of an ISA's
/// `workload` in cpu_isas.toml, and what `tailor recommend --workload` takes.

#include <string>
#include <vector>

namespace tailor {

/// "general", "bf16-training", "int8-inference"; the first is the default.
inline const std::vector<std::string>& workload_names() {
  static const std::vector<std::string> names = {"general", "bf16-training", "int8-inference"};
  return names;
}

}  // namespace tailor
