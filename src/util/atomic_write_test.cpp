// Atomic file replacement, as generate, check --fix, repin and build use it.
#include "util/atomic_write.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"
#include "util/temp_files.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

fs::perms mode_of(const fs::path& p) { return fs::status(p).permissions() & fs::perms::mask; }

TEST(AtomicWrite, CreatesAFileAndLeavesNoTemporary) {
  test::TempDir dir("atomic-new");
  fs::path p = fs::path(dir.path()) / "a.nix";
  write_file_atomically(p, std::string("x\0y\n", 4));  // bytes as given, NUL included
  EXPECT_EQ(test::read_file(p.string()), std::string("x\0y\n", 4));
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"a.nix"});
}

TEST(AtomicWrite, ReplacingKeepsTheModeOfTheOldFile) {
  test::TempDir dir("atomic-mode");
  fs::path p = fs::path(dir.path()) / "run.sh";
  std::ofstream(p) << "old\n";
  fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);  // 0750
  write_file_atomically(p, "new\n");
  EXPECT_EQ(test::read_file(p.string()), "new\n");
  EXPECT_EQ(mode_of(p), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  // An explicit mode wins (check --fix gives a renamed file the old name's mode).
  write_file_atomically(p, "newer\n", fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(mode_of(p), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"run.sh"});
}

TEST(AtomicWrite, AnUncommittedStagedFileIsRemoved) {
  test::TempDir dir("atomic-staged");
  fs::path a = fs::path(dir.path()) / "a", b = fs::path(dir.path()) / "b";
  std::ofstream(a) << "a0";
  {
    StagedFile sa(a, "a1");
    StagedFile sb(b, "b1");
    EXPECT_EQ(entries(dir.path()).size(), 3u);  // a and the two temporaries
    sa.commit();
  }  // sb never committed
  EXPECT_EQ(test::read_file(a.string()), "a1");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"a"});
}

TEST(AtomicWrite, FailuresNameTheFileAndLeaveNothing) {
  test::TempDir dir("atomic-fail");
  fs::path missing = fs::path(dir.path()) / "no-such-dir" / "f.nix";
  try {
    write_file_atomically(missing, "x");
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              missing.string() + ": error: cannot write file: " + std::generic_category().message(ENOENT) + "\n");
  }
  // A directory in the way: the rename fails, the temporary goes.
  fs::path busy = fs::path(dir.path()) / "busy";
  fs::create_directories(busy / "inside");
  try {
    write_file_atomically(busy, "x");
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              busy.string() + ": error: cannot replace file: " + std::generic_category().message(EISDIR) + "\n");
  }
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"busy"});
}

// A full disk: the OS reason comes with the file's name.
TEST(AtomicWrite, AFullDiskIsReportedWithItsReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  test::TempDir dir("atomic-full");
  fs::path target = fs::path(dir.path()) / "f.nix";
  fs::create_symlink("/dev/full",
                     fs::path(dir.path()) / ("f.nix" + std::string(kTempSuffix) + std::to_string(::getpid())));
  try {
    write_file_atomically(target, "x");
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              target.string() + ": error: cannot write file: " + std::generic_category().message(ENOSPC) + "\n");
  }
  EXPECT_FALSE(fs::exists(target));
}

// What a SIGINT/SIGTERM handler removes: every staged, uncommitted file.
TEST(AtomicWrite, ASignalRemovesTheStagedFiles) {
  test::TempDir dir("atomic-signal");
  fs::path a = fs::path(dir.path()) / "a", b = fs::path(dir.path()) / "b";
  StagedFile sa(a, "a"), sb(b, "b");
  EXPECT_EQ(entries(dir.path()).size(), 2u);
  clean_up_registered_for_test();
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{});
}

// Leftovers of a writer that died (its pid is gone) go with the next write into
// their directory; a live writer's temporary file stays.
TEST(AtomicWrite, TheNextWriteRemovesStaleTemporaries) {
  test::TempDir dir("atomic-stale");
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  std::string stale = "x.nix" + std::string(kTempSuffix) + std::to_string(dead);
  std::string live = "y.nix" + std::string(kTempSuffix) + std::to_string(::getppid());
  std::ofstream(fs::path(dir.path()) / stale) << "half";
  std::ofstream(fs::path(dir.path()) / live) << "busy";
  // repin -o stages a whole directory under the same suffix.
  fs::create_directories(fs::path(dir.path()) / ("copy" + std::string(kTempSuffix) + std::to_string(dead)) / "sub");
  write_file_atomically(fs::path(dir.path()) / "z.nix", "z");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{live, "z.nix"}));
}

}  // namespace
}  // namespace tailor
