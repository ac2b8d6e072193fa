#include "kb/platform.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/toml_reader.hpp"

namespace tailor {

namespace {

// Runner labels go into YAML unquoted: plain words only.
std::vector<std::string> labels(TableReader& r, std::string_view key) {
  static const std::regex word("[A-Za-z0-9][A-Za-z0-9_.-]*");
  auto list = r.strings(key);
  if (!list) r.missing(key);
  if (list->empty()) {  // at the key's list, not the table's start
    const toml::node* n = r.node(key);
    throw r.doc().error_at(n ? pos_of(*n) : r.pos(), fmt::format("'{}' names no label", key));
  }
  std::vector<std::string> out;
  for (auto& l : *list) {
    if (!std::regex_match(l.value, word))
      throw r.doc().error_at(l.pos, fmt::format("runner label '{}' is not a plain word", l.value),
                             "labels hold letters, digits, '_', '.' and '-'");
    out.push_back(std::move(l.value));
  }
  return out;
}

}  // namespace

Platform read_platform(TableReader& r) {
  Platform p;
  auto system = r.required_string("system");
  p.system = system.value;
  auto os = r.required_string("os");
  std::optional<Os> known = kOperatingSystems.parse(os.value);
  if (!known)
    throw r.doc().error_at(os.pos, fmt::format("unknown os '{}'", os.value),
                           fmt::format("known: {}", fmt::join(kOperatingSystems.names(), ", ")));
  p.os = *known;
  p.arch = r.required_string("arch").value;
  p.display = r.required_string("display").value;
  // A Nix system double is ARCH-OS (nixpkgs lib/systems/parse.nix).
  if (p.system != p.arch + "-" + os.value)
    throw r.doc().error_at(system.pos,
                           fmt::format("system '{}' is not its arch and os, '{}-{}'", p.system, p.arch, os.value));
  if (auto m = r.integer("elf_machine")) {
    if (m->value <= 0 || m->value > 0xffff)
      throw r.doc().error_at(m->pos, fmt::format("elf_machine {} is not a 16-bit e_machine", m->value));
    p.elf_machine = static_cast<uint16_t>(m->value);
  }
  if (auto b = r.boolean("remote_builder")) p.remote_builder = b->value;
  p.github_runs_on = labels(r, "github_runs_on");
  p.gitlab_tags = labels(r, "gitlab_tags");
  return p;
}

void PlatformTable::read_drift_job(TableReader& root) {
  const toml::table* drift = root.table("drift_job");
  if (!drift) return;
  TableReader d(root.doc(), *drift, "[drift_job]");
  if (d.strings("github_runs_on")) drift_github_runs_on = labels(d, "github_runs_on");
  if (d.strings("gitlab_tags")) drift_gitlab_tags = labels(d, "gitlab_tags");
  d.finish();
}

const Platform* PlatformTable::find(std::string_view system) const {
  auto it = std::find_if(platforms.begin(), platforms.end(), [&](const Platform& p) { return p.system == system; });
  return it == platforms.end() ? nullptr : &*it;
}

std::vector<std::string> PlatformTable::systems() const {
  std::vector<std::string> out;
  for (const auto& p : platforms) out.push_back(p.system);
  return out;
}

std::string flow_list(const std::vector<std::string>& labels) { return fmt::format("[{}]", fmt::join(labels, ", ")); }

}  // namespace tailor
