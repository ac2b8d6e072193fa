#pragma once
/// The checks `tailor verify` makes by running the artifact's own Python:
/// import torch, versions inside the variant's ranges, CUDA availability, the
/// arch list against the fatbin scan, a tiny CPU and GPU computation, and the
/// CPU capability ATen dispatches to. Each is skipped, with the reason, when
/// the host lacks what it needs (no Python, no torch, no GPU).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/inspection.hpp"
#include "kb/knowledge_base.hpp"
#include "verify/check.hpp"
#include "verify/promise.hpp"
#include "verify/prune_records.hpp"

namespace tailor {

/// Where torch is and which interpreter imports it.
struct PythonTarget {
  std::filesystem::path site_packages;  ///< the directory holding torch/
  std::filesystem::path python;         ///< empty: none found
  std::string why;                      ///< how they were found, or why not
};

/// Finds the Python package \a module ("torch", the variant's probe) under
/// \a root (a site-packages dir, MODULE/ itself, a Nix output with
/// lib/pythonX.Y/site-packages, or a folder inside MODULE/) and an interpreter
/// for it: \a python_override, the prefix's bin/python3 (venv or Nix env),
/// else pythonX.Y or python3 on PATH.
PythonTarget find_python(const std::filesystem::path& root, const std::string& python_override,
                         const std::string& module);

/// Turns the probe's JSON output into checks (pure; tested without Python):
/// the import of \a p's probe module and its version, then what it reports.
/// \a gpu_result is the second probe's output when a GPU computation ran;
/// \a pruned, what tailor prune records having removed.
std::vector<Check> probe_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                const nlohmann::json& probe, bool gpu_present,
                                const std::optional<nlohmann::json>& gpu_result, const PruneRecords& pruned = {});

/// Runs the probes and returns their checks.
std::vector<Check> runtime_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                  const std::filesystem::path& root, const std::string& python_override);

/// Whether this host has an NVIDIA driver loaded (so CUDA should be available).
bool nvidia_driver_present();

}  // namespace tailor
