// The shipped binary's allocator: where the build linked jemalloc, it runs on
// transparent huge pages (malloc_conf.cpp), and a user's MALLOC_CONF still wins.
#include <gtest/gtest.h>

#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

// jemalloc prints its options at exit under stats_print; one line per option.
std::string allocator_options(const std::string& conf) {
  return test::run_command("MALLOC_CONF=" + conf + " " + test::tailor_binary() + " --version", true).out;
}

TEST(MallocConf, TheBinaryAsksForHugePages) {
  if (!TAILOR_JEMALLOC_LINKED) GTEST_SKIP() << "built without jemalloc (a sanitizer build, or no libjemalloc-dev)";
  std::string opts = allocator_options("stats_print:true");
  EXPECT_NE(opts.find("opt.thp: \"always\""), std::string::npos) << opts.substr(0, 2000);
  EXPECT_NE(opts.find("opt.metadata_thp: \"always\""), std::string::npos) << opts.substr(0, 2000);
}

TEST(MallocConf, TheUsersSettingWins) {
  if (!TAILOR_JEMALLOC_LINKED) GTEST_SKIP() << "built without jemalloc (a sanitizer build, or no libjemalloc-dev)";
  std::string opts = allocator_options("stats_print:true,thp:never");
  EXPECT_NE(opts.find("opt.thp: \"never\""), std::string::npos) << opts.substr(0, 2000);
}

}  // namespace
}  // namespace tailor
