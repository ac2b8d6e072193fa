// tailor builders HOST...: a Nix machines file for remote CUDA builders.
#include <ostream>

#include "ci/builders.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_builders(CommandContext& ctx) {
  CLI::App app{"Print a Nix machines file and settings for remote CUDA builders.", "builders"};
  std::vector<std::string> hosts;
  int gb_per_job = 8;
  app.add_option("HOST", hosts, "USER@HOST:SYSTEM:CORES:MEMORY_GB, e.g. ci@gpu1:x86_64-linux:64:512")->required();
  app.add_option("--gb-per-job", gb_per_job, "memory one nvcc job may need (default: 8)")->check(positive_whole_number());
  if (auto rc = parse_args(app, ctx)) return *rc;
  std::vector<BuilderHost> parsed;
  for (const auto& h : hosts) parsed.push_back(parse_builder_host(h));
  ctx.out << builders_text(parsed, gb_per_job);
  return kExitOk;
}

}  // namespace tailor
