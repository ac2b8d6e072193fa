// tailor kb [--json]: print the knowledge base, so users see what tailor believes.
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "kb/kb_json.hpp"
#include "util/exit_status.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {
std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }
std::string join(const std::vector<std::string>& v, const char* sep = " ") { return fmt::format("{}", fmt::join(v, sep)); }
}  // namespace

int cmd_kb(CommandContext& ctx) {
  CLI::App app{"Print the knowledge base tailor reasons with.", "kb"};
  bool json = false;
  std::string kb_dir;
  app.add_flag("--json", json, "print JSON");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  KnowledgeBase kb = load_kb(kb_dir);
  if (json) {
    ctx.out << to_json(kb).dump(2) << "\n";
    return kExitOk;
  }

  TextTable gpus({"sm", "family", "products", "cuda", "platforms", "cudnn"});
  for (const auto& g : kb.gpus)
    gpus.add_row({g.sm, g.family, join(g.products, ", "),
                   g.min_cuda.str() + "-" + (g.max_cuda ? g.max_cuda->str() : std::string()), join(g.platforms, ", "),
                   g.cudnn_last ? "<= " + g.cudnn_last->str() : std::string("any")});
  ctx.out << "GPU architectures (gpu_architectures.toml)\n" << gpus.render() << "\n";

  TextTable cudas({"cuda", "min driver", "minor-compat driver", "max gcc", "nixpkgs"});
  for (const auto& c : kb.cudas)
    cudas.add_row({c.version.str(), c.min_driver.str(), c.minor_compat_driver ? c.minor_compat_driver->str() : "-",
                   std::to_string(c.max_gcc), c.nixpkgs_attr()});
  ctx.out << "CUDA toolkits (cuda_toolkits.toml)\n" << cudas.render() << "\n";

  TextTable isas({"isa", "platform", "level", "requires", "flags", "disables"});
  for (const auto& i : kb.isas)
    isas.add_row({i.name, i.platform, or_dash(i.x86_64_level), join(i.requires_features), join(i.flags),
                  or_dash(join(i.disable, ", "))});
  ctx.out << "CPU ISA targets (cpu_isas.toml)\n" << isas.render() << "\n";

  std::vector<std::string> pin_columns = {"pin"};
  pin_columns.insert(pin_columns.end(), kb.json_version_keys.begin(), kb.json_version_keys.end());
  for (const char* c : {"python", "cuda", "cudnn", "sha256"}) pin_columns.emplace_back(c);
  TextTable pins(pin_columns);
  for (const auto& p : kb.pins) {
    std::vector<std::string> row = {p.short_rev};
    for (const auto& attr : kb.json_version_keys) row.push_back(p.version(attr) ? p.version(attr)->str() : "-");
    for (std::string cell : {join(p.python, ", "), join(p.cuda, ", "), p.cudnn ? p.cudnn->str() : "?",
                             std::string(p.sha256.empty() ? "unknown" : "known")})
      row.push_back(cell);
    pins.add_row(row);
  }
  ctx.out << "nixpkgs pins (nixpkgs_pins.toml)\n" << pins.render() << "\n";

  TextTable py({"python", "packages", "end of life"});
  for (const auto& p : kb.pythons) py.add_row({p.version, p.packages_attr(), or_dash(p.end_of_life)});
  ctx.out << "Python versions (python_versions.toml)\n" << py.render() << "\n";

  TextTable ws({"workaround", "pins", "torch", "cuda", "summary"});
  for (const auto& w : kb.workarounds)
    ws.add_row({w.id, or_dash(join(w.pins, ", ")), or_dash(w.torch), or_dash(join(w.cuda, ", ")), w.summary});
  ctx.out << "Workarounds (workarounds.toml)\n" << ws.render() << "\n";

  TextTable pk({"package", "nixpkgs", "backends", "gpu target", "needs", "builder"});
  for (const auto& p : kb.packages) {
    std::vector<std::string> needs;
    for (const auto& n : p.needs) needs.push_back(n.strategy + " " + n.package);
    pk.add_row({p.name, (p.python() ? "python3XXPackages." : "") + p.attribute, join(p.backends, ", "), p.gpu_target,
                or_dash(join(needs, ", ")), p.builder});
  }
  ctx.out << "Packages (packages.toml)\n" << pk.render();
  return kExitOk;
}

}  // namespace tailor
