// Every command whose row declares it expands a spec (kMatrix) prints the
// matrix's warnings, and prints them the same way, once (the dispatcher's
// Session expands it, cli/session.hpp): a warning no command may drop is a
// fact weaker than its claim (here: a CUDA set the knowledge base does not
// record on the pin, which a spec may still ask for).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

const char* kSpec = "tests/specs/bad-complete/cuda-not-on-pin.toml";
const char* kVariant = "pytorch-python313-cuda12_9-sm90-avx512";
const char* kWarning =
    "tailor: warning: the knowledge base does not record cudaPackages_12_9 on fe5e41d: its CUDA list (12.8) is what "
    "teams build with there, not all it provides; measure it: tailor kb probe-pin fe5e41d --nixpkgs PATH\n";

// How each command that expands a spec is run on kSpec; \a dir takes outputs.
std::map<std::string, std::vector<std::string>> expanding_commands(const std::string& dir) {
  return {
      {"matrix", {kSpec}},
      {"explain", {kVariant, "--spec", kSpec}},
      {"generate", {kSpec, "-o", dir + "/tree"}},
      {"manifest", {kSpec, kVariant}},
      {"build", {kSpec, "--dry-run"}},
      {"ci", {kSpec, "--github"}},
      {"recommend",
       {"--spec", kSpec, "--gpus", "9.0:580.65.06", "--cpuinfo",
        "tests/data/cpuinfo/x86_64-sapphirerapids-avx512bf16"}},
      {"catalog", {kSpec, "-o", dir + "/catalog.html"}},
      {"prune", {"tests/data/elf/multi.so", "--sm", kVariant, "--spec", kSpec, "-o", dir + "/multi.so"}},
      {"verify", {"tests/data/elf/sm90.so", "--variant", kVariant, "--spec", kSpec, "--static"}},
  };
}

// The rows that declare no matrix, by hand: repin expands the spec before and
// after only to count its variants, and reports the findings it introduced;
// adopt takes a tree, not a spec, and expands only the spec it imports from it.
const std::set<std::string> kExpandNone = {"kb",    "check", "builders", "import", "adopt",
                                           "repin", "parse", "detect",   "inspect"};

TEST(MatrixWarnings, TheRowsDeclareWhichCommandsExpandASpec) {
  size_t expanding = 0;
  for (const Command& c : commands()) {
    EXPECT_EQ(needs(c, kMatrix), !kExpandNone.contains(c.name)) << c.name;
    expanding += needs(c, kMatrix);
    for (const Command& sub : c.subcommands) EXPECT_FALSE(needs(sub, kMatrix)) << c.name << " " << sub.name;
  }
  EXPECT_EQ(expanding, 10u);
  // A row that expands needs the knowledge base too.
  EXPECT_TRUE((kMatrix & kFacts) == kFacts);
}

TEST(MatrixWarnings, EveryCommandThatExpandsPrintsThemTheSameWay) {
  test::TempDir dir("matrix-warnings");
  auto runs = expanding_commands(dir.path());
  size_t ran = 0;
  for (const Command& c : commands()) {
    std::string name = c.name;
    if (!needs(c, kMatrix)) {
      EXPECT_FALSE(runs.contains(name)) << "tailor " << name << " runs on a spec here but its row declares no matrix";
      continue;
    }
    auto it = runs.find(name);
    ASSERT_NE(it, runs.end()) << "tailor " << name << ": its row declares a matrix; say here how it runs on a spec";
    ++ran;
    std::vector<std::string> args = {name};
    args.insert(args.end(), it->second.begin(), it->second.end());
    test::RunResult r = test::run_tailor(args);
    EXPECT_LT(r.status, 2) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(kWarning), std::string::npos) << "tailor " << name << " dropped the warning:\n" << r.err;
    // Once, not once per use of the matrix.
    EXPECT_EQ(r.err.find(kWarning), r.err.rfind(kWarning)) << name << "\n" << r.err;
  }
  EXPECT_EQ(ran, runs.size());
}

// prune reads the spec once however many of its variants --sm names.
TEST(MatrixWarnings, ASpecNamedTwiceExpandsOnce) {
  test::TempDir dir("matrix-warnings-once");
  test::RunResult r = test::run_tailor({"prune", "tests/data/elf/multi.so", "--sm",
                                        std::string(kVariant) + "," + kVariant, "--spec", kSpec, "--dry-run"});
  EXPECT_LT(r.status, 2) << r.err;
  ASSERT_NE(r.err.find(kWarning), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(kWarning), r.err.rfind(kWarning)) << r.err;
}

}  // namespace
}  // namespace tailor
