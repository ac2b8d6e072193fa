// README rows that state spec facts, checked against the spec (issue 55): on the
// adopted tests/data/trees/adopt-pairing with a README whose table lists the
// releases, a release added to the spec (or dropped) makes the table stale, and
// generate says so at its row: a warning when it writes, an error under --check.
#include <fstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using test::run_tailor;

const std::string kReadme =
    "# Audio builds\n"
    "\n"
    "| Audio | Torch | Variants |\n"
    "|-------|-------|----------|\n"
    "| 2.10.0 | 2.10.0 | 8 |\n"
    "| **2.11.0** | 2.11.0 | 9 |\n"
    "| **Total** | | **17** |\n"
    "\n"
    "| SM | GPUs |\n"
    "|----|------|\n"
    "| SM90 | H100 |\n";

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Each [[family.version]] block of \a from copied as \a to (its source hash left: the check is of the README).
void add_release(std::string& spec, const std::string& from, const std::string& to) {
  const std::string head = "\n[[family.version]]\nversion = \"" + from + "\"\ntorch = \"" + from + "\"\n";
  for (size_t at = spec.find(head); at != std::string::npos; at = spec.find(head, at + 1)) {
    size_t end = spec.size();
    for (const char* next : {"\n[[family]]", "\n[[family.exclude]]", "\n[[family.version]]", "\n# The tree keeps"})
      end = std::min(end, spec.find(next, at + 1));
    std::string copy = spec.substr(at, end - at);
    for (size_t p = copy.find(from); p != std::string::npos; p = copy.find(from, p + to.size()))
      copy.replace(p, from.size(), to);
    spec.insert(end, copy);
    at = end + copy.size();
  }
}

TEST(ReadmeRows, AReleaseAddedOrDroppedMakesTheVersionTableStaleAtItsRow) {
  test::TempDir tmp("readme-rows");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-pairing");
  write(tree + "/README.md", kReadme);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  // As adopted, the table lists the spec's two versions (2.11.0's two pairings are one version).
  auto clean = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(clean.status, 0) << clean.out << clean.err;
  EXPECT_EQ(clean.err, "");

  std::string spec = test::read_file(tree + "/tailor.toml");
  add_release(spec, "2.11.0", "2.12.0");
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  EXPECT_EQ(gen.status, 0) << gen.err;
  const std::string row = tree + "/README.md:6:1: ";
  const std::string missing =
      "the table lists 2.10.0, 2.11.0 and not 2.12.0, which the spec builds\n"
      "| **2.11.0** | 2.11.0 | 9 |\n"
      "^\n"
      "hint: add a row for each, as the others are written\n";
  EXPECT_NE(gen.err.find(row + "warning: " + missing), std::string::npos) << gen.err;
  EXPECT_EQ(test::read_file(tree + "/README.md"), kReadme);  // checked, never written
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.err.find(row + "error: " + missing), std::string::npos) << check.err;
  EXPECT_NE(check.out.find(" is not up to date: 0 to create, 0 to update, 0 edited, 0 stale, 1 README row stale\n"),
            std::string::npos)
      << check.out;

  // The row written, the table is up to date again; 2.10.0 dropped, its row is the stale one.
  std::string readme = kReadme;
  readme.insert(readme.find("| **Total**"), "| 2.12.0 | 2.12.0 | 9 |\n");
  write(tree + "/README.md", readme);
  EXPECT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"}).status, 0);
  const std::string head = "\n[[family.version]]\nversion = \"2.10.0\"\n";
  for (size_t at = spec.find(head); at != std::string::npos; at = spec.find(head)) {
    size_t end = spec.size();
    for (const char* next : {"\n[[family]]", "\n[[family.exclude]]", "\n[[family.version]]", "\n# The tree keeps"})
      end = std::min(end, spec.find(next, at + 1));
    spec.erase(at, end - at);
  }
  write(tree + "/tailor.toml", spec);
  ASSERT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--prune"}).status, 0);
  auto dropped = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(dropped.status, 1);
  EXPECT_NE(
      dropped.err.find(tree + "/README.md:5:1: error: the row of 2.10.0 is stale: the spec builds no 2.10.0 (it "
                              "builds 2.11.0, 2.12.0)\n| 2.10.0 | 2.10.0 | 8 |\n^\nhint: drop the row, or add the "
                              "version back to the spec\n"),
      std::string::npos)
      << dropped.err;
}

}  // namespace
}  // namespace tailor
