// The shipped binary as a whole: what it links and how its allocator is set.
// Where the build linked the runtime statically (TAILOR_STATIC_RUNTIME) it
// needs the C library alone; where it linked jemalloc, the allocator runs with
// jemalloc's own defaults, and a user's MALLOC_CONF still wins.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

// jemalloc prints its options at exit under stats_print; one line per option.
std::string allocator_options(const std::string& conf) {
  return test::run_command("MALLOC_CONF=" + conf + " " + test::tailor_binary() + " --version", true).out;
}

// Huge pages for the heap were asked for once (thp:always): the kernel then
// zeroed a 2 MiB page for jemalloc's first metadata and its first arena at
// every start, about a millisecond, for no measurable gain in check.
TEST(MallocConf, TheBinaryLeavesHugePagesToTheSystem) {
  if (!TAILOR_JEMALLOC_LINKED) GTEST_SKIP() << "built without jemalloc (a sanitizer build, or no libjemalloc-dev)";
  std::string opts = allocator_options("stats_print:true");
  EXPECT_NE(opts.find("opt.thp: \"default\""), std::string::npos) << opts.substr(0, 2000);
  EXPECT_NE(opts.find("opt.metadata_thp: \"disabled\""), std::string::npos) << opts.substr(0, 2000);
}

TEST(MallocConf, TheUsersSettingWins) {
  if (!TAILOR_JEMALLOC_LINKED) GTEST_SKIP() << "built without jemalloc (a sanitizer build, or no libjemalloc-dev)";
  std::string opts = allocator_options("stats_print:true,thp:never");
  EXPECT_NE(opts.find("opt.thp: \"never\""), std::string::npos) << opts.substr(0, 2000);
}

// The libraries the binary asks the dynamic loader for (readelf -d: its NEEDED entries).
std::vector<std::string> needed_libraries(const std::string& binary) {
  std::istringstream in(test::run_command("readelf -d " + binary).out);
  std::vector<std::string> libs;
  for (std::string line; std::getline(in, line);) {
    auto open = line.find("Shared library: [");
    if (open == std::string::npos) continue;
    open += 17;
    libs.push_back(line.substr(open, line.find(']', open) - open));
  }
  return libs;
}

TEST(StaticRuntime, TheBinaryNeedsOnlyTheCLibrary) {
  if (!TAILOR_STATIC_RUNTIME_LINKED) GTEST_SKIP() << "built with the shared runtime (a sanitizer build, or OFF)";
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("readelf"), "readelf (binutils) not installed");
  std::vector<std::string> libs = needed_libraries(test::tailor_binary());
  ASSERT_FALSE(libs.empty()) << "readelf found no NEEDED entries in " << test::tailor_binary();
  // glibc's own parts: the C library, its maths library and the loader.
  for (const auto& lib : libs)
    EXPECT_TRUE(lib.starts_with("libc.so") || lib.starts_with("libm.so") || lib.starts_with("ld-linux"))
        << lib << " is loaded at every start";
}

TEST(StaticRuntime, TheNeededListIsReadFromADynamicBinary) {
  // The reader above, on a program linked the usual way: it must see libc.
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("readelf"), "readelf (binutils) not installed");
  std::vector<std::string> libs = needed_libraries("/bin/sh");
  bool has_libc = false;
  for (const auto& lib : libs) has_libc = has_libc || lib.starts_with("libc.so");
  EXPECT_TRUE(has_libc) << "no libc.so among " << libs.size() << " NEEDED entries of /bin/sh";
}

}  // namespace
}  // namespace tailor
