#include "verify/prune_records.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/diagnostic.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRecordName = "tailor-prune.json";

void collect(const fs::path& root, std::vector<fs::path>& found) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->path().filename() == kRecordName && it->is_regular_file(ec)) found.push_back(it->path());
}

void collect_dist_info(const fs::path& site_packages, std::vector<fs::path>& found) {
  std::error_code ec;
  if (site_packages.empty() || !fs::is_directory(site_packages, ec)) return;
  for (const auto& e : fs::directory_iterator(site_packages, fs::directory_options::skip_permission_denied, ec))
    if (e.path().extension() == ".dist-info" && fs::is_regular_file(e.path() / kRecordName, ec))
      found.push_back(e.path() / kRecordName);
}

}  // namespace

PruneRecords find_prune_records(const fs::path& root, const fs::path& site_packages) {
  std::vector<fs::path> found;
  collect(root, found);
  collect_dist_info(site_packages, found);
  std::error_code ec;
  for (auto& p : found) p = fs::weakly_canonical(p, ec);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());

  PruneRecords out;
  std::map<std::string, bool> kept_somewhere;  // arch -> kept by any record
  for (const auto& p : found) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_file(p, "prune record"));
      if (!j.is_object() || !j.contains("archs") || !j["archs"].is_array()) throw std::runtime_error("no \"archs\" list");
      for (const auto& a : j["archs"]) {
        std::string arch = a.at("arch").get<std::string>();
        bool kept = a.at("kept").get<uint64_t>() > 0, removed = a.at("removed").get<uint64_t>() > 0;
        if (kept) kept_somewhere[arch] = true;
        else if (removed) kept_somewhere.emplace(arch, false);
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
