#pragma once
/// The checks `tailor verify` makes without running anything: the CUDA
/// architectures in the fatbins, ELF machine against the platform, and
/// leftover toolchain references.

#include <filesystem>
#include <vector>

#include "inspect/inspection.hpp"
#include "verify/check.hpp"
#include "verify/promise.hpp"

namespace tailor {

/// Checks \a in (the inspection of \a root) against \a p.
std::vector<Check> static_checks(const VariantPromise& p, const Inspection& in, const std::filesystem::path& root);

/// The GPU of compute capability \a major.\a minor as the runs-on rule sees
/// it: from the embedded knowledge base, or (a GPU it lacks) from the number alone.
GpuTarget gpu_for(int major, int minor);

/// Whether \a gpu can run some code of \a entries (kb/runs_on.hpp's rule).
bool covers(const std::vector<FatbinEntry>& entries, const GpuTarget& gpu);
inline bool covers(const std::vector<FatbinEntry>& entries, int major, int minor) {
  return covers(entries, gpu_for(major, minor));
}

}  // namespace tailor
