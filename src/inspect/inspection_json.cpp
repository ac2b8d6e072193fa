#include "inspect/inspection_json.hpp"

namespace tailor {

namespace {

nlohmann::ordered_json entries_json(const std::vector<FatbinEntry>& entries) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& t : tally(entries))
    a.push_back({{"arch", t.arch},
                 {"kind", fatbin_kind_name(t.kind)},
                 {"count", t.count},
                 {"bytes", t.bytes},
                 {"uncompressed_bytes", t.uncompressed_bytes},
                 {"compressed", t.compressed}});
  return a;
}

}  // namespace

nlohmann::ordered_json to_json(const Inspection& in, const std::optional<Projection>& projection) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  uint64_t overhead = 0, containers = 0;
  for (const auto& f : in.files) {
    overhead += f.fatbin_overhead;
    containers += f.containers;
    files.push_back({{"path", f.path},
                     {"size", f.size},
                     {"machine", f.machine},
                     {"fatbin_bytes", f.fatbin_bytes},
                     {"outside_fatbin_bytes", f.outside_fatbin_bytes()},
                     {"fatbin_overhead_bytes", f.fatbin_overhead},
                     {"containers", f.containers},
                     {"entries", entries_json(f.entries)}});
  }
  nlohmann::ordered_json j = {{"path", in.root}, {"kind", in.kind}, {"files", files}};
  j["other_files"] = in.other_files;
  j["other_bytes"] = in.other_bytes;
  j["broken"] = nlohmann::ordered_json::array();
  for (const auto& d : in.broken) j["broken"].push_back({{"path", d.path}, {"message", d.message}});
  j["total"] = {{"elf_files", in.files.size()},
                {"size", in.total_bytes()},
                {"fatbin_bytes", in.fatbin_bytes()},
                {"outside_fatbin_bytes", in.total_bytes() - in.fatbin_bytes()},
                {"fatbin_overhead_bytes", overhead},
                {"containers", containers},
                {"entries", entries_json(in.all_entries())}};
  if (projection)
    j["projection"] = {{"target", projection->target},       {"arch", projection->number},
                       {"total_bytes", projection->total},   {"kept_bytes", projection->kept()},
                       {"saved_bytes", projection->dropped}, {"saved_percent", projection->saving_percent()}};
  if (projection && projection->numbers.size() > 1) j["projection"]["archs"] = projection->numbers;  // a set of SMs
  return j;
}

}  // namespace tailor
