#include "kb/platform.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/embedded.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

// Runner labels go into YAML unquoted: plain words only.
std::vector<std::string> labels(TableReader& r, std::string_view key) {
  static const std::regex word("[A-Za-z0-9][A-Za-z0-9_.-]*");
  auto list = r.strings(key);
  if (!list) r.missing(key);
  if (list->empty()) throw r.doc().error_at(r.pos(), fmt::format("'{}' names no label", key));
  std::vector<std::string> out;
  for (auto& l : *list) {
    if (!std::regex_match(l.value, word))
      throw r.doc().error_at(l.pos, fmt::format("runner label '{}' is not a plain word", l.value),
                             "labels hold letters, digits, '_', '.' and '-'");
    out.push_back(std::move(l.value));
  }
  return out;
}

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

}  // namespace

PlatformTable PlatformTable::parse(const std::string& path, std::string text) {
  TomlDocument doc(path, std::move(text));
  TableReader root(doc, doc.root(), "platforms.toml");
  PlatformTable t;
  for (const toml::table* entry : root.tables("platform")) {
    TableReader r(doc, *entry, "[[platform]]");
    Platform p = read_platform(r);
    r.finish();
    if (find_if(t.platforms.begin(), t.platforms.end(), [&](const Platform& q) { return q.system == p.system; }) !=
        t.platforms.end())
      throw doc.error_at(*entry, fmt::format("duplicate [[platform]] entry '{}'", p.system));
    t.platforms.push_back(std::move(p));
  }
  if (t.platforms.empty()) throw doc.error_at(doc.root(), "no [[platform]] entries");
  const toml::table* drift = root.table("drift_job");
  if (!drift) root.missing("drift_job");
  TableReader d(doc, *drift, "[drift_job]");
  t.drift_github_runs_on = labels(d, "github_runs_on");
  t.drift_gitlab_tags = labels(d, "gitlab_tags");
  d.finish();
  root.finish();
  return t;
}

const PlatformTable& platform_table() {
  static const PlatformTable t = [] {
    auto text = embedded_file("data/platforms.toml");
    if (!text) throw std::logic_error("embedded data lacks platforms.toml");
    return PlatformTable::parse("data/platforms.toml", std::string(*text));
  }();
  return t;
}

const Platform* find_platform(std::string_view system) {
  const auto& ps = platform_table().platforms;
  auto it = std::find_if(ps.begin(), ps.end(), [&](const Platform& p) { return p.system == system; });
  return it == ps.end() ? nullptr : &*it;
}

std::vector<std::string> platform_systems() {
  std::vector<std::string> out;
  for (const auto& p : platform_table().platforms) out.push_back(p.system);
  return out;
}

std::string flow_list(const std::vector<std::string>& labels) { return fmt::format("[{}]", fmt::join(labels, ", ")); }

}  // namespace tailor
