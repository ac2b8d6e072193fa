// What a signal removes: every registered path, a staging directory with all it holds too.
#include "util/temp_files.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// Issue 46 #10: `prune DIR -o OUT` staged a full copy in OUT.tailor-tmp-PID, which the handler
// tried to unlink() (a file's call): 8 of 8 interrupted runs left the copy behind.
TEST(TempFiles, ASignalRemovesARegisteredDirectoryAndAllItHolds) {
  test::TempDir dir("temp-files-signal");
  const fs::path stage = fs::path(dir.path()) / "out.tailor-tmp-1";
  fs::create_directories(stage / "lib" / "deep" / "er");
  for (int i = 0; i < 300; ++i) std::ofstream(stage / "lib" / ("f" + std::to_string(i) + ".so")) << "x";
  std::ofstream(stage / "lib" / "deep" / "er" / "g.so") << "y";
  fs::create_symlink("/etc", stage / "link");  // the link goes, never what it points at
  const fs::path file = fs::path(dir.path()) / "lib.so.tailor-tmp-1";
  std::ofstream(file) << "z";
  const fs::path kept = fs::path(dir.path()) / "kept";
  std::ofstream(kept) << "k";
  {
    TempFileGuard a(stage), b(file);
    clean_up_registered_for_test();
  }
  EXPECT_FALSE(fs::exists(fs::symlink_status(stage)));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(fs::exists(kept));
  EXPECT_TRUE(fs::exists("/etc/hostname") || fs::exists("/etc"));
}

}  // namespace
}  // namespace tailor
