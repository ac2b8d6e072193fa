// tailor manifest SPEC [VARIANT...] [--for HOST.json | --sm SM --isa ISA] [--org ORG] [--json]:
// a consumer Flox manifest for one kind of machine, installing variants side by side.
#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "generate/manifest.hpp"
#include "host/host_file.hpp"
#include "matrix/spec_loader.hpp"
#include "recommend/manifest_choice.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

// --json: the manifest's [install] entries, read back from the text, and the text.
int print_json(Session& s, const Spec& spec, const std::string& org, const std::string& manifest) {
  toml::parse_result read = toml::parse(manifest);  // tailor's own output: it parses
  const toml::table& parsed = read.table();
  nlohmann::ordered_json install = nlohmann::ordered_json::array();
  for (const auto& [name, entry] : *parsed["install"].as_table()) {
    const toml::table& e = *entry.as_table();
    install.push_back({{"name", std::string(name.str())},
                       {"pkg_path", e["pkg-path"].value_or(std::string())},
                       {"version", e["version"] ? nlohmann::ordered_json(*e["version"].value<std::string>()) : nullptr},
                       {"system", e["systems"][0].value_or(std::string())},
                       {"priority", e["priority"].value_or(int64_t{0})}});
  }
  // Per system, by priority: the order in which the variants win file conflicts.
  auto order = [](const nlohmann::ordered_json& e) {
    return std::make_pair(e["system"].get<std::string>(), e["priority"].get<int64_t>());
  };
  std::stable_sort(install.begin(), install.end(), [&](const auto& a, const auto& b) { return order(a) < order(b); });
  nlohmann::ordered_json j{
      {"spec", spec.path}, {"branch", spec.name}, {"org", org}, {"install", install}, {"manifest", manifest}};
  s.out << json_text(j);
  return kExitOk;
}

struct ManifestRun final : CommandRun {
  SpecArg spec_arg;
  std::string spec_name, org = "flox", host_file, sm, isa;
  std::vector<std::string> names;
  bool json = false;

  void define(CLI::App& app) override;
  void validate() override {
    if (!sm.empty() && isa.empty()) usage_error("manifest: --sm needs --isa: the CPU decides the ISA of every build");
  }
  std::vector<std::string> specs() override {
    return {spec_name = chosen_spec_with_names(spec_arg, names, "manifest")};
  }
  int run(Session& s) override;
  std::vector<std::string> chosen_names(Session& s, const Expanded& e) const;
};

void ManifestRun::define(CLI::App& app) {
  app.description("Print a Flox manifest that installs VARIANTs side by side on one kind of machine.");
  add_spec_arg(
      app, spec_arg,
      "spec file or built-in spec, e.g. build-pytorch/main (required; with --spec, every positional is a VARIANT)");
  app.add_option("VARIANT", names,
                 "variant names (default: every variant of the spec; with --for/--isa, the candidates)");
  app.add_option("--org", org, "the catalog the variants are published to (default: flox)")->check(safe_name_check());
  auto* for_opt =
      app.add_option("--for", host_file, "pick each package's variant for the machine 'tailor detect --json' described")
          ->type_name("HOST.json");
  app.add_option("--sm", sm, "pick for a machine with a GPU of this compute capability (with --isa)")
      ->type_name("SM")
      ->excludes(for_opt);
  app.add_option("--isa", isa, "pick for a machine whose CPU runs this ISA target (alone: a machine without GPU)")
      ->type_name("ISA")
      ->excludes(for_opt);
  app.add_flag("--json", json, "print the installed variants and the manifest's text as one JSON object");
}

// The variants to install: those named, or (--for, --isa) each package's pick for the machine.
std::vector<std::string> ManifestRun::chosen_names(Session& s, const Expanded& e) const {
  const KnowledgeBase& kb = s.facts();
  if (host_file.empty() && isa.empty()) {
    if (!names.empty()) return names;
    std::vector<std::string> all;
    for (const auto& v : e.matrix.variants) all.push_back(v.name);
    return all;
  }
  HostFacts host =
      !host_file.empty() ? read_host_file(host_file, kb, s.hosts()) : host_from_targets(sm, isa, kb, s.hosts());
  ManifestChoice choice = choose_for_host(host, e.spec, e.matrix, kb, names);
  if (choice.names.empty()) {
    Diagnostic d;
    d.message = fmt::format("nothing in the matrix of {} runs on that machine", e.spec.path);
    d.notes = choice.reasons;
    throw DiagnosticError(d);
  }
  for (const auto& why : choice.left_out) s.warn("manifest: left out " + why);
  return choice.names;
}

int ManifestRun::run(Session& s) {
  const auto& e = s.matrix(spec_name);
  std::string manifest = consumer_manifest(e.spec, e.matrix, chosen_names(s, e), org);
  if (json) return print_json(s, e.spec, org, manifest);
  s.out << manifest;
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_manifest() { return std::make_unique<ManifestRun>(); }

}  // namespace tailor
