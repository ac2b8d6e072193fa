#include "prune/prune_report.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "prune/sm_selection.hpp"

namespace tailor {

namespace {

using ArchKey = std::tuple<uint32_t, int, std::string>;

ArchKey key_of(uint32_t number, FatbinKind kind, const std::string& arch) {
  return {number, kind == FatbinKind::sass ? 0 : kind == FatbinKind::ptx ? 1 : 2, arch};
}

void add(std::map<ArchKey, ArchChange>& by, const ArchChange& c) {
  ArchChange& t = by[key_of(c.number, c.kind, c.arch)];
  t.arch = c.arch;
  t.number = c.number;
  t.kind = c.kind;
  t.kept += c.kept;
  t.removed += c.removed;
  t.kept_bytes += c.kept_bytes;
  t.removed_bytes += c.removed_bytes;
}

std::vector<ArchChange> values_of(std::map<ArchKey, ArchChange>& by) {
  std::vector<ArchChange> out;
  for (auto& [k, v] : by) out.push_back(std::move(v));
  return out;
}

// The total of one field over every file's outcome.
uint64_t sum_of(const std::vector<FileOutcome>& files, uint64_t FileOutcome::*field) {
  uint64_t n = 0;
  for (const auto& f : files) n += f.*field;
  return n;
}

}  // namespace

FileOutcome outcome_of(std::string path, uint64_t size, const RewritePlan& plan) {
  FileOutcome f;
  f.path = std::move(path);
  f.size = f.size_after = size;
  f.fatbin_bytes = plan.fatbin_bytes();
  f.removed_bytes = plan.freed_bytes();
  f.containers = plan.containers.size();
  std::map<ArchKey, ArchChange> by;
  for (const auto& c : plan.containers) {
    if (c.choice.foreign_only && !c.entries.empty()) (c.changes() ? f.reduced : f.untouched)++;
    for (const auto& sm : c.choice.unusable_for)
      if (std::find(f.untouched_for.begin(), f.untouched_for.end(), sm) == f.untouched_for.end() &&
          c.choice.foreign_only)
        f.untouched_for.push_back(sm);
    const bool pruned = c.changes();
    for (size_t i = 0; i < c.entries.size(); ++i) {
      const FatbinEntry& e = c.entries[i];
      bool kept = !pruned || c.choice.keep[i];
      ArchChange one{e.arch_name(),
                     e.arch,
                     e.kind,
                     kept ? 1u : 0u,
                     kept ? 0u : 1u,
                     kept ? e.stored_bytes() : 0,
                     kept ? 0 : e.stored_bytes()};
      add(by, one);
    }
  }
  f.archs = values_of(by);
  return f;
}

uint64_t PruneReport::removed_bytes() const { return sum_of(files, &FileOutcome::removed_bytes); }

uint64_t PruneReport::compressed_before() const { return sum_of(files, &FileOutcome::compressed_before); }

uint64_t PruneReport::compressed_after() const { return sum_of(files, &FileOutcome::compressed_after); }

uint64_t PruneReport::removed_deflated() const { return sum_of(files, &FileOutcome::removed_deflated); }

uint64_t PruneReport::size_before() const { return sum_of(files, &FileOutcome::size); }

uint64_t PruneReport::size_after() const { return sum_of(files, &FileOutcome::size_after); }

size_t PruneReport::refused() const {
  return static_cast<size_t>(
      std::count_if(files.begin(), files.end(), [](const auto& f) { return !f.refused.empty(); }));
}

std::vector<ArchChange> PruneReport::archs() const {
  std::map<ArchKey, ArchChange> by;
  for (const auto& f : files)
    for (const auto& a : f.archs) add(by, a);
  return values_of(by);
}

}  // namespace tailor
