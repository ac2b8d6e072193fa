// Issue 33 §9: when prune cannot write its output, the error names the output
// (never the input, never a temporary name) and says why, and nothing is left.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <gtest/gtest.h>

#include "support/child_run.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

const std::string kMulti = test::source_path("tests/data/elf/multi.so");
const std::string kWheel = test::source_path("tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl");

// A file size limit in the child: a write past it fails with EFBIG, as on a full
// disk it fails with ENOSPC (SIGXFSZ ignored, so the write returns the error).
auto file_size_limit(rlim_t bytes) {
  return [bytes] {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl {
      bytes, bytes
    };
    ::setrlimit(RLIMIT_FSIZE, &rl);
  };
}

bool only_entries(const fs::path& dir, std::vector<std::string> names) {
  std::vector<std::string> seen;
  for (const auto& e : fs::directory_iterator(dir)) seen.push_back(e.path().filename().string());
  std::sort(seen.begin(), seen.end());
  std::sort(names.begin(), names.end());
  return seen == names;
}

TEST(PruneOutputErrors, AWriteThatFailsNamesTheOutputAndTheReason) {
  test::TempDir dir("prune-efbig");
  const std::string out = dir.path() + "/pruned.so";
  auto r = test::run_tailor_child({"prune", kMulti, "--sm", "9.0", "-o", out}, file_size_limit(4096));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, out + ": error: cannot write: " + std::strerror(EFBIG) + "\n");
  EXPECT_TRUE(only_entries(dir.path(), {})) << "a staging file was left";

  // A wheel: its libraries are inflated beside the output first.
  const std::string wheel = dir.path() + "/prunefix-0.1-py3-none-linux_x86_64.whl";
  r = test::run_tailor_child({"prune", kWheel, "--sm", "9.0", "-o", wheel}, file_size_limit(1024));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, wheel + ": error: cannot write a temporary file: " + std::string(std::strerror(EFBIG)) + "\n");
  EXPECT_TRUE(only_entries(dir.path(), {})) << "a staging file was left";
}

// A folder no one may create files in, root included: sysfs refuses new files.
TEST(PruneOutputErrors, AnOutputThatCannotBeCreatedIsNamed) {
  const std::string probe = "/sys/tailor-probe";
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(probe.c_str());
    GTEST_SKIP() << "/sys accepts new files here: no folder to refuse the output";
  }
  const std::string reason = std::strerror(errno);
  for (const auto& [input, out] :
       {std::pair{kMulti, std::string("/sys/pruned.so")}, {kWheel, "/sys/pruned-0.1-py3-none-any.whl"}}) {
    auto r = test::run_tailor({"prune", input, "--sm", "9.0", "-o", out});
    EXPECT_EQ(r.status, 2) << out;
    EXPECT_EQ(r.err, out + ": error: cannot create: " + reason + "\n");
  }
}

}  // namespace
}  // namespace tailor
