// tailor builders HOST... [--json]: a Nix machines file for remote CUDA builders.
#include <ostream>

#include <nlohmann/json.hpp>

#include "ci/builders.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

struct BuildersRun final : CommandRun {
  std::vector<std::string> hosts;
  int gb_per_job = 8;
  bool json = false;
  void define(CLI::App& app) override;
  int run(Session& s) override;
};

void BuildersRun::define(CLI::App& app) {
  app.description("Print a Nix machines file and settings for remote CUDA builders.");
  app.add_option("HOST", hosts, "USER@HOST:SYSTEM:CORES:MEMORY_GB, e.g. ci@gpu1:x86_64-linux:64:512")->required();
  app.add_option("--gb-per-job", gb_per_job, "memory one nvcc job may need (default: 8)")
      ->check(positive_whole_number());
  app.add_flag("--json", json, "print each builder's machines-file line and nix.conf settings as one JSON object");
}

int BuildersRun::run(Session& s) {
  const KnowledgeBase& kb = s.facts();  // platforms.toml: which systems may be remote builders
  std::vector<BuilderHost> parsed;
  for (const auto& h : hosts) parsed.push_back(parse_builder_host(h, kb.platforms));
  if (!json) {
    s.out << builders_text(parsed, gb_per_job);
    return kExitOk;
  }
  nlohmann::ordered_json builders = nlohmann::ordered_json::array();
  for (const auto& h : parsed)
    builders.push_back({{"uri", h.uri},
                        {"system", h.system},
                        {"cores", h.cores},
                        {"memory_gb", h.memory_gb},
                        {"max_jobs", kBuilderMaxJobs},
                        {"build_cores", build_cores(h, gb_per_job)},
                        {"features", kBuilderFeatures},
                        {"machines_line", machines_line(h)}});
  s.out << json_text(nlohmann::ordered_json{{"gb_per_job", gb_per_job}, {"builders", builders}});
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_builders() { return std::make_unique<BuildersRun>(); }

}  // namespace tailor
