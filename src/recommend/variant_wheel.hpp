#pragma once
/// `tailor recommend --wheels DIR`: of the PEP 825 variant wheels in a folder
/// (what `tailor prune --each` writes: {name}-{version}-...-{label}.whl beside
/// {name}-{version}-variants.json), the one whose properties say it runs on this
/// host. Labels are mapped to properties by the index file alone, as PEP 825's
/// installer does (a label it lacks, or a missing index, makes the wheel
/// incompatible). NVIDIA's properties are judged by tailor's own rules:
/// `nvidia :: sm_arch :: NN_real` (NN_virtual: PTX) by the runs-on rule
/// (kb/runs_on.hpp) for every GPU of the host, `nvidia :: cuda_version_lower_bound`
/// by the driver rule (kb/driver_rule.hpp). Any other namespace or feature is one
/// tailor cannot judge: incompatible. Of the wheels that run, the one whose code
/// is nearest the newest GPU (its exact SM first, SASS before PTX) wins, then the
/// label; the null variant and a non-variant wheel come last, in that order.

#include <filesystem>
#include <string>
#include <vector>

#include "host/host_facts.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

struct VariantWheelChoice {
  std::string wheel;                    ///< the chosen wheel's path; empty: none runs here
  std::string label;                    ///< its variant label; empty: a non-variant wheel
  std::vector<std::string> properties;  ///< its properties, "nvidia :: sm_arch :: 90_real"
  std::vector<std::string> reasons;     ///< why it, then why not each other wheel
  std::string index;                    ///< the *-variants.json read
};

/// Chooses among the wheels of \a dir for \a host. \a package and \a version (empty:
/// any) choose among several distributions or versions in the folder. Throws
/// DiagnosticError when \a dir holds no variant wheel (of that package), several
/// packages or versions with nothing to choose between them, or an index that
/// breaks PEP 825 (with its position).
VariantWheelChoice choose_variant_wheel(const HostFacts& host, const KnowledgeBase& kb,
                                        const std::filesystem::path& dir, const std::string& package,
                                        const std::string& version);

}  // namespace tailor
