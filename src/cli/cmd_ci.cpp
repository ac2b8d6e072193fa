// tailor ci [SPEC] --github|--gitlab [--tree DIR]: a CI definition that builds the matrix.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "ci/repo_paths.hpp"
#include "ci/workflow.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "matrix/spec_loader.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_ci(CommandContext& ctx) {
  CLI::App app{"Print a CI definition that builds, verifies and publishes the matrix.", "ci"};
  std::string spec_arg = kDefaultSpec, kb_dir;
  bool github = false, gitlab = false;
  CiOptions o;
  app.add_option("SPEC", spec_arg, "spec file or built-in spec (default: build-pytorch/main)");
  auto* gh = app.add_flag("--github", github, "GitHub Actions workflow");
  app.add_flag("--gitlab", gitlab, "GitLab CI pipeline")->excludes(gh);
  app.add_option("--org", o.org, "the catalog to publish to (default: flox)")->check(safe_name_check());
  app.add_option("--chunk", o.chunk, "variants per job matrix (default and most: GitHub 256, GitLab 200)")
      ->check(positive_whole_number());
  app.add_option("--tree", o.tree, "where the recipe tree lives (default: .); CI paths are relative to the repository root")
      ->type_name("DIR");
  app.add_option("--max-parallel", o.max_parallel, "builds at a time per platform (default: 8)")->check(positive_whole_number());
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
  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(spec_arg, kb);
  Matrix m = expand(spec, kb);
  // The CI job checks out the repository: name the spec file and the tree from its root.
  std::filesystem::path root = repository_root(std::filesystem::current_path());
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec_arg, ec)) o.spec = relative_to_repository(spec_arg, root, "the spec");
  o.tree = relative_to_repository(o.tree, root, "the tree");
  ctx.out << (github ? github_workflow(spec, m, o) : gitlab_pipeline(spec, m, o));
  return kExitOk;
}

}  // namespace tailor
