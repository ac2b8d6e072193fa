// tailor kb probe-pin …: see cmd_kb_probe.cpp; tailor kb new-package …: cmd_kb_new_package.cpp.
// tailor kb [--json] [--pins [--torch V] [--python V] [--cuda V] [--vllm V]]: print the
// knowledge base, so users see what tailor believes; --pins lists the pins that provide a version.
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "kb/driver_rule.hpp"
#include "kb/kb_json.hpp"
#include "kb/pin_query.hpp"
#include "recommend/upstream_wheel.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {
std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }
std::string join(const std::vector<std::string>& v, const char* sep = " ") {
  return fmt::format("{}", fmt::join(v, sep));
}

// One column per attribute whose version pins record (packages.toml's json_version_keys).
TextTable pin_table(const KnowledgeBase& kb, const std::vector<const NixpkgsPin*>& pins) {
  std::vector<std::string> columns = {"pin"};
  columns.insert(columns.end(), kb.json_version_keys.begin(), kb.json_version_keys.end());
  for (const char* c : {"python", "cuda", "cudnn", "sha256"}) columns.emplace_back(c);
  TextTable t(columns);
  for (const NixpkgsPin* p : pins) {
    std::vector<std::string> row = {p->short_rev};
    for (const auto& attr : kb.json_version_keys) {
      std::string cell = p->version(attr) ? p->version(attr)->str() : "-";
      if (const FactEvidence* d = p->version_dispute(attr)) {  // the other values its sources give
        std::vector<std::string> others;
        for (const auto& c : d->claims)
          if (c.value != cell) others.push_back(c.value);
        cell += fmt::format(" (disputed: {})", join(others, ", "));
      }
      row.push_back(cell);
    }
    for (std::string cell : {join(p->python, ", "), join(p->cuda, ", "), p->cudnn ? p->cudnn->str() : "?",
                             std::string(p->sha256.empty() ? "unknown" : "known")})
      row.push_back(cell);
    t.add_row(row);
  }
  return t;
}

// tailor kb --pins: the pins that provide what the query asks for.
int print_pins(Session& s, const KnowledgeBase& kb, const PinQuery& q, bool json) {
  std::vector<const NixpkgsPin*> pins = pins_providing(kb, q);
  if (json) {
    nlohmann::ordered_json all = to_json(kb)["pins"], out = nlohmann::ordered_json::array();
    for (const auto& j : all)
      for (const NixpkgsPin* p : pins)
        if (j["short"] == p->short_rev) out.push_back(j);
    s.out << json_text(out);
  } else if (pins.empty()) {
    s.err << fmt::format("tailor: no pin of the knowledge base provides {}\n", q.describe());
  } else {
    s.out << pin_table(kb, pins).render();
  }
  return pins.empty() ? kExitProblems : kExitOk;
}

// GPUs, CUDA toolkits, CPU ISA targets and nixpkgs pins.
void print_hardware_tables(Session& s, const KnowledgeBase& kb) {
  TextTable gpus({"sm", "family", "products", "cuda", "platforms", "cudnn"});
  for (const auto& g : kb.gpus)
    gpus.add_row({g.sm, g.family, join(g.products, ", "),
                  g.min_cuda.str() + "-" + (g.max_cuda ? g.max_cuda->str() : std::string()), join(g.platforms, ", "),
                  g.cudnn_last ? "<= " + g.cudnn_last->str() : std::string("any")});
  s.out << "GPU architectures (gpu_architectures.toml)\n" << gpus.render() << "\n";

  // The driver rule's per-GPU half (kb/driver_rule.hpp): a build for a GPU needs the higher of its CUDA
  // major's compatibility floor and the GPU's first branch; past its last branch a driver does not see it.
  TextTable drivers({"sm", "family", "first driver", "last driver", "evidence"});
  for (const auto& g : kb.gpus)
    drivers.add_row(
        {g.sm, g.family, g.first_driver ? driver_text(*g.first_driver) : std::string("-"),
         g.last_driver ? driver_text(*g.last_driver) : std::string("-"),
         !g.first_driver && !g.last_driver
             ? std::string("not read")
             : std::string(g.driver_inferred ? "first inferred from a toolkit's GA driver" : "read in NVIDIA's notes") +
                   (g.preview ? "; preview" : "") + (g.open_modules_only ? "; open modules only" : "")});
  s.out << "Driver branches per GPU (gpu_architectures.toml)\n" << drivers.render() << "\n";

  TextTable cudas({"cuda", "min driver", "minor-compat driver", "max gcc", "nixpkgs"});
  for (const auto& c : kb.cudas)
    cudas.add_row({c.version.str(), c.min_driver ? c.min_driver->str() : "-",
                   c.minor_compat_driver ? c.minor_compat_driver->str() : "-",
                   c.max_gcc ? std::to_string(*c.max_gcc) : "-", c.nixpkgs_attr()});
  s.out << "CUDA toolkits (cuda_toolkits.toml)\n" << cudas.render() << "\n";

  // PyTorch's own wheels: per release, each CUDA build's code per platform.
  UpstreamWheels wheels = UpstreamWheels::load();
  TextTable wh({wheels.package, "cuda", "x86_64-linux", "aarch64-linux", "note"});
  for (const auto& r : wheels.releases) {
    auto list = [&](const std::string& cuda, const char* platform) {
      const UpstreamWheels::Build* b = wheels.build(r.version, cuda, platform);
      if (!b) return std::string("-");
      return join(b->sm, " ") + (b->ptx.empty() ? "" : " +PTX " + b->ptx);
    };
    for (const auto& c : r.cuda)
      wh.add_row({r.version, c, list(c, "x86_64-linux"), list(c, "aarch64-linux"),
                  c == r.default_cuda ? "PyPI default" : "-"});
    for (const auto& c : r.disputed) wh.add_row({r.version, c, "-", "-", "disputed"});
  }
  s.out << "PyTorch wheels (upstream_wheels.toml)\n" << wh.render() << "\n";

  TextTable isas({"isa", "platform", "level", "requires", "flags", "disables"});
  for (const auto& i : kb.isas)
    isas.add_row({i.name, i.platform, or_dash(i.x86_64_level), join(i.requires_features), join(i.flags),
                  or_dash(join(i.disable, ", "))});
  s.out << "CPU ISA targets (cpu_isas.toml)\n" << isas.render() << "\n";

  s.out << "nixpkgs pins (nixpkgs_pins.toml)\n" << pin_table(kb, pins_providing(kb, {})).render() << "\n";
}

// Python versions, workarounds and packages.
void print_software_tables(Session& s, const KnowledgeBase& kb) {
  TextTable py({"python", "packages", "end of life"});
  for (const auto& p : kb.pythons) py.add_row({p.version, p.packages_attr(), or_dash(p.end_of_life)});
  s.out << "Python versions (python_versions.toml)\n" << py.render() << "\n";

  TextTable ws({"workaround", "pins", "requested", "cuda", "summary"});
  for (const auto& w : kb.workarounds) {
    std::vector<std::string> requested;
    for (const auto& [attribute, version] : w.requested) requested.push_back(attribute + " " + version);
    ws.add_row(
        {w.id, or_dash(join(w.pins, ", ")), or_dash(join(requested, ", ")), or_dash(join(w.cuda, ", ")), w.summary});
  }
  s.out << "Workarounds (workarounds.toml)\n" << ws.render() << "\n";

  TextTable pk({"package", "nixpkgs", "backends", "gpu target", "needs", "builder"});
  for (const auto& p : kb.packages) {
    std::vector<std::string> needs;
    for (const auto& n : p.needs) needs.push_back(std::string(name_of(n.strategy)) + " " + n.package);
    pk.add_row({p.name, (p.python() ? "python3XXPackages." : "") + p.attribute, join(p.backends, ", "),
                std::string(name_of(p.gpu_target)), or_dash(join(needs, ", ")), p.builder});
  }
  s.out << "Packages (packages.toml)\n" << pk.render();
}

// tailor kb: every table, one after the other.
void print_tables(Session& s, const KnowledgeBase& kb) {
  print_hardware_tables(s, kb);
  print_software_tables(s, kb);
}

struct KbRun final : CommandRun {
  bool json = false, pins_only = false;
  PinQuery q;
  // Versions by the nixpkgs attribute pins record them under: a shorthand
  // flag names its attribute (--torch V is --version torch=V), --version
  // ATTR=V names any other.
  std::map<std::string, std::string> shorthand_versions;
  std::vector<std::string> other_versions;

  void define(CLI::App& app) override;
  void add_shorthand(CLI::App& app, const std::string& flag, const std::string& help) {
    app.add_option(flag, shorthand_versions[flag.substr(2)], help)->type_name("VERSION");
  }
  void validate() override;
  int run(Session& s) override {
    const KnowledgeBase& kb = s.facts();
    s.hosts();  // the overlay's host_features.toml is checked with the rest of it
    if (pins_only) return print_pins(s, kb, q, json);
    if (json)
      s.out << json_text(to_json(kb));
    else
      print_tables(s, kb);
    return kExitOk;
  }
};

void KbRun::define(CLI::App& app) {
  app.description(
      "Print the knowledge base tailor reasons with. `tailor kb probe-pin REV --nixpkgs PATH` measures a "
      "nixpkgs revision and writes its facts as an overlay; `tailor kb new-package NAME --like PACKAGE -o DIR` "
      "writes an overlay that adds a package.");
  app.add_flag("--json", json, "print JSON");
  app.add_flag("--pins", pins_only, "only the nixpkgs pins: those that provide every version asked for below");
  add_shorthand(app, "--torch", "with --pins: pins that ship (or build) this torch; 2.9 matches 2.9.1");
  app.add_option("--python", q.python, "with --pins: pins that provide this Python")->type_name("VERSION");
  app.add_option("--cuda", q.cuda, "with --pins: pins that provide this CUDA toolkit")->type_name("VERSION");
  add_shorthand(app, "--vllm", "with --pins: pins that ship this vLLM");
  app.add_option("--version", other_versions,
                 "with --pins: pins that ship nixpkgs attribute ATTR at version V (as `tailor kb` lists them)")
      ->type_name("ATTR=V");
}

// The pin query, checked before anything loads.
void KbRun::validate() {
  for (const auto& [attribute, version] : shorthand_versions)
    if (!version.empty()) q.versions.emplace_back(attribute, version);
  for (const auto& av : other_versions) {
    auto eq = av.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == av.size())
      usage_error(fmt::format("kb: --version {}: write ATTR=VERSION: a nixpkgs attribute and its version", av));
    q.versions.emplace_back(av.substr(0, eq), av.substr(eq + 1));
  }
  if (!q.empty() && !pins_only)
    usage_error("kb: --torch, --vllm, --version, --python and --cuda filter --pins; add --pins");
}

}  // namespace

std::unique_ptr<CommandRun> make_kb() { return std::make_unique<KbRun>(); }

}  // namespace tailor
