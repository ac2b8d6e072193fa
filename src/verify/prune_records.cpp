#include "verify/prune_records.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "prune/prune_record.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// The record at \a dir and in each folder directly inside it: a pruned folder
// keeps it at its root (torch/, nvidia/), a pip-installed wheel in its
// *.dist-info. No deeper walk: inspect has read the tree already.
void collect(const fs::path& dir, std::vector<fs::path>& found) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return;
  if (fs::is_regular_file(dir / kPruneRecordName, ec)) found.push_back(dir / kPruneRecordName);
  for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec))
    if (e.is_directory(ec) && fs::is_regular_file(e.path() / kPruneRecordName, ec))
      found.push_back(e.path() / kPruneRecordName);
}

// Whether \a p is \a root or lies under it (both canonical).
bool inside(const fs::path& p, const fs::path& root) {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// The folder a record's file paths are relative to: a folder's record lies at
// its root, a wheel's in *.dist-info, one below the archive's root (site-packages).
fs::path base_of(const fs::path& at, const PruneRecord& record) {
  return record.kind == ArtifactKind::wheel ? at.parent_path().parent_path() : at.parent_path();
}

}  // namespace

PruneRecords find_prune_records(const fs::path& root_in, const fs::path& site_packages) {
  std::vector<fs::path> found;
  collect(root_in, found);
  collect(site_packages, found);
  std::error_code ec;
  for (auto& p : found) p = fs::weakly_canonical(p, ec);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  const fs::path root = fs::weakly_canonical(root_in, ec);

  PruneRecords out;
  std::map<std::string, bool> kept_somewhere;  // arch -> kept in a file under root
  auto count = [&](const std::vector<ArchChange>& archs) {
    for (const auto& a : archs) {
      if (a.kept > 0)
        kept_somewhere[a.arch] = true;
      else if (a.removed > 0)
        kept_somewhere.emplace(a.arch, false);
    }
  };
  for (const auto& p : found) {
    try {
      PruneRecord record = read_prune_record(p);
      // Only the files under the verified root count: a record beside it (nvidia/
      // pruned next to torch/) that keeps an arch in its own libraries says
      // nothing about the code torch's files lack. A record without its files
      // (written by hand, or older) counts by its totals.
      if (record.files) {
        const fs::path base = base_of(p, record);
        bool about_root = false;
        for (const auto& f : *record.files)
          if (inside((base / f.path).lexically_normal(), root)) {
            count(f.archs);
            about_root = true;
          }
        if (!about_root) continue;  // read, but about other files: neither named nor counted
      } else {
        count(record.archs);
      }
      for (const auto& sm : record.sm)
        if (std::find(out.sm.begin(), out.sm.end(), sm) == out.sm.end()) out.sm.push_back(sm);
      out.files.push_back(p);
    } catch (const DiagnosticError& e) {
      out.problems.push_back(fmt::format("{}: {}", p.string(), e.diagnostic().message));
    } catch (const std::exception& e) {
      out.problems.push_back(fmt::format("{}: not a prune record: {}", p.string(), e.what()));
    }
  }
  for (const auto& [arch, kept] : kept_somewhere)
    if (!kept) out.removed.insert(arch);
  return out;
}

}  // namespace tailor
