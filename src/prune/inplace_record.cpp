#include "prune/inplace_record.hpp"

#include <algorithm>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "prune/prune_record.hpp"
#include "util/atomic_write.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

constexpr auto kRewriteEvery = std::chrono::milliseconds(200);

bool same_arch(const ArchChange& a, const ArchChange& b) { return a.arch == b.arch && a.kind == b.kind; }

}  // namespace

InPlaceRecord::InPlaceRecord(fs::path at, const PruneReport& header) : at_(std::move(at)), header_(header) {
  header_.files.clear();
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(at_, ec))) return;
  try {
    PruneRecord earlier = read_prune_record(at_);
    if (!earlier.files) return;  // not a record this run can extend: its own replaces it
    earlier_ = std::move(*earlier.files);
    for (const auto& sm : earlier.sm)
      if (std::find(header_.sm.begin(), header_.sm.end(), sm) == header_.sm.end()) header_.sm.push_back(sm);
    had_earlier_ = true;
  } catch (const std::exception&) {
    earlier_.clear();  // not a record this run can extend: its own replaces it
  }
}

// This run's files, with what the earlier record says of the files it pruned:
// a file this run leaves as it is keeps its earlier entry; one pruned further
// keeps the archs removed earlier, as removed.
PruneReport InPlaceRecord::merged(const PruneReport& rep) const {
  PruneReport m = rep;
  m.sm = header_.sm;
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < m.files.size(); ++i) at.emplace(m.files[i].path, i);
  for (const auto& e : earlier_) {
    auto it = at.find(e.path);
    std::error_code ec;
    if (it == at.end()) {
      if (e.removed_bytes && fs::exists(at_.parent_path() / e.path, ec)) m.files.push_back(e);
      continue;
    }
    FileOutcome& now = m.files[it->second];
    if (!now.refused.empty()) continue;
    if (!now.removed_bytes) {
      if (e.removed_bytes) now = e;
      continue;
    }
    for (ArchChange c : e.archs)
      if (c.removed &&
          std::none_of(now.archs.begin(), now.archs.end(), [&](const ArchChange& a) { return same_arch(a, c); })) {
        c.kept = c.kept_bytes = 0;
        now.archs.push_back(c);
      }
  }
  return m;
}

void InPlaceRecord::write(const PruneReport& rep, bool complete) {
  nlohmann::json j = to_json(merged(rep), false);
  j["complete"] = complete;
  write_file_atomically(at_, json_text(j), fs::perms(0644));
  written_any_ = true;
  last_ = std::chrono::steady_clock::now();
}

void InPlaceRecord::begin() {
  std::lock_guard lock(mutex_);
  write(header_, false);
}

void InPlaceRecord::done(const FileOutcome& f) {
  std::lock_guard lock(mutex_);
  done_.push_back(f);
  if (!f.removed_bytes || !f.refused.empty()) return;  // nothing changed on disk
  if (std::chrono::steady_clock::now() - last_ < kRewriteEvery) return;
  PruneReport so_far = header_;
  so_far.files = done_;
  write(so_far, false);
}

bool InPlaceRecord::finish(const PruneReport& rep, bool complete) {
  std::lock_guard lock(mutex_);
  if (!had_earlier_ && !rep.removed_bytes()) {
    std::error_code ec;
    if (written_any_) fs::remove(at_, ec);
    return false;
  }
  write(rep, complete);
  return true;
}

}  // namespace tailor
