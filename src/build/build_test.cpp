// tailor build against a fake nix on PATH (tests/build/fake-nix): plan order,
// the concurrency bound, failure and resume, --builders, the report.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::string fmt_start(const std::string& pkg, const std::string& sm) {
  return "start " + pkg + "-python313-cuda12_8-" + sm + "-avx ";
}

class FakeNix : public testing::Test {
 protected:
  void SetUp() override {
    bin_ = dir_.path() + "/bin";
    fs::create_directories(bin_);
    fs::copy_file(test::source_path("tests/build/fake-nix"), bin_ + "/nix");
    old_path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    std::string tailor_dir = fs::path(TAILOR_BINARY).parent_path().string();
    // Only the fake nix and tailor (for verify) plus the basics: no flox.
    ::setenv("PATH", (bin_ + ":" + tailor_dir + ":/usr/bin:/bin").c_str(), 1);
    ::setenv("FAKE_NIX_RECORD", (dir_.path() + "/record").c_str(), 1);
    ::setenv("FAKE_NIX_RUNNING", (dir_.path() + "/running").c_str(), 1);
    ::setenv("FAKE_NIX_STORE", (dir_.path() + "/store").c_str(), 1);
    ::setenv("FAKE_NIX_SLEEP", "0.2", 1);
    ::setenv("FAKE_NIX_FAIL", "", 1);
  }
  void TearDown() override { ::setenv("PATH", old_path_.c_str(), 1); }

  std::vector<std::string> record() {
    std::vector<std::string> lines;
    std::ifstream in(dir_.path() + "/record");
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
  test::RunResult build(std::vector<std::string> extra) {
    std::vector<std::string> args = {"build", "build-pytorch/main", "--tree", dir_.path() + "/tree", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tailor(args);
  }
  static int index_of(const std::vector<std::string>& lines, const std::string& prefix) {
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i].rfind(prefix, 0) == 0) return static_cast<int>(i);
    return -1;
  }

  test::TempDir dir_{"build"};
  std::string bin_, old_path_;
};

TEST_F(FakeNix, BuildsDependenciesFirstWithinTheJobBound) {
  auto r = build({"*sm75-avx", "*sm61-avx", "-j", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = record();
  const std::vector<std::string> names = {"pytorch-python313-cuda12_8-sm61-avx", "pytorch-python313-cuda12_8-sm75-avx",
                                          "torchvision-python313-cuda12_8-sm61-avx", "torchvision-python313-cuda12_8-sm75-avx",
                                          "torchaudio-python313-cuda12_8-sm61-avx", "torchaudio-python313-cuda12_8-sm75-avx"};
  for (const auto& n : names) EXPECT_GE(index_of(lines, "start " + n + " "), 0) << n;
  // A companion starts only after its torch ended.
  for (const char* sm : {"sm61", "sm75"})
    for (const char* pkg : {"torchvision", "torchaudio"})
      EXPECT_GT(index_of(lines, fmt_start(pkg, sm)), index_of(lines, std::string("end pytorch-python313-cuda12_8-") + sm + "-avx ok"));
  int most = 0;
  for (const auto& l : lines) {
    auto at = l.find("running=");
    if (at != std::string::npos) most = std::max(most, std::atoi(l.c_str() + at + 8));
  }
  EXPECT_EQ(most, 2) << "two jobs should overlap, never three";
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["ok"], true);
  ASSERT_EQ(report["builds"].size(), 6u);
  for (const auto& b : report["builds"]) {
    EXPECT_EQ(b["status"], "succeeded");
    EXPECT_EQ(b["result"], dir_.path() + "/store/" + b["name"].get<std::string>());
    EXPECT_TRUE(fs::exists(b["log"].get<std::string>()));
    EXPECT_NE(b["verify"], "not run") << "tailor is on PATH, so each result gets a verdict";
  }
  EXPECT_TRUE(test::read_file(report["builds"][0]["log"]).find("built pytorch-python313-cuda12_8-sm61-avx") !=
              std::string::npos);
  // Progress went to stderr, one line per event.
  EXPECT_NE(r.err.find("started pytorch-python313-cuda12_8-sm61-avx"), std::string::npos);
}

TEST_F(FakeNix, FailureBlocksDependentsAndARerunResumes) {
  ::setenv("FAKE_NIX_FAIL", "pytorch-python313-cuda12_8-sm75-avx", 1);
  auto first = build({"*sm75-avx", "pytorch-python313-cpu-avx2", "--keep-going"});
  EXPECT_EQ(first.status, 1);
  auto report = nlohmann::json::parse(first.out);
  EXPECT_EQ(report["ok"], false);
  std::map<std::string, std::string> status;
  for (const auto& b : report["builds"]) status[b["name"]] = b["status"];
  EXPECT_EQ(status["pytorch-python313-cuda12_8-sm75-avx"], "failed");
  EXPECT_EQ(status["torchvision-python313-cuda12_8-sm75-avx"], "blocked");
  EXPECT_EQ(status["torchaudio-python313-cuda12_8-sm75-avx"], "blocked");
  EXPECT_EQ(status["pytorch-python313-cpu-avx2"], "succeeded");  // independent, --keep-going

  ::setenv("FAKE_NIX_FAIL", "", 1);
  fs::remove(dir_.path() + "/record");
  auto second = build({"*sm75-avx", "pytorch-python313-cpu-avx2"});
  EXPECT_EQ(second.status, 0) << second.err;
  auto lines = record();
  EXPECT_EQ(index_of(lines, "start pytorch-python313-cpu-avx2 "), -1) << "succeeded earlier: not rebuilt";
  EXPECT_GE(index_of(lines, "start pytorch-python313-cuda12_8-sm75-avx "), 0);
  status.clear();
  auto second_report = nlohmann::json::parse(second.out);
  for (const auto& b : second_report["builds"]) status[b["name"]] = b["status"];
  EXPECT_EQ(status["pytorch-python313-cpu-avx2"], "reused");
  EXPECT_EQ(status["torchaudio-python313-cuda12_8-sm75-avx"], "succeeded");

  fs::remove(dir_.path() + "/record");
  EXPECT_EQ(build({"pytorch-python313-cpu-avx2", "--rebuild"}).status, 0);
  EXPECT_GE(index_of(record(), "start pytorch-python313-cpu-avx2 "), 0) << "--rebuild builds again";
}

TEST_F(FakeNix, StopsAtTheFirstFailureWithoutKeepGoing) {
  ::setenv("FAKE_NIX_FAIL", "pytorch-python313-cpu-avx2", 1);
  auto r = build({"pytorch-python313-cpu-avx2", "pytorch-python313-cpu-avx512"});
  EXPECT_EQ(r.status, 1);
  std::map<std::string, std::string> status;
  auto report = nlohmann::json::parse(r.out);
  for (const auto& b : report["builds"]) status[b["name"]] = b["status"];
  EXPECT_EQ(status["pytorch-python313-cpu-avx2"], "failed");
  EXPECT_EQ(status["pytorch-python313-cpu-avx512"], "not-started");
}

TEST_F(FakeNix, PassesBuildersThrough) {
  auto r = build({"pytorch-python313-cpu-avx2", "--builders", "ssh-ng://gpu1 x86_64-linux - 1 1 big-parallel"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = record();
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("--builders ssh-ng://gpu1 x86_64-linux - 1 1 big-parallel"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("--file " + dir_.path() + "/tree/.flox/pkgs/pytorch-python313-cpu-avx2.nix"), std::string::npos);
}

TEST_F(FakeNix, DryRunRunsNothing) {
  auto r = test::run_tailor({"build", "build-pytorch/main", "*sm75-avx", "--tree", "out", "--dry-run"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(record().empty());
  test::expect_golden(r.out, "tests/golden/build-dry-run.txt");
}

TEST_F(FakeNix, MissingNixIsAMissingEnvironment) {
  ::setenv("PATH", "/nonexistent", 1);
  auto r = build({"pytorch-python313-cpu-avx2"});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err,
            "tailor: error: nix is not on PATH: tailor build runs flox or nix\n"
            "hint: install Nix (Debian: nix-bin) or Flox, or use --dry-run to see the plan\n");
}

TEST_F(FakeNix, UnknownPatternIsBadInput) {
  auto r = build({"pytorch-python313-cpu-avx521"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: 'pytorch-python313-cpu-avx521' matches no variant of examples/build-pytorch/main.toml\n"
            "hint: did you mean 'pytorch-python313-cpu-avx512'?\n");
}

}  // namespace
}  // namespace tailor
