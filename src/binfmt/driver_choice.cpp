#include "binfmt/driver_choice.hpp"

#include <algorithm>

namespace tailor {

namespace {

// Marks the entries of \a kind that run on \a gpu and have the highest arch; false if none runs.
bool keep_newest(std::span<const FatbinEntry> entries, FatbinKind kind, const GpuTarget& gpu, std::vector<bool>& keep) {
  auto runs = [&](const FatbinEntry& e) { return e.kind == kind && runs_on(e.code(), gpu); };
  uint32_t best = 0;
  bool any = false;
  for (const auto& e : entries)
    if (runs(e)) best = std::max(best, e.arch), any = true;
  for (size_t i = 0; i < entries.size(); ++i)
    if (runs(entries[i]) && entries[i].arch == best) keep[i] = true;
  return any;
}

// Keeps the entries that are neither SASS nor PTX (NVVM IR, kinds tailor does not know):
// no per-SM choice. Whether there was any.
bool keep_other_kinds(std::span<const FatbinEntry> entries, std::vector<bool>& keep) {
  bool any = false;
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].kind != FatbinKind::sass && entries[i].kind != FatbinKind::ptx) keep[i] = true, any = true;
  return any;
}

// The entry that takes the fewest bytes in the file (the first of equals); entries is not empty.
size_t smallest(std::span<const FatbinEntry> entries) {
  size_t best = 0;
  for (size_t i = 1; i < entries.size(); ++i)
    if (entries[i].stored_bytes() < entries[best].stored_bytes()) best = i;
  return best;
}

}  // namespace

size_t ContainerChoice::kept() const { return static_cast<size_t>(std::count(keep.begin(), keep.end(), true)); }

ContainerChoice choose_entries(std::span<const FatbinEntry> entries, std::span<const GpuTarget> gpus, bool keep_ptx) {
  ContainerChoice c;
  c.keep.assign(entries.size(), false);
  bool any = false;
  for (const auto& t : gpus) {
    bool sass = keep_newest(entries, FatbinKind::sass, t, c.keep);
    bool ptx = (!sass || keep_ptx) && keep_newest(entries, FatbinKind::ptx, t, c.keep);
    if (!sass && !ptx) c.unusable_for.push_back(t.sm);
    any = any || sass || ptx;
  }
  if (entries.empty()) {
    c.unusable_for.clear();  // nothing to load, nothing lost
    c.foreign_only = !any;
    return c;
  }
  const bool kept_other = keep_other_kinds(entries, c.keep);
  if (!any) {
    // Nothing here runs on these GPUs, before pruning or after: one entry keeps the
    // container valid (the smallest; the first of equals), unless another kind already does.
    c.foreign_only = true;
    if (!kept_other) c.keep[smallest(entries)] = true;
  }
  return c;
}

}  // namespace tailor
