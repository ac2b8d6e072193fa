// tailor manifest SPEC [VARIANT...] [--for HOST.json | --sm SM --isa ISA] [--org ORG]:
// a consumer Flox manifest for one kind of machine, installing variants side by side.
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "generate/manifest.hpp"
#include "host/host_file.hpp"
#include "host/manifest_choice.hpp"
#include "matrix/spec_loader.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_manifest(CommandContext& ctx) {
  CLI::App app{"Print a Flox manifest that installs VARIANTs side by side on one kind of machine.", "manifest"};
  std::string spec_arg, org = "flox", kb_dir, host_file, sm, isa;
  std::vector<std::string> names;
  app.add_option("SPEC", spec_arg, "spec file or built-in spec, e.g. build-pytorch/main")->required();
  app.add_option("VARIANT", names, "variant names (default: every variant of the spec; with --for/--isa, the candidates)");
  app.add_option("--org", org, "the catalog the variants are published to (default: flox)")->check(safe_name_check());
  auto* for_opt = app.add_option("--for", host_file, "pick each package's variant for the machine 'tailor detect --json' described")
                      ->type_name("HOST.json");
  app.add_option("--sm", sm, "pick for a machine with a GPU of this compute capability (with --isa)")
      ->type_name("SM")
      ->excludes(for_opt);
  app.add_option("--isa", isa, "pick for a machine whose CPU runs this ISA target (alone: a machine without GPU)")
      ->type_name("ISA")
      ->excludes(for_opt);
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  if (!sm.empty() && isa.empty()) {
    ctx.err << "tailor: error: manifest: --sm needs --isa: the CPU decides the ISA of every build\n";
    return kExitBadInput;
  }
  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(spec_arg, kb);
  Matrix m = expand(spec, kb);
  if (!host_file.empty() || !isa.empty()) {
    HostFacts host = !host_file.empty() ? read_host_file(host_file, kb) : host_from_targets(sm, isa, kb);
    ManifestChoice choice = choose_for_host(host, m, kb, names, spec.path);
    if (choice.names.empty()) {
      Diagnostic d;
      d.message = fmt::format("nothing in the matrix of {} runs on that machine", spec.path);
      d.notes = choice.reasons;
      throw DiagnosticError(d);
    }
    names = choice.names;
  } else if (names.empty()) {
    for (const auto& v : m.variants) names.push_back(v.name);
  }
  ctx.out << consumer_manifest(spec, m, names, org);
  return kExitOk;
}

}  // namespace tailor
