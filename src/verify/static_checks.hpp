#pragma once
/// The checks `tailor verify` makes without running anything: the CUDA
/// architectures in the fatbins, ELF machine against the platform, and
/// leftover toolchain references.

#include <filesystem>
#include <vector>

#include "inspect/inspection.hpp"
#include "kb/knowledge_base.hpp"
#include "verify/check.hpp"
#include "verify/promise.hpp"

namespace tailor {

/// Checks \a in (the inspection of \a root) against \a p, with the facts of \a kb.
std::vector<Check> static_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                 const std::filesystem::path& root);

/// The GPU of compute capability \a major.\a minor as the runs-on rule sees
/// it: from \a kb, or (a GPU it lacks) from the number alone.
GpuTarget gpu_for(const KnowledgeBase& kb, int major, int minor);

/// The entries a GPU of \a p's SMs has code among: those of every container with
/// code one of them runs. A container with nothing for them (prune leaves it as
/// it was) is not theirs: a host GPU it alone covers is not covered by the variant.
/// Every entry where \a p names no SM or is not a CUDA variant.
std::vector<FatbinEntry> promised_code(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in);

/// Whether \a gpu can run some code of \a entries (kb/runs_on.hpp's rule).
bool covers(const std::vector<FatbinEntry>& entries, const GpuTarget& gpu);
inline bool covers(const KnowledgeBase& kb, const std::vector<FatbinEntry>& entries, int major, int minor) {
  return covers(entries, gpu_for(kb, major, minor));
}

}  // namespace tailor
