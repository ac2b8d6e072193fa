// tailor build against a fake nix on PATH (tests/build/fake-nix): plan order,
// the concurrency and memory bounds, failure and resume, --builders and the
// routing of heavy builds, flox, the report, the progress display.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <pty.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runner/build_progress.hpp"
#include "runner/build_runner.hpp"
#include "support/fake_processes.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
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
    std::string tailor_dir = fs::path(tailor::test::tailor_binary()).parent_path().string();
    // Only the fake nix and tailor (for verify) plus the basics: no flox.
    ::setenv("PATH", (bin_ + ":" + tailor_dir + ":/usr/bin:/bin").c_str(), 1);
    ::setenv("FAKE_NIX_RECORD", (dir_.path() + "/record").c_str(), 1);
    ::setenv("FAKE_NIX_RUNNING", (dir_.path() + "/running").c_str(), 1);
    ::setenv("FAKE_NIX_STORE", (dir_.path() + "/store").c_str(), 1);
    ::setenv("FAKE_NIX_SLEEP", "0", 1);  // which builds overlap is the Scheduler tests' business
    ::setenv("FAKE_NIX_FAIL", "", 1);
    // What the generated recipes install in each result, so `tailor verify` judges it.
    fs::create_directories(dir_.path() + "/variants");
    for (const auto& v : nlohmann::json::parse(test::run_tailor({"matrix", "build-pytorch/main", "--json"}).out))
      std::ofstream(dir_.path() + "/variants/" + v["name"].get<std::string>() + ".json") << v.dump();
    ::setenv("FAKE_NIX_VARIANTS", (dir_.path() + "/variants").c_str(), 1);
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
  int most_at_once() {
    int most = 0;
    for (const auto& l : record()) {
      auto at = l.find("running=");
      if (at != std::string::npos) most = std::max(most, std::atoi(l.c_str() + at + 8));
    }
    return most;
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
  auto r = build({"*sm75-avx", "*sm61-avx", "-j", "2", "--memory", "0"});
  // Every build succeeds, but verify rejects every result (see below): exit 1.
  ASSERT_EQ(r.status, 1) << r.err;
  auto lines = record();
  const std::vector<std::string> names = {
      "pytorch-python313-cuda12_8-sm61-avx",     "pytorch-python313-cuda12_8-sm75-avx",
      "torchvision-python313-cuda12_8-sm61-avx", "torchvision-python313-cuda12_8-sm75-avx",
      "torchaudio-python313-cuda12_8-sm61-avx",  "torchaudio-python313-cuda12_8-sm75-avx"};
  for (const auto& n : names) EXPECT_GE(index_of(lines, "start " + n + " "), 0) << n;
  // A companion starts only after its torch ended.
  for (const char* sm : {"sm61", "sm75"})
    for (const char* pkg : {"torchvision", "torchaudio"})
      EXPECT_GT(index_of(lines, fmt_start(pkg, sm)),
                index_of(lines, std::string("end pytorch-python313-cuda12_8-") + sm + "-avx ok"));
  EXPECT_LE(most_at_once(), 2) << "never three";
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["ok"], false);
  ASSERT_EQ(report["builds"].size(), 6u);
  for (const auto& b : report["builds"]) {
    EXPECT_EQ(b["status"], "succeeded");
    EXPECT_EQ(b["result"], dir_.path() + "/store/" + b["name"].get<std::string>());
    EXPECT_TRUE(fs::exists(b["log"].get<std::string>()));
    // tailor is on PATH, so each result gets a verdict: these CUDA variants'
    // fake results hold no CUDA code, which `tailor verify` rejects.
    EXPECT_EQ(b["verify"], "FAILED");
  }
  EXPECT_TRUE(test::read_file(report["builds"][0]["log"]).find("built pytorch-python313-cuda12_8-sm61-avx") !=
              std::string::npos);
  // Progress went to stderr, one line per event.
  EXPECT_NE(r.err.find("started pytorch-python313-cuda12_8-sm61-avx"), std::string::npos);
}

TEST_F(FakeNix, FailureBlocksDependentsAndARerunResumes) {
  ::setenv("FAKE_NIX_FAIL", "pytorch-python313-cuda12_8-sm75-avx", 1);
  auto first = build({"*sm75-avx", "pytorch-python313-cpu-avx2", "--keep-going", "--no-verify"});
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
  auto second = build({"*sm75-avx", "pytorch-python313-cpu-avx2", "--no-verify"});
  EXPECT_EQ(second.status, 0) << second.err;
  auto lines = record();
  EXPECT_EQ(index_of(lines, "start pytorch-python313-cpu-avx2 "), -1) << "succeeded earlier: not rebuilt";
  EXPECT_GE(index_of(lines, "start pytorch-python313-cuda12_8-sm75-avx "), 0);
  status.clear();
  auto second_report = nlohmann::json::parse(second.out);
  for (const auto& b : second_report["builds"]) {
    status[b["name"]] = b["status"];
    EXPECT_EQ(b["verify"], "not run") << b["name"] << ": --no-verify";
  }
  EXPECT_EQ(status["pytorch-python313-cpu-avx2"], "reused");
  EXPECT_EQ(status["torchaudio-python313-cuda12_8-sm75-avx"], "succeeded");

  fs::remove(dir_.path() + "/record");
  EXPECT_EQ(build({"pytorch-python313-cpu-avx2", "--rebuild"}).status, 0);
  EXPECT_GE(index_of(record(), "start pytorch-python313-cpu-avx2 "), 0) << "--rebuild builds again";
}

// A spec file: the built-in main branch with its [build] table set.
std::string main_spec_with(const std::string& dir, const std::string& build_table) {
  std::string path = dir + "/main.toml";
  std::ofstream(path) << test::read_file(test::source_path("examples/build-pytorch/main.toml")) << "\n[build]\n"
                      << build_table;
  return path;
}

std::map<std::string, nlohmann::json> by_name(const test::RunResult& r) {
  std::map<std::string, nlohmann::json> out;
  nlohmann::json report = nlohmann::json::parse(r.out);
  for (const auto& b : report["builds"]) out[b["name"].get<std::string>()] = b;
  return out;
}

TEST_F(FakeNix, AChangedRecipeIsRebuiltAndSaysWhy) {
  std::string spec = main_spec_with(dir_.path(), "gb_per_job = 12\n");
  auto run = [&] {
    return test::run_tailor({"build", spec, "pytorch-python313-cpu-avx2", "--tree", dir_.path() + "/tree", "--json",
                             "--no-verify", "--progress", "plain"});
  };
  auto first = run();
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(by_name(first)["pytorch-python313-cpu-avx2"]["status"], "succeeded");
  EXPECT_EQ(by_name(run())["pytorch-python313-cpu-avx2"]["status"], "reused") << "nothing changed";

  // The recipe now builds with fewer jobs: the earlier result is not what it would build.
  main_spec_with(dir_.path(), "gb_per_job = 6\n");
  fs::remove(dir_.path() + "/record");
  auto third = run();
  ASSERT_EQ(third.status, 0) << third.err;
  auto b = by_name(third)["pytorch-python313-cpu-avx2"];
  EXPECT_EQ(b["status"], "succeeded");
  EXPECT_EQ(b["why"], "its recipe changed since the earlier build");
  EXPECT_GE(index_of(record(), "start pytorch-python313-cpu-avx2 "), 0);
  EXPECT_NE(
      third.err.find("started pytorch-python313-cpu-avx2 (rebuilt: its recipe changed since the earlier build; log: "),
      std::string::npos)
      << third.err;
}

TEST_F(FakeNix, ADependentIsRebuiltWhenWhatItBuildsAgainstChanges) {
  // A new torch derivation makes a new torchvision one, whatever torchvision's own recipe says.
  std::string spec = main_spec_with(dir_.path(), "gb_per_job = 12\n");
  auto run = [&] {
    return test::run_tailor({"build", spec, "torchvision-python313-cuda12_8-sm75-avx", "--tree", dir_.path() + "/tree",
                             "--json", "--no-verify"});
  };
  ASSERT_EQ(run().status, 0);
  main_spec_with(dir_.path(), "gb_per_job = 6\n");
  auto second = by_name(run());
  EXPECT_EQ(second["pytorch-python313-cuda12_8-sm75-avx"]["status"], "succeeded");
  EXPECT_EQ(second["torchvision-python313-cuda12_8-sm75-avx"]["status"], "succeeded");
  EXPECT_NE(second["torchvision-python313-cuda12_8-sm75-avx"]["why"].get<std::string>().find(
                "a variant it builds against changed"),
            std::string::npos)
      << second["torchvision-python313-cuda12_8-sm75-avx"]["why"];
}

TEST_F(FakeNix, AStateFileOfTheFirstFormatIsReadButNotTrusted) {
  // tailor 0.1 keyed results on the name alone.
  fs::create_directories(dir_.path() + "/tree/.tailor-build");
  std::ofstream(dir_.path() + "/tree/.tailor-build/state.json")
      << R"({"pytorch-python313-cpu-avx2": {"status": "succeeded", "result": "/nix/store/old", "verdict": "ok", "seconds": 1}})";
  auto r = build({"pytorch-python313-cpu-avx2", "--no-verify"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto b = by_name(r)["pytorch-python313-cpu-avx2"];
  EXPECT_EQ(b["status"], "succeeded");
  EXPECT_EQ(b["why"], "the earlier result was recorded without its recipe's hash (state format 1)");
  auto state = nlohmann::json::parse(test::read_file(dir_.path() + "/tree/.tailor-build/state.json"));
  EXPECT_EQ(state["format"], 2);
  EXPECT_EQ(state["builds"]["pytorch-python313-cpu-avx2"]["status"], "succeeded");
  EXPECT_EQ(state["builds"]["pytorch-python313-cpu-avx2"]["inputs"]["pin"], "fe5e41d");
  EXPECT_EQ(by_name(build({"pytorch-python313-cpu-avx2", "--no-verify"}))["pytorch-python313-cpu-avx2"]["status"],
            "reused");
}

// Issue 46 #4: state.json was opened with std::ifstream, which waits forever on a FIFO.
TEST_F(FakeNix, AStateFileThatIsAFifoIsRefusedNotWaitedOn) {
  const std::string dir = dir_.path() + "/tree/.tailor-build";
  fs::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir + "/state.json").c_str(), 0600), 0);
  auto r = build({"pytorch-python313-cpu-avx2", "--no-verify"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(dir + "/state.json: error: cannot read the build state: a FIFO, not a regular file\n"),
            std::string::npos)
      << r.err;
}

// Issue 46 #9: a link where a log or the state goes was written through: its target overwritten.
TEST_F(FakeNix, ALinkWhereALogOrTheStateGoesIsReplacedNeverFollowed) {
  const std::string dir = dir_.path() + "/tree/.tailor-build";
  fs::create_directories(dir);
  const std::string victim = dir_.path() + "/victim", state_victim = dir_.path() + "/state-victim";
  std::ofstream(victim) << "precious\n";
  std::ofstream(state_victim) << "{}";
  fs::create_symlink(victim, dir + "/pytorch-python313-cpu-avx2.log");
  fs::create_symlink(state_victim, dir + "/state.json");
  auto r = build({"pytorch-python313-cpu-avx2", "--progress", "plain"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::read_file(victim), "precious\n");
  EXPECT_EQ(test::read_file(state_victim), "{}");
  EXPECT_FALSE(fs::is_symlink(dir + "/pytorch-python313-cpu-avx2.log"));
  EXPECT_FALSE(fs::is_symlink(dir + "/state.json"));
  EXPECT_NE(r.err.find(dir + "/state.json is a symbolic link, not read: every variant is built"), std::string::npos)
      << r.err;
}

TEST_F(FakeNix, AStateFileOfAnotherFormatCostsRebuildsAndSaysSo) {
  fs::create_directories(dir_.path() + "/tree/.tailor-build");
  std::ofstream(dir_.path() + "/tree/.tailor-build/state.json") << R"({"format": 3, "builds": {}})";
  auto r = build({"pytorch-python313-cpu-avx2", "--no-verify", "--progress", "plain"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("/tree/.tailor-build/state.json has state format 3, not 2: every variant is built"),
            std::string::npos)
      << r.err;
}

TEST_F(FakeNix, AResultVerifyCannotReadCarriesVerifysMessage) {
  ::setenv("FAKE_NIX_DAMAGED", "pytorch-python313-cpu-avx2", 1);
  auto r = build({"pytorch-python313-cpu-avx2"});
  ::unsetenv("FAKE_NIX_DAMAGED");
  EXPECT_EQ(r.status, 1);
  auto b = by_name(r)["pytorch-python313-cpu-avx2"];
  EXPECT_EQ(b["verify"], "error");
  std::string message = b["verify_message"];
  // verify's own diagnostic names the file it could not read.
  EXPECT_NE(message.find("nix-support/tailor-variant.json"), std::string::npos) << message;
  EXPECT_NE(test::read_file(b["log"]).find("tailor verify " + b["result"].get<std::string>() + ": error\n" + message),
            std::string::npos);
  // The text report says it too.
  auto text = test::run_tailor({"build", "build-pytorch/main", "pytorch-python313-cpu-avx2", "--tree",
                                dir_.path() + "/tree", "--progress", "plain"});
  EXPECT_NE(text.out.find("pytorch-python313-cpu-avx2: verify: error: " + message), std::string::npos) << text.out;
}

TEST_F(FakeNix, AFailedVerdictNamesTheFailedChecks) {
  auto r = build({"pytorch-python313-cuda12_8-sm75-avx"});
  EXPECT_EQ(r.status, 1);
  auto b = by_name(r)["pytorch-python313-cuda12_8-sm75-avx"];
  EXPECT_EQ(b["verify"], "FAILED");
  EXPECT_FALSE(b["verify_message"].get<std::string>().empty());
  EXPECT_NE(test::read_file(b["log"]).find("tailor verify " + b["result"].get<std::string>() + ": FAILED\n"),
            std::string::npos);
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
  EXPECT_NE(lines[0].find("--file " + dir_.path() + "/tree/.flox/pkgs/pytorch-python313-cpu-avx2.nix"),
            std::string::npos);
}

TEST_F(FakeNix, DryRunRunsNothing) {
  auto r = test::run_tailor({"build", "build-pytorch/main", "*sm75-avx", "pytorch-python313-cpu-avx2", "--tree", "out",
                             "--dry-run", "--memory", "64"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(record().empty());
  test::expect_golden(r.out, "tests/golden/build-dry-run.txt");
}

TEST_F(FakeNix, RemoteBuildsKeepNixFromBuildingLocally) {
  // With remote builders the CUDA builds leave this machine, and --max-jobs 0
  // keeps Nix from building any of their derivations locally.
  std::vector<std::string> args = {"pytorch-python313-cuda12_8-sm75-avx", "pytorch-python313-cuda12_8-sm80-avx",
                                   "pytorch-python313-cuda12_8-sm86-avx", "pytorch-python313-cpu-avx2"};
  for (const char* a : {"-j", "4", "--memory", "8", "--builders", "@/etc/nix/machines", "--no-verify"})
    args.push_back(a);
  ASSERT_EQ(build(args).status, 0);
  EXPECT_EQ(record().size(), 8u);
  for (const auto& l : record()) {
    if (l.rfind("start ", 0) != 0) continue;
    bool cpu = l.find("cpu-avx2") != std::string::npos;
    EXPECT_EQ(l.find("--max-jobs 0") == std::string::npos, cpu) << l;
    EXPECT_NE(l.find("--builders @/etc/nix/machines"), std::string::npos) << l;
  }
}

// ---- The scheduler against in-memory processes ------------------------------
//
// Each fake build runs two steps of a virtual clock (FakeProcesses): which
// builds overlap follows from the plan and the bounds alone, not from timing.

PlannedBuild planned(const std::string& name, std::vector<std::string> needs = {}, bool heavy = true) {
  PlannedBuild b;
  b.name = name;
  b.needs = std::move(needs);
  b.heavy = heavy;
  b.memory_gb = heavy ? kHeavyBuildGb : kLightBuildGb;
  return b;
}

class Scheduler : public testing::Test {
 protected:
  Scheduler() {
    o_.tree = dir_.path() + "/tree";
    o_.log_dir = dir_.path() + "/logs";
  }
  std::vector<BuildOutcome> run(const std::vector<PlannedBuild>& plan) {
    std::ostringstream progress;
    auto out = run_builds(plan, o_, progress, processes_);
    progress_ = progress.str();
    return out;
  }
  std::map<std::string, std::string> statuses(const std::vector<BuildOutcome>& out) {
    std::map<std::string, std::string> m;
    for (const auto& b : out) m[b.name] = name_of(b.status);
    return m;
  }
  static int index_of(const std::vector<std::string>& events, const std::string& e) {
    auto it = std::find(events.begin(), events.end(), e);
    return it == events.end() ? -1 : static_cast<int>(it - events.begin());
  }

  test::TempDir dir_{"scheduler"};
  BuildOptions o_;
  std::set<std::string> failing_;
  test::FakeProcesses processes_{[this](const ProcessSpec& spec) {
    ProcessResult r;
    r.started = true;
    r.status = failing_.contains(fs::path(spec.argv[6]).stem().string()) ? 1 : 0;
    return r;
  }};
  std::string progress_;
};

TEST_F(Scheduler, BuildsDependenciesFirstWithinTheJobBound) {
  o_.jobs = 2;
  std::vector<PlannedBuild> plan;
  for (const char* sm : {"sm61", "sm75"}) plan.push_back(planned(std::string("pytorch-") + sm));
  for (const char* pkg : {"torchvision", "torchaudio"})
    for (const char* sm : {"sm61", "sm75"})
      plan.push_back(planned(std::string(pkg) + "-" + sm, {std::string("pytorch-") + sm}));
  auto out = run(plan);
  for (const auto& b : out) EXPECT_EQ(b.status, BuildStatus::succeeded) << b.name;
  const auto& events = processes_.events();
  for (const char* sm : {"sm61", "sm75"})
    for (const char* pkg : {"torchvision", "torchaudio"})
      EXPECT_GT(index_of(events, std::string("start ") + pkg + "-" + sm),
                index_of(events, std::string("end pytorch-") + sm));
  EXPECT_EQ(processes_.most_at_once(), 2) << "two jobs should overlap, never three";
}

TEST_F(Scheduler, FailureBlocksDependentsAndStopsWithoutKeepGoing) {
  o_.jobs = 1;
  failing_ = {"pytorch-sm75"};
  std::vector<PlannedBuild> plan = {planned("pytorch-sm75"), planned("torchvision-sm75", {"pytorch-sm75"}),
                                    planned("pytorch-cpu-avx2", {}, false)};
  o_.keep_going = true;
  auto status = statuses(run(plan));
  EXPECT_EQ(status["pytorch-sm75"], "failed");
  EXPECT_EQ(status["torchvision-sm75"], "blocked");
  EXPECT_EQ(status["pytorch-cpu-avx2"], "succeeded");

  o_.keep_going = false;
  o_.rebuild = true;
  status = statuses(run(plan));
  EXPECT_EQ(status["pytorch-sm75"], "failed");
  EXPECT_EQ(status["torchvision-sm75"], "not-started") << "the run stopped before judging it";
  EXPECT_EQ(status["pytorch-cpu-avx2"], "not-started");
}

TEST_F(Scheduler, AProgramThatCannotStartFails) {
  test::FakeProcesses missing([](const ProcessSpec&) { return ProcessResult{}; });
  std::ostringstream progress;
  auto out = run_builds({planned("pytorch-sm75")}, o_, progress, missing);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].status, BuildStatus::failed);
}

TEST_F(Scheduler, MemoryBoundsLocalBuilds) {
  // Three CUDA builds planned at 16 GB each: 40 GB holds two at a time, however many -j allows.
  std::vector<PlannedBuild> torches = {planned("pytorch-sm75"), planned("pytorch-sm80"), planned("pytorch-sm86")};
  o_.jobs = 4;
  o_.memory_gb = 40;
  run(torches);
  EXPECT_EQ(processes_.most_at_once(), 2);
  // A build bigger than the whole budget still runs, alone.
  test::FakeProcesses alone([](const ProcessSpec&) { return ProcessResult{true, 0, "", ""}; });
  o_.memory_gb = 8;
  o_.rebuild = true;
  std::ostringstream progress;
  run_builds(torches, o_, progress, alone);
  EXPECT_EQ(alone.most_at_once(), 1);
  EXPECT_EQ(alone.events().size(), 6u);
  // With remote builders the CUDA builds leave this machine: only -j bounds them, and
  // --max-jobs 0 keeps Nix from building any of their derivations locally.
  test::FakeProcesses remote([](const ProcessSpec&) { return ProcessResult{true, 0, "", ""}; });
  o_.builders = "@/etc/nix/machines";
  torches.push_back(planned("pytorch-cpu-avx2", {}, false));
  run_builds(torches, o_, progress, remote);
  EXPECT_EQ(remote.most_at_once(), 4);
  for (const auto& spec : remote.started()) {
    bool cpu = spec.argv[6].find("cpu-avx2") != std::string::npos;
    const std::string max_jobs_0[] = {"--max-jobs", "0"};
    bool local_jobs_off = std::search(spec.argv.begin(), spec.argv.end(), std::begin(max_jobs_0),
                                      std::end(max_jobs_0)) != spec.argv.end();
    EXPECT_EQ(local_jobs_off, !cpu) << spec.argv[6];
  }
}

TEST_F(Scheduler, TtyStatusLineListsWhatRunsTogether) {
  o_.jobs = 2;
  o_.progress = ProgressStyle::tty;
  o_.width = 200;
  run({planned("pytorch-cpu-avx2", {}, false), planned("pytorch-cpu-avx512", {}, false)});
  EXPECT_TRUE(std::regex_search(progress_, std::regex("\n\\[0/2\\] elapsed \\d+m\\d\\ds  running: "
                                                      "pytorch-cpu-avx2, pytorch-cpu-avx512")))
      << progress_;
}

// Whether \a pid names a live process (a zombie, which only waits for its
// parent to collect it, counts as gone).
bool running_process(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');  // the state follows the command name, which may hold spaces
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

// SIGTERM to tailor build: the nix it started (its whole process group, the
// sleep under the fake nix's shell included) stops, state.json records the build
// as interrupted, and tailor exits as a signalled command does (128 + 15).
TEST_F(FakeNix, SigtermStopsTheBuildsAndRecordsThemInterrupted) {
  ::setenv("FAKE_NIX_SLEEP", "37.25", 1);
  const std::string pids = dir_.path() + "/sleep-pids";
  ::setenv("FAKE_NIX_PIDS", pids.c_str(), 1);
  const std::string name = "pytorch-python313-cpu-avx2", tree = dir_.path() + "/tree";
  std::string cmd = tailor::test::tailor_binary() + " build build-pytorch/main " + name + " --tree " + tree +
                    " --memory 0 --progress plain >/dev/null 2>&1 & p=$!; "
                    "i=0; while [ ! -e " +
                    dir_.path() + "/running/" + name +
                    " ] && [ $i -lt 600 ]; do sleep 0.05; "
                    "i=$((i+1)); done; "
                    "kill -TERM $p; wait $p; echo $?";
  auto r = test::run_command(cmd);
  EXPECT_EQ(r.out, "143\n");
  ::unsetenv("FAKE_NIX_PIDS");
  // The sleep this test's fake nix started (its process id, recorded by the
  // fake nix itself): only processes this test started are looked at.
  const std::string pid = test::read_file(pids);
  ASSERT_FALSE(pid.empty()) << "the fake nix recorded no sleep";
  bool gone = false;
  for (int i = 0; i < 40 && !gone; ++i) {  // the group got SIGTERM; give it a moment to exit
    gone = !running_process(std::stoi(pid));
    if (!gone) ::usleep(50000);
  }
  EXPECT_TRUE(gone) << "the fake nix's sleep outlived tailor build";
  auto state = nlohmann::json::parse(test::read_file(tree + "/.tailor-build/state.json"));
  EXPECT_EQ(state["builds"][name]["status"], "interrupted");
}

TEST(BuildMemory, ReadsMemAvailable) {
  test::TempDir dir("meminfo");
  std::ofstream(dir.path() + "/meminfo") << "MemTotal:       131072000 kB\nMemFree:         1000 kB\n"
                                            "MemAvailable:   67108864 kB\nBuffers:          100 kB\n";
  EXPECT_DOUBLE_EQ(available_memory_gb(dir.path() + "/meminfo"), 64.0);
  EXPECT_EQ(available_memory_gb(dir.path() + "/none"), 0.0);
  EXPECT_GT(available_memory_gb(), 0.0) << "this machine's /proc/meminfo";
}

TEST_F(FakeNix, FloxBuildsInTheTreeAndGetsBuildersThroughNixConfig) {
  fs::copy_file(test::source_path("tests/build/fake-nix"), bin_ + "/flox");
  auto r = build({"pytorch-python313-cuda12_8-sm75-avx", "pytorch-python313-cpu-avx2", "--builders", "ssh-ng://gpu1"});
  EXPECT_EQ(r.status, 1) << "the CUDA result fails verification\n" << r.err;
  auto lines = record();
  ASSERT_EQ(lines.size(), 4u);
  // flox is on PATH, so it builds; the CUDA build goes to the builders only.
  EXPECT_NE(lines[0].find(
                "start pytorch-python313-cuda12_8-sm75-avx running=1 args: build pytorch-python313-cuda12_8-sm75-avx "
                "NIX_CONFIG=builders = ssh-ng://gpu1;max-jobs = 0"),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[2].find("args: build pytorch-python313-cpu-avx2 NIX_CONFIG=builders = ssh-ng://gpu1"),
            std::string::npos)
      << lines[2];
  EXPECT_EQ(lines[2].find("max-jobs"), std::string::npos) << lines[2];
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["ok"], false);
  for (const auto& b : report["builds"]) {
    EXPECT_EQ(b["status"], "succeeded");
    EXPECT_EQ(b["result"], dir_.path() + "/store/" + b["name"].get<std::string>()) << "flox's result link in the tree";
    // A CPU variant without CUDA code is what it promises; a CUDA one is not.
    EXPECT_EQ(b["verify"], b["name"] == "pytorch-python313-cpu-avx2" ? "ok" : "FAILED") << b["name"];
  }
}

// The escapes made visible, the run's own numbers (clock, seconds, paths)
// made constant, and a redraw that only moved the clock folded away.
std::string visible_frames(std::string s, const std::string& tmp) {
  for (size_t at; (at = s.find(tmp)) != std::string::npos;) s.replace(at, tmp.size(), "TMP");
  s = std::regex_replace(s, std::regex("\r\x1b\\[K"), "<CR><EL>");
  s = std::regex_replace(s, std::regex("elapsed \\d+m\\d\\ds"), "elapsed XmXXs");
  s = std::regex_replace(s, std::regex("after \\d+\\.\\ds"), "after X.Xs");
  s = std::regex_replace(s, std::regex("(\\[\\d+/\\d+\\][^<\n]*)(<CR><EL>\\1)+(?=<CR><EL>|\n|$)"), "$1");
  return s;
}

TEST_F(FakeNix, TtyProgressRedrawsOneStatusLine) {
  ::setenv("FAKE_NIX_FAIL", "torchaudio-python313-cuda12_8-sm75-avx", 1);
  ::setenv("COLUMNS", "120", 1);
  auto r = build({"*sm75-avx", "--keep-going", "--progress", "tty"});
  EXPECT_EQ(r.status, 1);
  test::expect_golden(visible_frames(r.err, dir_.path()), "tests/golden/build-progress-tty.txt");
  // Every status line (what follows the last line break of each redraw) fits the terminal.
  std::istringstream in(r.err);
  for (std::string frame; std::getline(in, frame, '\r');) {
    std::string status = frame.substr(frame.rfind('\n') == std::string::npos ? 0 : frame.rfind('\n') + 1);
    if (status.starts_with("\x1b[K")) status.erase(0, 3);
    EXPECT_LT(status.size(), 120u) << status;
  }
}

TEST(BuildProgress, StatusLineFitsTheWidth) {
  ProgressCounts c;
  c.done = 3;
  c.total = 62;
  c.failed = 1;
  c.elapsed = 723;
  c.running = {"pytorch-python313-cuda12_8-sm90-avx512", "torchvision-python313-cuda12_8-sm90-avx512"};
  EXPECT_EQ(BuildProgress::status_line(c, 200),
            "[3/62] elapsed 12m03s  failed: 1  running: pytorch-python313-cuda12_8-sm90-avx512, "
            "torchvision-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(BuildProgress::status_line(c, 60), "[3/62] elapsed 12m03s  failed: 1  running: pytorch-pytho...");
  EXPECT_EQ(BuildProgress::status_line(c, 60).size(), 59u);

  std::ostringstream os;
  BuildProgress p(os, ProgressStyle::tty, 80);
  c.running.clear();
  p.tick(c);
  p.tick(c);  // nothing changed: nothing drawn
  c.elapsed = 724;
  p.tick(c);
  p.finish(c);
  EXPECT_EQ(os.str(),
            "\r\x1b[K[3/62] elapsed 12m03s  failed: 1\r\x1b[K[3/62] elapsed 12m04s  failed: 1"
            "\r\x1b[K[3/62] elapsed 12m04s  failed: 1\n");
  std::ostringstream plain;
  BuildProgress q(plain, ProgressStyle::plain, 80);
  q.tick(c);
  q.event("FAILED x after 1.0s (log: x.log)", c);
  q.finish(c);
  EXPECT_EQ(plain.str(), "[3/62 done, 0 running, 1 failed, 00:12:04] FAILED x after 1.0s (log: x.log)\n");
}

TEST(BuildProgress, AutoMeansATerminalThatCanRedraw) {
  int master = -1, slave = -1;
  winsize ws{};
  ws.ws_col = 132;
  ws.ws_row = 40;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, &ws), 0);
  const char* old = std::getenv("TERM");
  std::string saved = old ? old : "";
  ::setenv("TERM", "xterm", 1);
  EXPECT_EQ(choose_progress("auto", slave), ProgressStyle::tty);
  EXPECT_EQ(choose_progress("plain", slave), ProgressStyle::plain);
  EXPECT_EQ(terminal_width(slave), 132);
  ::setenv("TERM", "dumb", 1);
  EXPECT_EQ(choose_progress("auto", slave), ProgressStyle::plain);
  ::setenv("TERM", "xterm", 1);
  EXPECT_EQ(choose_progress("auto", -1), ProgressStyle::plain) << "not a terminal";
  EXPECT_EQ(choose_progress("tty", -1), ProgressStyle::tty);
  if (old)
    ::setenv("TERM", saved.c_str(), 1);
  else
    ::unsetenv("TERM");
  ::close(master);
  ::close(slave);
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
