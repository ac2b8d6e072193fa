#include "prune/sm_selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "binfmt/inspection.hpp"
#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

uint32_t major_of(uint32_t arch) { return arch / 10; }

bool in_family(const FatbinEntry& e, const PruneTarget& t) {
  return e.arch == t.number ||
         std::find(t.runs_family_specific.begin(), t.runs_family_specific.end(), e.arch) != t.runs_family_specific.end();
}

// Marks the entries of \a kind that run on \a t and have the highest arch; false if none runs.
bool keep_newest(std::span<const FatbinEntry> entries, FatbinKind kind, const PruneTarget& t, std::vector<bool>& keep) {
  auto runs = [&](const FatbinEntry& e) {
    return e.kind == kind && (kind == FatbinKind::sass ? sass_runs_on(e, t) : ptx_runs_on(e, t));
  };
  uint32_t best = 0;
  bool any = false;
  for (const auto& e : entries)
    if (runs(e)) best = std::max(best, e.arch), any = true;
  for (size_t i = 0; i < entries.size(); ++i)
    if (runs(entries[i]) && entries[i].arch == best) keep[i] = true;
  return any;
}

}  // namespace

PruneTarget prune_target(const KnowledgeBase& kb, std::string_view sm) {
  std::optional<uint32_t> number = parse_sm_target(sm);
  const GpuArch* gpu = nullptr;
  if (number) gpu = kb.gpu(fmt::format("{}.{}", *number / 10, *number % 10));
  if (!gpu) {
    Diagnostic d;
    d.message = fmt::format("prune: --sm '{}' is not a compute capability the knowledge base knows", sm);
    d.hint = fmt::format("known: {}", fmt::join(kb.gpu_names(), ", "));
    throw DiagnosticError(std::move(d));
  }
  PruneTarget t;
  t.sm = gpu->sm;
  t.number = *number;
  for (const auto& f : gpu->runs_family_specific)
    if (auto n = parse_sm_target(f)) t.runs_family_specific.push_back(*n);
  return t;
}

bool sass_runs_on(const FatbinEntry& e, const PruneTarget& t) {
  switch (e.suffix()) {
    case 'a': return e.arch == t.number;
    case 'f': return in_family(e, t);
    default: return major_of(e.arch) == major_of(t.number) && e.arch <= t.number;
  }
}

bool ptx_runs_on(const FatbinEntry& e, const PruneTarget& t) {
  switch (e.suffix()) {
    case 'a': return e.arch == t.number;
    case 'f': return in_family(e, t);
    default: return e.arch <= t.number;
  }
}

size_t ContainerChoice::kept() const { return static_cast<size_t>(std::count(keep.begin(), keep.end(), true)); }

ContainerChoice choose_entries(std::span<const FatbinEntry> entries, std::span<const PruneTarget> targets, bool keep_ptx) {
  ContainerChoice c;
  c.keep.assign(entries.size(), false);
  bool any = false;
  for (const auto& t : targets) {
    bool sass = keep_newest(entries, FatbinKind::sass, t, c.keep);
    bool ptx = (!sass || keep_ptx) && keep_newest(entries, FatbinKind::ptx, t, c.keep);
    if (!sass && !ptx) c.unusable_for.push_back(t.sm);
    any = any || sass || ptx;
  }
  if (!any) {
    c.keep.assign(entries.size(), true);
    c.untouched = true;
    if (entries.empty()) c.unusable_for.clear();  // nothing to load, nothing lost
    return c;
  }
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].kind != FatbinKind::sass && entries[i].kind != FatbinKind::ptx) c.keep[i] = true;
  return c;
}

}  // namespace tailor
