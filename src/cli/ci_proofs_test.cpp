// Under CI=true a test whose tool (installed by scripts/deps) is missing fails
// rather than skips: CI must not lose a proof silently. Checked by running this
// test binary again on one such test with an empty PATH.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/run.hpp"

namespace tailor {
namespace {

TEST(CiProofs, AMissingToolFailsUnderCiAndSkipsElsewhere) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string run = " PATH=/nonexistent '" + self + "' --gtest_filter=Flake.Parses 2>&1";
  test::RunResult ci = test::run_command("/usr/bin/env CI=true" + run);
  EXPECT_NE(ci.status, 0) << ci.out;
  EXPECT_NE(ci.out.find("nix-instantiate (Debian nix-bin) is not installed under CI=true (scripts/deps installs it)"),
            std::string::npos)
      << ci.out;
  test::RunResult local = test::run_command("/usr/bin/env -u CI" + run);
  EXPECT_EQ(local.status, 0) << local.out;
  EXPECT_NE(local.out.find("[  SKIPPED ] Flake.Parses"), std::string::npos) << local.out;
}

}  // namespace
}  // namespace tailor
