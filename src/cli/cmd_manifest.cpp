// tailor manifest SPEC [VARIANT...] [--org ORG]: a consumer Flox manifest that
// installs several variants (default: all of them) side by side.
#include <ostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "generate/manifest.hpp"
#include "matrix/spec_loader.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_manifest(CommandContext& ctx) {
  CLI::App app{"Print a Flox manifest that installs VARIANTs side by side.", "manifest"};
  std::string spec_arg, org = "flox", kb_dir;
  std::vector<std::string> names;
  app.add_option("SPEC", spec_arg, "spec file or built-in spec, e.g. build-pytorch/main")->required();
  app.add_option("VARIANT", names, "variant names (default: every variant of the spec)");
  app.add_option("--org", org, "the catalog the variants are published to (default: flox)")->check(safe_name_check());
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(spec_arg, kb);
  Matrix m = expand(spec, kb);
  if (names.empty())
    for (const auto& v : m.variants) names.push_back(v.name);
  ctx.out << consumer_manifest(spec, m, names, org);
  return kExitOk;
}

}  // namespace tailor
