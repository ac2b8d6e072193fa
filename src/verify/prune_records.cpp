#include "verify/prune_records.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "binfmt/artifact.hpp"
#include "util/diagnostic.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRecordName = "tailor-prune.json";

// The record at \a dir and in each folder directly inside it: a pruned folder
// keeps it at its root (torch/, nvidia/), a pip-installed wheel in its
// *.dist-info. No deeper walk: inspect has read the tree already.
void collect(const fs::path& dir, std::vector<fs::path>& found) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return;
  if (fs::is_regular_file(dir / kRecordName, ec)) found.push_back(dir / kRecordName);
  for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec))
    if (e.is_directory(ec) && fs::is_regular_file(e.path() / kRecordName, ec)) found.push_back(e.path() / kRecordName);
}

// Whether \a p is \a root or lies under it (both canonical).
bool inside(const fs::path& p, const fs::path& root) {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// The folder a record's file paths are relative to: a folder's record lies at
// its root, a wheel's in *.dist-info, one below the archive's root (site-packages).
fs::path base_of(const fs::path& record, const nlohmann::json& j) {
  return kArtifactKinds.parse(j.value("kind", "")) == ArtifactKind::wheel ? record.parent_path().parent_path()
                                                                          : record.parent_path();
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
  auto count = [&](const nlohmann::json& archs) {
    for (const auto& a : archs) {
      std::string arch = a.at("arch").get<std::string>();
      bool kept = a.at("kept").get<uint64_t>() > 0, removed = a.at("removed").get<uint64_t>() > 0;
      if (kept)
        kept_somewhere[arch] = true;
      else if (removed)
        kept_somewhere.emplace(arch, false);
    }
  };
  for (const auto& p : found) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_file(p, "prune record"));
      if (!j.is_object() || !j.contains("archs") || !j["archs"].is_array())
        throw std::runtime_error("no \"archs\" list");
      // Only the files under the verified root count: a record beside it (nvidia/
      // pruned next to torch/) that keeps an arch in its own libraries says
      // nothing about the code torch's files lack. A record without its files
      // (written by hand, or older) counts by its totals.
      if (j.contains("files") && j["files"].is_array()) {
        const fs::path base = base_of(p, j);
        bool about_root = false;
        for (const auto& f : j["files"])
          if (f.contains("archs") && inside((base / f.value("path", "")).lexically_normal(), root)) {
            count(f["archs"]);
            about_root = true;
          }
        if (!about_root) continue;  // read, but about other files: neither named nor counted
      } else {
        count(j["archs"]);
      }
      for (const auto& sm : j.value("sm", nlohmann::json::array()))
        if (sm.is_string() && std::find(out.sm.begin(), out.sm.end(), sm.get<std::string>()) == out.sm.end())
          out.sm.push_back(sm.get<std::string>());
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
