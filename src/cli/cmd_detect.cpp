// tailor detect [--json] [--cpuinfo FILE] [--gpus SPEC] [--os OS]: this
// host's CPU features, the ISA targets it can run, its GPUs and driver.
#include <ostream>

#include "cli/command.hpp"
#include "cli/host_options.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "host/host_json.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

struct DetectRun final : CommandRun {
  bool json = false;
  HostArgs host;
  void define(CLI::App& app) override {
    app.description("Show this host's CPU features, the ISA targets it can run, its GPUs and driver.");
    app.add_flag("--json", json, "print JSON");
    add_host_options(app, host);
  }
  int run(Session& s) override;
};

int DetectRun::run(Session& s) {
  EarlyGpuQuery gpus(host.options());  // runs while the knowledge base loads
  HostFacts facts = detect_host(host.options(), s.facts(), s.hosts(), &gpus);
  if (json)
    s.out << json_text(to_json(facts));
  else
    s.out << render_text(facts);
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_detect() { return std::make_unique<DetectRun>(); }

}  // namespace tailor
