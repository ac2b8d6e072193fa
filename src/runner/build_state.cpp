#include "runner/build_state.hpp"

#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "generate/marker.hpp"
#include "util/atomic_write.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;
using nlohmann::json;

std::string DerivationInputs::key() const { return content_hash(recipe + "\n" + pin + "\n" + builders + "\n" + needs); }

namespace {

std::string text(const json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

BuildRecord record_from_json(const json& j) {
  BuildRecord r;
  r.status = kBuildStatuses.parse(text(j, "status"));
  r.result = text(j, "result");
  r.verdict = kVerdicts.parse(text(j, "verdict")).value_or(Verdict::none);
  r.verify_message = text(j, "verify_message");
  if (auto it = j.find("seconds"); it != j.end() && it->is_number()) r.seconds = it->get<double>();
  if (auto it = j.find("inputs"); it != j.end() && it->is_object())
    r.inputs = {text(*it, "recipe"), text(*it, "pin"), text(*it, "builders"), text(*it, "needs")};
  return r;
}

json record_to_json(const BuildRecord& r) {
  json j = {{"status", r.status ? name_of(*r.status) : ""}, {"seconds", r.seconds}};
  if (!r.result.empty()) j["result"] = r.result;
  if (r.verdict != Verdict::none) j["verdict"] = name_of(r.verdict);
  if (!r.verify_message.empty()) j["verify_message"] = r.verify_message;
  j["inputs"] = {
      {"recipe", r.inputs.recipe}, {"pin", r.inputs.pin}, {"builders", r.inputs.builders}, {"needs", r.inputs.needs}};
  return j;
}

}  // namespace

BuildState read_build_state(const fs::path& path) {
  BuildState s;
  std::error_code ec;
  fs::file_status st = fs::symlink_status(path, ec);
  if (!fs::exists(st)) return s;  // the first build
  if (fs::is_symlink(st)) {       // not followed: the state is written in its place (atomically, never through it)
    s.note = fmt::format("{} is a symbolic link, not read: every variant is built", path.string());
    return s;
  }
  // The one input reader: a FIFO or a device named state.json is refused, never waited on.
  json j = json::parse(read_file(path, "the build state"), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    s.note = fmt::format("{} is not a state file tailor can read: every variant is built", path.string());
    return s;
  }
  const json* records = &j;  // format 1: the records at the top level
  if (auto f = j.find("format"); f != j.end()) {
    if (!f->is_number_integer() || f->get<int>() != kBuildStateFormat || !j.contains("builds") ||
        !j["builds"].is_object()) {
      s.note = fmt::format("{} has state format {}, not {}: every variant is built", path.string(), f->dump(),
                           kBuildStateFormat);
      return s;
    }
    records = &j["builds"];
  }
  for (const auto& [name, r] : records->items())
    if (r.is_object()) s.builds[name] = record_from_json(r);
  return s;
}

void write_build_state(const fs::path& path, const BuildState& state) {
  json builds = json::object();
  for (const auto& [name, r] : state.builds) builds[name] = record_to_json(r);
  write_file_atomically(path, json{{"format", kBuildStateFormat}, {"builds", builds}}.dump(2) + "\n");
}

std::string rebuild_reason(const BuildRecord* earlier, const DerivationInputs& now) {
  if (!earlier) return std::string(kNotBuiltBefore);
  if (earlier->status != BuildStatus::succeeded)
    return fmt::format("its earlier build {}", earlier->status ? name_of(*earlier->status) : "did not finish");
  if (earlier->inputs.empty()) return "the earlier result was recorded without its recipe's hash (state format 1)";
  std::vector<std::string> changed;
  if (earlier->inputs.recipe != now.recipe) changed.push_back("its recipe");
  if (earlier->inputs.pin != now.pin)
    changed.push_back(fmt::format("the nixpkgs pin ({} -> {})", earlier->inputs.pin, now.pin));
  if (earlier->inputs.builders != now.builders) changed.push_back("the shared builders (.flox/pkgs/lib)");
  if (earlier->inputs.needs != now.needs) changed.push_back("a variant it builds against");
  if (!changed.empty()) return fmt::format("{} changed since the earlier build", fmt::join(changed, ", "));
  std::error_code ec;
  if (!earlier->result.empty() && !fs::exists(earlier->result, ec))
    return fmt::format("its earlier result {} no longer exists", earlier->result);
  return {};
}

}  // namespace tailor
