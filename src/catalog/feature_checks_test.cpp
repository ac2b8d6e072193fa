// The catalog page's "Check on Linux/macOS" commands are built from knowledge-base
// feature names, which an overlay can choose: every word goes through the one shell gate.
#include "catalog/feature_checks.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/run.hpp"

namespace tailor {
namespace {

TEST(FeatureChecks, KnownFeaturesReadAsBefore) {
  FeatureCheck c = feature_check({"avx2", "fma"}, "x86_64", embedded_host_tables());
  EXPECT_EQ(c.linux_command, "grep -o -w -E 'avx2|fma' /proc/cpuinfo | sort -u");
  EXPECT_EQ(
      c.macos_command,
      "sysctl -n machdep.cpu.features machdep.cpu.leaf7_features | tr ' ' '\\n' | grep -x -E 'AVX2|FMA' | sort -u");
}

// Issue 46 #6: an overlay feature named x' /dev/null; touch …; echo ' ended the quotes the
// command put around it, so the command the page tells users to paste ran touch.
TEST(FeatureChecks, AFeatureNameCannotEndItsQuotes) {
  test::TempDir dir("feature-checks");
  const std::string marker = dir.path() + "/touched";
  const std::string evil = "x' /dev/null; touch " + marker + "; echo '";
  FeatureCheck c = feature_check({evil}, "x86_64", embedded_host_tables());
  EXPECT_EQ(c.linux_command,
            "grep -o -w -E 'x'\\'' /dev/null; touch " + marker + "; echo '\\''' /proc/cpuinfo | sort -u");
  // Run as a user would paste them (sysctl's part fails here; the grep runs): nothing is touched.
  for (const std::string& command : {c.linux_command, c.macos_command}) {
    ASSERT_FALSE(command.empty());
    std::string quoted;
    for (char ch : command) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    test::run_command("sh -c '" + quoted + "' >/dev/null 2>&1");
    EXPECT_FALSE(std::filesystem::exists(marker)) << command;
  }
}

}  // namespace
}  // namespace tailor
