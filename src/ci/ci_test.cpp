// CI definitions, builder configuration: the GitHub workflow of every example
// passes the real validator (@action-validator/cli from npm, installed by
// scripts/deps into .tools/), outputs are stable (golden), chunks cover each
// variant exactly once.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

std::string validator() {
  std::string v = test::source_path(".tools/node_modules/.bin/action-validator");
  return std::filesystem::exists(v) ? v : std::string();
}

class Workflow : public testing::TestWithParam<std::string> {};

TEST_P(Workflow, GithubWorkflowPassesTheValidator) {
  if (validator().empty()) GTEST_SKIP() << "@action-validator/cli is not installed (scripts/deps installs it)";
  auto r = test::run_tailor({"ci", GetParam(), "--github"});
  ASSERT_EQ(r.status, 0) << r.err;
  test::TempDir dir("ci");
  std::string path = dir.path() + "/build.yml";
  std::ofstream(path) << r.out;
  auto v = test::run_command(validator() + " " + path, true);
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

TEST(Workflow, TheValidatorRejectsABrokenWorkflow) {
  if (validator().empty()) GTEST_SKIP() << "@action-validator/cli is not installed";
  auto r = test::run_tailor({"ci", "--github"});
  std::string broken = r.out;
  broken.replace(broken.find("runs-on:"), 8, "runs_on:");
  test::TempDir dir("ci-broken");
  std::ofstream(dir.path() + "/build.yml") << broken;
  EXPECT_NE(test::run_command(validator() + " " + dir.path() + "/build.yml", true).status, 0);
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

TEST(Workflow, Golden) {
  test::expect_golden(test::run_tailor({"ci", "--github", "--org", "acme"}).out, "tests/golden/ci/main-github.yml");
  test::expect_golden(test::run_tailor({"ci", "--gitlab", "--org", "acme"}).out, "tests/golden/ci/main-gitlab.yml");
  auto none = test::run_tailor({"ci"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "tailor: error: ci: say which CI: --github or --gitlab\n");
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
