#include "generate/tree.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "generate/layout.hpp"
#include "generate/marker.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/path_inside.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_if_exists(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_atomically(const fs::path& target, const std::string& content) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec) throw_file_error(target.parent_path(), "cannot create directory: " + ec.message());
  write_file_atomically(target, content);
}

}  // namespace

std::vector<PlannedChange> plan_tree(const fs::path& root, const std::vector<GeneratedFile>& files) {
  std::vector<PlannedChange> plan;
  std::set<std::string> wanted;
  std::set<fs::path> dirs;
  // Marker-free files tailor wrote before, by the hash they had then.
  std::map<std::string, std::string> bare_written;
  if (auto m = read_if_exists(root / kLayoutManifest); m && marker_state(*m) == MarkerState::intact)
    bare_written = read_layout_manifest(*m);
  for (const auto& f : files) {
    require_inside_root(root, f.path, "write");
    wanted.insert(f.path);
    dirs.insert(fs::path(f.path).parent_path());
    auto existing = read_if_exists(root / f.path);
    if (!existing) {
      plan.push_back({f.path, Change::create, ""});
    } else if (*existing == f.content) {
      plan.push_back({f.path, Change::unchanged, ""});
    } else if (f.bare) {
      auto it = bare_written.find(f.path);
      if (it != bare_written.end() && it->second == content_hash(*existing))
        plan.push_back({f.path, Change::update, ""});
      else if (it != bare_written.end())
        plan.push_back({f.path, Change::conflict, "edited since tailor generated it"});
      else
        plan.push_back({f.path, Change::conflict, "not written by tailor", true});
    } else {
      MarkerState state = marker_state(*existing);
      if (state == MarkerState::intact)
        plan.push_back({f.path, Change::update, ""});
      else
        plan.push_back({f.path, Change::conflict,
                        state == MarkerState::edited ? "edited since tailor generated it" : "not written by tailor",
                        state != MarkerState::edited});
    }
  }
  // Generated files the matrix no longer has. Files without a marker are a
  // human's and are never touched.
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(root / dir, ec)) continue;
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(root / dir, ec))
      if (e.is_regular_file()) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    for (const auto& p : entries) {
      std::string rel = (dir / p.filename()).string();
      if (wanted.count(rel)) continue;
      if (p.filename().string().find(kTempSuffix) != std::string::npos) {
        // A killed run's staging file is drift (--check) and swept by the next run, whatever it writes.
        if (is_stale_temp_name(p.filename().string())) plan.push_back({rel, Change::stale, std::string(kLeftoverNote)});
        continue;
      }
      auto content = read_if_exists(p);
      if (!content) continue;
      MarkerState state = marker_state(*content);
      if (state == MarkerState::absent) continue;
      plan.push_back({rel, Change::stale, state == MarkerState::edited ? "edited since tailor generated it" : ""});
    }
  }
  // Marker-free files written before that the matrix no longer has.
  for (const auto& [path, hash] : bare_written) {
    if (wanted.count(path) || path_leaving_root(root, path)) continue;  // never a file outside the tree
    auto content = read_if_exists(root / path);
    if (!content) continue;
    plan.push_back({path, Change::stale, content_hash(*content) == hash ? "" : "edited since tailor generated it"});
  }
  return plan;
}

bool remember_stale(const fs::path& root, std::vector<GeneratedFile>& files, const std::vector<PlannedChange>& plan,
                    const std::function<bool(const std::string&)>& variant_file) {
  auto manifest =
      std::find_if(files.begin(), files.end(), [](const GeneratedFile& f) { return f.path == kLayoutManifest; });
  auto old = read_if_exists(root / kLayoutManifest);
  if (manifest == files.end() || !old || marker_state(*old) != MarkerState::intact) return false;
  std::map<std::string, std::string> before = read_layout_manifest(*old);
  std::string kept;
  for (const auto& c : plan)
    if (auto it = before.find(c.path); c.change == Change::stale && it != before.end() && variant_file(c.path))
      kept += fmt::format("{}  {}\n", it->second, c.path);
  if (kept.empty()) return false;
  // The body without its marker line (the last), the stale entries after it, marked again.
  const std::string& text = manifest->content;
  size_t last = text.rfind('\n', text.size() - 2);
  manifest->content = with_marker(text.substr(0, last + 1) + kept, CommentStyle::hash);
  return true;
}

bool may_overwrite(const PlannedChange& c, bool force, const std::set<std::string>& named) {
  return c.change == Change::conflict && (named.count(c.path) || (force && !c.foreign));
}

void apply_plan(const fs::path& root, const std::vector<GeneratedFile>& files, const std::vector<PlannedChange>& plan,
                bool force, bool prune, const std::set<std::string>& named) {
  std::map<std::string, const GeneratedFile*> by_path;
  for (const auto& f : files) by_path[f.path] = &f;
  for (const auto& c : plan) {
    bool write = c.change == Change::create || c.change == Change::update || may_overwrite(c, force, named);
    if (write) {
      require_inside_root(root, c.path, "write");
      write_atomically(root / c.path, by_path.at(c.path)->content);
    }
    if (c.change == Change::stale && (prune || is_staging_leftover(c))) {
      require_inside_root(root, c.path, "remove");
      std::error_code ec;
      fs::remove(root / c.path, ec);
      if (ec) throw_file_error(root / c.path, "cannot remove stale file: " + ec.message());
    }
  }
}

}  // namespace tailor
