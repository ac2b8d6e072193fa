// The operating system's processes through util/process.hpp: output, exit
// status, environment, directory and log file of real children (/bin/sh).
#include "util/process.hpp"

#include <chrono>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

ProcessSpec sh(const std::string& script) {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", script};
  return spec;
}

TEST(Process, RunCapturesOutputAndStatus) {
  auto r = system_processes().run(sh("echo out; echo err >&2; exit 3"));
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(Process, StderrMergedOrDiscarded) {
  ProcessSpec spec = sh("echo out; echo err >&2");
  spec.stderr_to = ErrorStream::merged;
  EXPECT_EQ(system_processes().run(spec).out, "out\nerr\n");
  spec.stderr_to = ErrorStream::discarded;
  auto r = system_processes().run(spec);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "");
}

TEST(Process, ArgumentsReachTheProgramUnquoted) {
  ProcessSpec spec;
  spec.argv = {"printf", "%s|", "a b", "it's", "$HOME"};
  EXPECT_EQ(system_processes().run(spec).out, "a b|it's|$HOME|");
}

TEST(Process, EnvironmentIsAddedToOursAndDirectoryChanges) {
  test::TempDir dir("process");
  ProcessSpec spec = sh("echo \"$TAILOR_PROCESS_TEST $HOME\"; pwd");
  spec.env = {"TAILOR_PROCESS_TEST=x y", "HOME=/elsewhere"};
  spec.cwd = dir.path();
  auto r = system_processes().run(spec);
  EXPECT_EQ(r.out, "x y /elsewhere\n" + dir.path() + "\n");
}

TEST(Process, AMissingProgramDoesNotStart) {
  ProcessSpec spec;
  spec.argv = {"tailor-no-such-program"};
  EXPECT_FALSE(system_processes().run(spec).started);
}

TEST(Process, KilledChildReportsTheSignal) { EXPECT_EQ(system_processes().run(sh("kill -9 $$")).status, 128 + 9); }

TEST(Process, StartedChildrenEndInAnyOrderAndWriteTheirLog) {
  test::TempDir dir("process-log");
  ProcessSpec slow = sh("sleep 0.3; echo slow; exit 1"), quick = sh("echo quick; echo to-log >&2");
  slow.log = dir.path() + "/slow.log";
  quick.log = dir.path() + "/quick.log";
  Processes& p = system_processes();
  int a = p.start(slow), b = p.start(quick);
  ProcessSpec missing;
  missing.argv = {"tailor-no-such-program"};
  int c = p.start(missing);
  std::set<int> ids = {a, b, c};
  EXPECT_EQ(ids.size(), 3u);
  std::map<int, int> ended;
  for (int waits = 0; ended.size() < 3 && waits < 1000; ++waits)
    if (auto e = p.wait_any(std::chrono::milliseconds(100))) ended[e->id] = e->status;
  EXPECT_EQ(ended[a], 1);
  EXPECT_EQ(ended[b], 0);
  EXPECT_EQ(ended[c], 127) << "cannot start: as a shell reports it";
  EXPECT_EQ(test::read_file(slow.log), "slow\n");
  EXPECT_EQ(test::read_file(quick.log), "quick\nto-log\n");
  EXPECT_FALSE(p.wait_any(std::chrono::milliseconds(1))) << "nothing left to wait for";
}

}  // namespace
}  // namespace tailor
