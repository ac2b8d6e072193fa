// tailor detect [--json] [--cpuinfo FILE] [--gpus SPEC] [--os OS]: this
// host's CPU features, the ISA targets it can run, its GPUs and driver.
#include <ostream>

#include "cli/command.hpp"
#include "cli/host_options.hpp"
#include "cli/options.hpp"
#include "host/host_json.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

int cmd_detect(CommandContext& ctx) {
  CLI::App app{"Show this host's CPU features, the ISA targets it can run, its GPUs and driver.", "detect"};
  bool json = false;
  std::string kb_dir;
  HostArgs host;
  app.add_flag("--json", json, "print JSON");
  add_host_options(app, host);
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  EarlyGpuQuery gpus(host.options());  // runs while the knowledge base loads
  KnowledgeBase kb = load_kb(kb_dir);
  HostFacts facts = detect_host(host.options(), kb, &gpus);
  if (json)
    ctx.out << json_text(to_json(facts));
  else
    ctx.out << render_text(facts);
  return kExitOk;
}

}  // namespace tailor
