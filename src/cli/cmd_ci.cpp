// tailor ci [SPEC] --github|--gitlab [--tree DIR] [--json]: a CI definition that builds the matrix.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ci/repo_paths.hpp"
#include "ci/workflow.hpp"
#include "cli/command.hpp"
#include "cli/expanded_matrix.hpp"
#include "cli/options.hpp"
#include "matrix/spec_loader.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

int cmd_ci(CommandContext& ctx) {
  CLI::App app{"Print a CI definition that builds, verifies and publishes the matrix.", "ci"};
  SpecArg spec_args;
  std::string kb_dir;
  bool github = false, gitlab = false, json = false;
  CiOptions o;
  add_spec_arg(app, spec_args, "spec file or built-in spec (default: build-pytorch/main)");
  auto* gh = app.add_flag("--github", github, "GitHub Actions workflow");
  app.add_flag("--gitlab", gitlab, "GitLab CI pipeline")->excludes(gh);
  app.add_option("--org", o.org, "the catalog to publish to (default: flox)")->check(safe_name_check());
  app.add_option("--chunk", o.chunk, "variants per job matrix (default and most: GitHub 256, GitLab 200)")
      ->check(positive_whole_number());
  app.add_option("--tree", o.tree,
                 "where the recipe tree lives (default: .); CI paths are relative to the repository root")
      ->type_name("DIR");
  app.add_option("--max-parallel", o.max_parallel, "builds at a time per platform (default: 8)")
      ->check(positive_whole_number());
  app.add_flag("--json", json, "print the build jobs and the definition's text as one JSON object");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  if (!github && !gitlab) {
    ctx.err << "tailor: error: ci: say which CI: --github or --gitlab\n";
    return kExitBadInput;
  }
  size_t limit = github ? kGithubMatrixLimit : kGitlabMatrixLimit;
  if (o.chunk > limit) {
    ctx.err << fmt::format("tailor: error: ci: --chunk {} is over the limit of {} jobs per matrix in {}\n", o.chunk,
                           limit, github ? "GitHub Actions" : "GitLab CI");
    return kExitBadInput;
  }
  std::string spec_arg = chosen_spec(spec_args, "ci", kDefaultSpec);
  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(spec_arg, kb);
  Matrix m = expand_reporting(spec, kb, ctx.err);
  // The CI job checks out the repository: name the spec file and the tree from its root.
  std::filesystem::path root = repository_root(std::filesystem::current_path());
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec_arg, ec)) o.spec = relative_to_repository(spec_arg, root, "the spec");
  o.tree = relative_to_repository(o.tree, root, "the tree");
  std::string definition =
      github ? github_workflow(spec, m, kb.platforms, o) : gitlab_pipeline(spec, m, kb.platforms, o);
  if (!json) {
    ctx.out << definition;
    return kExitOk;
  }
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const CiJob& job : ci_jobs(m, o.chunk ? o.chunk : limit))
    jobs.push_back({{"id", job.id}, {"platform", job.platform}, {"variants", job.variants}});
  nlohmann::ordered_json j{{"ci", github ? "github" : "gitlab"},
                           {"spec", o.spec.empty() ? spec.path : o.spec},
                           {"branch", spec.name},
                           {"tree", o.tree},
                           {"org", o.org},
                           {"variants", m.variants.size()},
                           {"jobs", jobs},
                           {"definition", definition}};
  ctx.out << json_text(j);
  return kExitOk;
}

}  // namespace tailor
