#include "prune/prune_record.hpp"

#include <signal.h>

#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "util/read_file.hpp"

namespace tailor {

namespace {

nlohmann::json archs_json(const std::vector<ArchChange>& archs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : archs)
    a.push_back({{"arch", c.arch},
                 {"kind", fatbin_kind_name(c.kind)},
                 {"kept", c.kept},
                 {"removed", c.removed},
                 {"kept_bytes", c.kept_bytes},
                 {"removed_bytes", c.removed_bytes}});
  return a;
}

nlohmann::json file_json(const FileOutcome& f) {
  nlohmann::json j = {{"path", f.path},
                      {"size", f.size},
                      {"size_after", f.size_after},
                      {"fatbin_bytes", f.fatbin_bytes},
                      {"removed_bytes", f.removed_bytes},
                      {"containers", f.containers},
                      {"untouched_containers", f.untouched},
                      {"untouched_for", f.untouched_for},
                      {"archs", archs_json(f.archs)}};
  if (f.disk_before) j["disk"] = {{"before", f.disk_before}, {"after", f.disk_after}};
  if (f.compressed_before) j["compressed"] = {{"before", f.compressed_before}, {"after", f.compressed_after}};
  if (!f.refused.empty()) j["refused"] = f.refused;
  if (!f.compaction.empty()) j["not_compacted"] = f.compaction;
  if (f.note_header_reused) j["note_header_reused"] = true;  // only where used: records of before stay as they were
  if (f.reduced) j["reduced_containers"] = f.reduced;        // where it applies: records of before stay as they were
  if (f.removed_deflated) j["removed_deflated_estimate"] = f.removed_deflated;
  return j;
}

ArchChange arch_from_json(const nlohmann::json& a) {
  ArchChange c;
  c.arch = a.at("arch").get<std::string>();
  c.kind = kFatbinKinds.parse(a.value("kind", std::string())).value_or(FatbinKind::other);
  // "sm_90a", "compute_120": the number orders the report's rows.
  size_t at = c.arch.find('_');
  for (size_t i = at == std::string::npos ? c.arch.size() : at + 1;
       i < c.arch.size() && std::isdigit(static_cast<unsigned char>(c.arch[i])); ++i)
    c.number = c.number * 10 + static_cast<uint32_t>(c.arch[i] - '0');
  c.kept = a.at("kept").get<uint64_t>();
  c.removed = a.at("removed").get<uint64_t>();
  c.kept_bytes = a.value("kept_bytes", uint64_t{0});
  c.removed_bytes = a.value("removed_bytes", uint64_t{0});
  return c;
}

FileOutcome file_from_json(const nlohmann::json& j) {
  FileOutcome f;
  f.path = j.at("path").get<std::string>();
  f.size = j.value("size", uint64_t{0});
  f.size_after = j.value("size_after", f.size);
  f.fatbin_bytes = j.value("fatbin_bytes", uint64_t{0});
  f.removed_bytes = j.value("removed_bytes", uint64_t{0});
  f.containers = j.value("containers", size_t{0});
  f.untouched = j.value("untouched_containers", size_t{0});
  f.reduced = j.value("reduced_containers", size_t{0});  // records before issue 59 have none
  f.untouched_for = j.value("untouched_for", std::vector<std::string>{});
  for (const auto& a : j.at("archs")) f.archs.push_back(arch_from_json(a));
  if (j.contains("disk")) {
    f.disk_before = j["disk"].value("before", uint64_t{0});
    f.disk_after = j["disk"].value("after", uint64_t{0});
  }
  if (j.contains("compressed")) {
    f.compressed_before = j["compressed"].value("before", uint64_t{0});
    f.compressed_after = j["compressed"].value("after", uint64_t{0});
  }
  f.refused = j.value("refused", std::string());
  f.compaction = j.value("not_compacted", std::string());
  f.note_header_reused = j.value("note_header_reused", false);
  f.removed_deflated = j.value("removed_deflated_estimate", uint64_t{0});
  return f;
}

}  // namespace

PruneRecord prune_record_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("archs") || !j["archs"].is_array()) throw std::runtime_error("no \"archs\" list");
  PruneRecord r;
  r.kind = kArtifactKinds.parse(j.value("kind", ""));
  for (const auto& sm : j.value("sm", nlohmann::json::array()))
    if (sm.is_string()) r.sm.push_back(sm.get<std::string>());
  for (const auto& a : j["archs"]) r.archs.push_back(arch_from_json(a));
  if (j.contains("files") && j["files"].is_array()) {
    r.files.emplace();
    for (const auto& f : j["files"]) r.files->push_back(file_from_json(f));
  }
  return r;
}

PruneRecord read_prune_record(const std::filesystem::path& path) {
  return prune_record_from_json(nlohmann::json::parse(read_file(path, "prune record")));
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return fmt::format("signal {}", sig);
  }
}

nlohmann::json to_json(const PruneReport& r, bool with_time) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files) files.push_back(file_json(f));
  nlohmann::json j = {{"root", r.root},         {"kind", kind_name(r.kind)},    {"sm", r.sm},
                      {"keep_ptx", r.keep_ptx}, {"dry_run", r.dry_run},         {"removed_bytes", r.removed_bytes()},
                      {"refused", r.refused()}, {"other_files", r.other_files}, {"archs", archs_json(r.archs())},
                      {"files", files}};
  j["size"] = {{"before", r.size_before()}, {"after", r.size_after()}};
  if (r.disk_before) j["disk"] = {{"before", r.disk_before}, {"after", r.disk_after}};
  if (r.dry_run) j["removed_deflated_estimate"] = r.removed_deflated();
  if (r.kind == ArtifactKind::wheel) {
    j["compressed"] = {{"before", r.compressed_before()}, {"after", r.compressed_after()}};
    j["deflate_level"] = r.deflate_level;
    // Inside the wheel the JSON cannot know the final size of the archive holding it.
    if (with_time && r.download_before) j["download"] = {{"before", r.download_before}, {"after", r.download_after}};
  }
  if (r.interrupted) j["interrupted"] = signal_name(r.interrupted);
  if (!r.output.empty() && with_time) j["output"] = r.output;
  if (!r.record.empty() && with_time) j["record"] = r.record;
  if (with_time) j["seconds"] = r.seconds;
  return j;
}

}  // namespace tailor
