// CI definitions, builder configuration: the GitHub workflow and the GitLab
// pipeline of every example pass real validators (check-jsonschema with the
// schemas it bundles, vendor.github-workflows and vendor.gitlab-ci, then
// tests/ci/job_graph.py for what a schema cannot see: stages and needs; both
// from PyPI, installed by scripts/deps into .tools/venv), outputs are stable
// (golden), chunks cover each variant exactly once and stay within each
// service's matrix limit.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

// What is missing to validate CI files here; empty when nothing is.
std::string missing_validator() {
  if (test::pypi_tool("check-jsonschema").empty()) return "check-jsonschema (.tools/venv) is not installed";
  if (test::pypi_tool("python").empty()) return "the tools' Python (.tools/venv) is not installed";
  return {};
}
#define SKIP_IF_NO_VALIDATOR() TAILOR_SKIP_IF_TOOL_MISSING(!missing_validator().empty(), missing_validator())

// The file's schema check, then its job graph's; exit status 0 when both pass,
// the messages of both in out.
test::RunResult validate(const std::string& file, const std::string& schema, const std::string& graph) {
  return test::run_command(test::pypi_tool("check-jsonschema") + " --builtin-schema " + schema + " " + file + " && " +
                               test::pypi_tool("python") + " " + test::source_path("tests/ci/job_graph.py") + " " +
                               graph + " " + file,
                           true);
}
test::RunResult github_validate(const std::string& file) {
  return validate(file, "vendor.github-workflows", "--github");
}
test::RunResult gitlab_validate(const std::string& pipeline) {
  test::TempDir dir("gitlab");
  std::ofstream(dir.path() + "/.gitlab-ci.yml") << pipeline;
  return validate(dir.path() + "/.gitlab-ci.yml", "vendor.gitlab-ci", "--gitlab");
}

// Each job's matrix: job id -> its variants, from either CI's output.
std::map<std::string, std::vector<std::string>> matrix_jobs(const std::string& out) {
  std::map<std::string, std::vector<std::string>> jobs;
  std::string job;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("build-", 0) == 0 || line.rfind("  build-", 0) == 0) job = line.substr(0, line.find(':'));
    if (line.rfind("          - ", 0) == 0) jobs[job].push_back(line.substr(12));
  }
  return jobs;
}

class Workflow : public testing::TestWithParam<std::string> {};

TEST_P(Workflow, GithubWorkflowPassesTheValidator) {
  SKIP_IF_NO_VALIDATOR();
  auto r = test::run_tailor({"ci", GetParam(), "--github"});
  ASSERT_EQ(r.status, 0) << r.err;
  test::TempDir dir("ci");
  std::string path = dir.path() + "/build.yml";
  std::ofstream(path) << r.out;
  auto v = github_validate(path);
  EXPECT_EQ(v.status, 0) << v.out;
}

INSTANTIATE_TEST_SUITE_P(Examples, Workflow,
                         testing::Values("build-pytorch/main", "build-pytorch/pytorch-2.9-vllm-0.14.0",
                                         "build-pytorch/pytorch-2.10-python313", "build-vllm/vllm-0.14.0"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST_P(Workflow, GitlabPipelinePassesTheValidator) {
  SKIP_IF_NO_VALIDATOR();
  auto r = test::run_tailor({"ci", GetParam(), "--gitlab"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto v = gitlab_validate(r.out);
  EXPECT_EQ(v.status, 0) << v.out;
}

TEST(Workflow, TheGitlabValidatorRejectsBrokenPipelines) {
  SKIP_IF_NO_VALIDATOR();
  const std::string good = test::run_tailor({"ci", "--gitlab"}).out;
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string b = good;
    b.replace(b.find(from), from.size(), to);
    return gitlab_validate(b);
  };
  // The schema: a timeout is a string.
  auto schema = broken("  timeout: 6h", "  timeout: [6h]");
  EXPECT_EQ(schema.status, 1);
  EXPECT_NE(schema.out.find(".timeout: ['6h'] is not of type 'string'"), std::string::npos) << schema.out;
  // The job graph: a stage that is not declared, a job that is not there.
  auto stage = broken("  stage: build", "  stage: bild");
  EXPECT_EQ(stage.status, 1);
  EXPECT_NE(stage.out.find(": stage 'bild' is not in stages (check, build)\n"), std::string::npos) << stage.out;
  auto needs = broken("  needs: [drift]", "  needs: [drfit]");
  EXPECT_EQ(needs.status, 1);
  EXPECT_NE(needs.out.find(": needs 'drfit', which is no job\n"), std::string::npos) << needs.out;
  // A build job the check job needs: a cycle, and a need on a later stage.
  auto cycle = broken("  stage: check\n", "  stage: check\n  needs: [build-x86-64-linux]\n");
  EXPECT_EQ(cycle.status, 1);
  EXPECT_NE(cycle.out.find(": drift: needs 'build-x86-64-linux', whose stage comes later\n"), std::string::npos)
      << cycle.out;
  EXPECT_NE(cycle.out.find(": drift: on a needs cycle\n"), std::string::npos) << cycle.out;
}

TEST(Workflow, TheValidatorRejectsABrokenWorkflow) {
  SKIP_IF_NO_VALIDATOR();
  auto r = test::run_tailor({"ci", "--github"});
  std::string broken = r.out;
  broken.replace(broken.find("runs-on:"), 8, "runs_on:");
  test::TempDir dir("ci-broken");
  std::ofstream(dir.path() + "/build.yml") << broken;
  auto schema = github_validate(dir.path() + "/build.yml");
  EXPECT_EQ(schema.status, 1);
  EXPECT_NE(schema.out.find("'runs-on' is a required property"), std::string::npos) << schema.out;
  // The job graph: a job that is not there.
  broken = r.out;
  broken.replace(broken.find("needs: drift"), 12, "needs: drfit");
  std::ofstream(dir.path() + "/build.yml") << broken;
  auto needs = github_validate(dir.path() + "/build.yml");
  EXPECT_EQ(needs.status, 1);
  EXPECT_NE(needs.out.find(": needs 'drfit', which is no job\n"), std::string::npos) << needs.out;
}

TEST(Workflow, ChunksCoverEveryVariantOnce) {
  for (const char* flag : {"--github", "--gitlab"}) {
    auto r = test::run_tailor({"ci", "build-pytorch/pytorch-2.9-vllm-0.14.0", flag, "--chunk", "50"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<std::string, int> seen;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("          - ", 0) == 0) seen[line.substr(12)]++;
    EXPECT_EQ(seen.size(), 131u) << flag;
    for (const auto& [name, n] : seen) EXPECT_EQ(n, 1) << name;
    // 94 x86_64 variants in chunks of 50: two jobs.
    EXPECT_NE(r.out.find("build-x86-64-linux-2:"), std::string::npos) << flag;
    EXPECT_EQ(r.out.find("build-x86-64-linux-3:"), std::string::npos) << flag;
  }
}

// 3 Pythons x 5 x86 ISAs x 19 (CUDA, SM) pairs (SM103 needs CUDA 12.9) = 285
// x86_64 variants: over both services' matrix limits, so each CI splits them.
constexpr const char* kWideSpec = R"([branch]
name = "wide"
product = "build-pytorch"
pin = "46336d4"
python = "3.12"
torch = "2.9.1"

[[family]]
name = "gpu"
package = "pytorch"
backend = "cuda"
python = ["3.11", "3.12", "3.13"]
cuda = ["12.9", "12.8"]
sm = ["6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0"]
isa = ["avx", "avx2", "avx512", "avx512bf16", "avx512vnni"]
)";

TEST(Workflow, AWideMatrixIsSplitWithinEachServicesLimit) {
  test::TempDir dir("wide");
  std::string spec = dir.path() + "/wide.toml";
  std::ofstream(spec) << kWideSpec;
  std::filesystem::create_directories(dir.path() + "/.git");  // CI files name the spec from its repository
  for (auto [flag, limit, expected_jobs] : {std::tuple{"--github", 256u, 2u}, std::tuple{"--gitlab", 200u, 2u}}) {
    auto r = test::run_command("cd " + dir.path() + " && " + tailor::test::tailor_binary() + " ci wide.toml " + flag);
    ASSERT_EQ(r.status, 0) << r.err;
    auto jobs = matrix_jobs(r.out);
    ASSERT_EQ(jobs.size(), expected_jobs) << flag;
    std::map<std::string, int> seen;
    for (const auto& [job, names] : jobs) {
      EXPECT_LE(names.size(), limit) << flag << " " << job;
      for (const auto& n : names) seen[n]++;
    }
    EXPECT_EQ(seen.size(), 285u) << flag;
    for (const auto& [name, n] : seen) EXPECT_EQ(n, 1) << name;
    EXPECT_EQ(jobs.begin()->second.size(), limit) << flag << ": the first chunk is full";
  }
  auto over = test::run_tailor({"ci", spec, "--gitlab", "--chunk", "201"});
  EXPECT_EQ(over.status, 2);
  EXPECT_EQ(over.err, "tailor: error: ci: --chunk 201 is over the limit of 200 jobs per matrix in GitLab CI\n");
  over = test::run_tailor({"ci", spec, "--github", "--chunk", "257"});
  EXPECT_EQ(over.status, 2);
  EXPECT_EQ(over.err, "tailor: error: ci: --chunk 257 is over the limit of 256 jobs per matrix in GitHub Actions\n");
  SKIP_IF_NO_VALIDATOR();
  {
    auto v = gitlab_validate(
        test::run_command("cd " + dir.path() + " && " + tailor::test::tailor_binary() + " ci wide.toml --gitlab").out);
    EXPECT_EQ(v.status, 0) << v.out;
  }
  {
    std::ofstream(dir.path() + "/build.yml")
        << test::run_command("cd " + dir.path() + " && " + tailor::test::tailor_binary() + " ci wide.toml --github")
               .out;
    EXPECT_EQ(github_validate(dir.path() + "/build.yml").status, 0);
  }
}

TEST(Workflow, Golden) {
  test::expect_golden(test::run_tailor({"ci", "--github", "--org", "acme"}).out, "tests/golden/ci/main-github.yml");
  test::expect_golden(test::run_tailor({"ci", "--gitlab", "--org", "acme"}).out, "tests/golden/ci/main-gitlab.yml");
  auto none = test::run_tailor({"ci"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "tailor: error: ci: say which CI: --github or --gitlab\n");
}

// A repository whose spec lives in specs/ and whose recipe tree is pytorch/,
// with tailor ci run from a subdirectory: the CI files name both from the root.
class CiInRepository : public testing::Test {
 protected:
  void SetUp() override {
    for (const char* d : {".git", "specs", "pytorch", "docs"})
      std::filesystem::create_directories(repo_.path() + "/" + d);
    std::ofstream(repo_.path() + "/specs/main.toml")
        << test::read_file(test::source_path("examples/build-pytorch/main.toml"));
  }
  test::RunResult ci(const std::string& args) {
    return test::run_command("cd " + repo_.path() + "/docs && " + tailor::test::tailor_binary() + " ci " + args);
  }
  test::TempDir repo_{"ci-repo"};
};

TEST_F(CiInRepository, GithubNamesTheSpecAndTheTreeFromTheRoot) {
  auto r = ci(repo_.path() + "/specs/main.toml --github --tree ../pytorch");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find(repo_.path()), std::string::npos) << "no absolute path reaches the CI file";
  EXPECT_NE(r.out.find("        run: tailor generate specs/main.toml -o pytorch --check\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    defaults:\n      run:\n        working-directory: pytorch\n"), std::string::npos);
  EXPECT_NE(r.out.find("# Paths are relative to the repository root; the recipe tree is pytorch.\n"),
            std::string::npos);
  SKIP_IF_NO_VALIDATOR();
  std::ofstream(repo_.path() + "/build.yml") << r.out;
  auto v = github_validate(repo_.path() + "/build.yml");
  EXPECT_EQ(v.status, 0) << v.out;
}

TEST_F(CiInRepository, GitlabNamesTheSpecAndTheTreeFromTheRoot) {
  auto r = ci("../specs/main.toml --gitlab --tree ../pytorch");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("  script:\n    - tailor generate specs/main.toml -o pytorch --check\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  script:\n    - cd pytorch\n    - flox build \"$VARIANT\"\n"), std::string::npos);
  SKIP_IF_NO_VALIDATOR();
  auto v = gitlab_validate(r.out);
  EXPECT_EQ(v.status, 0) << v.out;
}

TEST_F(CiInRepository, TheDefaultTreeIsTheRoot) {
  auto r = ci("../specs/main.toml --github");
  ASSERT_EQ(r.status, 0) << r.out;
  // Run from docs/, "." is docs: the tree is where tailor ci says, from the root.
  EXPECT_NE(r.out.find("run: tailor generate specs/main.toml -o docs --check\n"), std::string::npos) << r.out;
  auto root =
      test::run_command("cd " + repo_.path() + " && " + tailor::test::tailor_binary() + " ci specs/main.toml --github");
  EXPECT_NE(root.out.find("run: tailor generate specs/main.toml -o . --check\n"), std::string::npos) << root.out;
  EXPECT_EQ(root.out.find("working-directory"), std::string::npos);
}

// A spec or tree whose name starts with '-': the commands the CI files run
// must not read it as an option, and tailor itself must accept them.
TEST_F(CiInRepository, PathsStartingWithADashStayArguments) {
  std::filesystem::copy_file(repo_.path() + "/specs/main.toml", repo_.path() + "/-main.toml");
  auto gh = test::run_command("cd " + repo_.path() + " && " + tailor::test::tailor_binary() +
                              " ci ./-main.toml --github --tree ./-tree");
  ASSERT_EQ(gh.status, 0) << gh.out;
  EXPECT_NE(gh.out.find("        run: tailor generate ./-main.toml -o ./-tree --check\n"), std::string::npos) << gh.out;
  auto gl = test::run_command("cd " + repo_.path() + " && " + tailor::test::tailor_binary() +
                              " ci ./-main.toml --gitlab --tree ./-tree");
  ASSERT_EQ(gl.status, 0) << gl.out;
  EXPECT_NE(gl.out.find("    - cd ./-tree\n"), std::string::npos) << gl.out;
  // The drift job's command, as the workflow has it (without --check: the tree is new).
  auto gen = test::run_command("cd " + repo_.path() + " && " + tailor::test::tailor_binary() +
                               " generate ./-main.toml -o ./-tree");
  EXPECT_EQ(gen.status, 0) << gen.out;
  EXPECT_TRUE(std::filesystem::exists(repo_.path() + "/-tree/README.md"));
}

TEST_F(CiInRepository, ASpecOutsideTheRepositoryIsAnError) {
  test::TempDir elsewhere("ci-elsewhere");
  std::ofstream(elsewhere.path() + "/main.toml") << test::read_file(repo_.path() + "/specs/main.toml");
  auto r = test::run_command("cd " + repo_.path() + " && " + tailor::test::tailor_binary() + " ci " + elsewhere.path() +
                             "/main.toml --github 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("the spec is outside the repository " + repo_.path() + ": a CI checkout cannot see it"),
            std::string::npos)
      << r.out;
}

// A site's knowledge-base overlay names its runners: the build jobs of that
// platform and the drift job take them; the workflow still passes the validator.
TEST(Workflow, AnOverlayGivesTheJobsTheSitesRunners) {
  test::TempDir kb("ci-kb");
  std::ofstream(kb.path() + "/platforms.toml")
      << "[[platform]]\nsystem = \"aarch64-linux\"\ngithub_runs_on = [\"self-hosted\", \"linux\", \"grace\"]\n"
         "remote_builder = false\n"
         "[drift_job]\ngithub_runs_on = [\"ubuntu-24.04\"]\n";
  auto r = test::run_tailor({"ci", "--github", "--kb", kb.path()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  drift:\n    runs-on: [ubuntu-24.04]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  build-aarch64-linux:\n    needs: drift\n    runs-on: [self-hosted, linux, grace]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    runs-on: [self-hosted, linux, x64, big-parallel]\n"), std::string::npos)
      << "x86_64-linux keeps the embedded labels";
  // The same overlay says aarch64-linux machines are no remote builders here.
  auto b = test::run_tailor({"builders", "gh200:aarch64-linux:72:480", "--kb", kb.path()});
  EXPECT_EQ(b.status, 2);
  EXPECT_EQ(b.err,
            "tailor: error: builder 'gh200:aarch64-linux:72:480': system must be x86_64-linux\n"
            "hint: write USER@HOST:SYSTEM:CORES:MEMORY_GB, e.g. ci@gpu1:x86_64-linux:64:512\n");
  SKIP_IF_NO_VALIDATOR();
  test::TempDir dir("ci-overlay");
  std::ofstream(dir.path() + "/build.yml") << r.out;
  EXPECT_EQ(github_validate(dir.path() + "/build.yml").status, 0);
}

TEST(Builders, MachinesFileAndSettings) {
  auto r = test::run_tailor({"builders", "ci@gpu1:x86_64-linux:64:256", "gh200:aarch64-linux:72:480"});
  ASSERT_EQ(r.status, 0) << r.err;
  test::expect_golden(r.out, "tests/golden/ci/builders.txt");
  auto bad = test::run_tailor({"builders", "gpu1:x86_64-linux:64"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err,
            "tailor: error: builder 'gpu1:x86_64-linux:64': expected 4 fields separated by ':'\n"
            "hint: write USER@HOST:SYSTEM:CORES:MEMORY_GB, e.g. ci@gpu1:x86_64-linux:64:512\n");
  EXPECT_EQ(test::run_tailor({"builders", "gpu1:riscv64-linux:64:256"}).status, 2);
}

}  // namespace
}  // namespace tailor
