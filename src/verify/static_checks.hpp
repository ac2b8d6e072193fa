#pragma once
/// The checks `tailor verify` makes without running anything: the CUDA
/// architectures in the fatbins, ELF machine against the platform, and
/// leftover toolchain references.

#include <filesystem>
#include <vector>

#include "binfmt/inspection.hpp"
#include "verify/check.hpp"
#include "verify/promise.hpp"

namespace tailor {

/// Checks \a in (the inspection of \a root) against \a p.
std::vector<Check> static_checks(const VariantPromise& p, const Inspection& in, const std::filesystem::path& root);

/// Whether a GPU of compute capability \a major.\a minor can run some code of
/// \a entries: a cubin of the same major and lower or equal minor (an 'a'
/// cubin only on its exact SM), or PTX of a lower or equal capability.
bool covers(const std::vector<FatbinEntry>& entries, int major, int minor);

}  // namespace tailor
