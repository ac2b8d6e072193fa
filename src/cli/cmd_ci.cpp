// tailor ci [SPEC] --github|--gitlab [--tree DIR] [--json]: a CI definition that builds the matrix.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ci/repo_paths.hpp"
#include "ci/workflow.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "matrix/spec_loader.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

struct CiRun final : CommandRun {
  SpecArg spec_args;
  std::string spec_arg;
  bool github = false, gitlab = false, json = false;
  CiOptions o;

  void define(CLI::App& app) override;
  void validate() override;
  std::vector<std::string> specs() override;
  int run(Session& s) override;
  void print_json(Session& s, const Expanded& e, size_t limit, const std::string& definition) const;
};

void CiRun::define(CLI::App& app) {
  app.description("Print a CI definition that builds, verifies and publishes the matrix.");
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
}

void CiRun::validate() {
  if (!github && !gitlab) usage_error("ci: say which CI: --github or --gitlab");
  size_t limit = github ? kGithubMatrixLimit : kGitlabMatrixLimit;
  if (o.chunk > limit)
    usage_error(fmt::format("ci: --chunk {} is over the limit of {} jobs per matrix in {}", o.chunk, limit,
                            github ? "GitHub Actions" : "GitLab CI"));
}

std::vector<std::string> CiRun::specs() { return {spec_arg = chosen_spec(spec_args, "ci", kDefaultSpec)}; }

void CiRun::print_json(Session& s, const Expanded& e, size_t limit, const std::string& definition) const {
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const CiJob& job : ci_jobs(e.matrix, o.chunk ? o.chunk : limit))
    jobs.push_back({{"id", job.id}, {"platform", job.platform}, {"variants", job.variants}});
  nlohmann::ordered_json j{{"ci", github ? "github" : "gitlab"},
                           {"spec", o.spec.empty() ? e.spec.path : o.spec},
                           {"branch", e.spec.name},
                           {"tree", o.tree},
                           {"org", o.org},
                           {"variants", e.matrix.variants.size()},
                           {"jobs", jobs},
                           {"definition", definition}};
  s.out << json_text(j);
}

int CiRun::run(Session& s) {
  const auto& e = s.matrix(spec_arg);
  // The CI job checks out the repository: name the spec file and the tree from its root.
  std::filesystem::path root = repository_root(std::filesystem::current_path());
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec_arg, ec)) o.spec = relative_to_repository(spec_arg, root, "the spec");
  o.tree = relative_to_repository(o.tree, root, "the tree");
  std::string definition = github ? github_workflow(e.spec, e.matrix, s.facts().platforms, o)
                                  : gitlab_pipeline(e.spec, e.matrix, s.facts().platforms, o);
  if (json)
    print_json(s, e, github ? kGithubMatrixLimit : kGitlabMatrixLimit, definition);
  else
    s.out << definition;
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_ci() { return std::make_unique<CiRun>(); }

}  // namespace tailor
