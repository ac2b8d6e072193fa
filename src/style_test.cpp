// The house style: every C++ source is as .clang-format writes it (120
// columns, sorted includes), so that a review reads changes, not whitespace.
// scripts/format applies it.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> cpp_sources() {
  std::vector<std::string> files;
  for (const char* dir : {"src", "bench", "fuzz", "tests/support"})
    for (const auto& e : fs::recursive_directory_iterator(test::source_path(dir)))
      if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".hpp"))
        files.push_back(e.path().string());
  return files;
}

// Exit status and output of clang-format's dry run over \a files.
test::RunResult dry_run(const std::vector<std::string>& files) {
  std::string command = "clang-format-14 --style=file:" + test::source_path(".clang-format") + " --dry-run --Werror";
  for (const auto& f : files) command += " '" + f + "'";
  return test::run_command(command, true);
}

TEST(Style, EverySourceIsClangFormatted) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("clang-format-14"), "clang-format-14 is not installed");
  std::vector<std::string> files = cpp_sources();
  ASSERT_GT(files.size(), 200u) << "the scan found too few sources to mean anything";
  test::RunResult r = dry_run(files);
  EXPECT_EQ(r.status, 0) << r.out << "\nrun scripts/format";
}

TEST(Style, TheCheckSeesAnUnformattedFile) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("clang-format-14"), "clang-format-14 is not installed");
  test::TempDir dir("style");
  std::string f = dir.path() + "/x.cpp";
  // Unsorted includes and a 130-column line: two things the style forbids.
  std::ofstream(f) << "#include <vector>\n#include <string>\nint f(int a) { return a; }\n"
                   << "int g() { return f(1) + f(2) + f(3) + f(4) + f(5) + f(6) + f(7) + f(8) + f(9) + f(10) + f(11) + "
                      "f(12) + f(13) + f(14); }\n";
  test::RunResult r = dry_run({f});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("x.cpp:1:"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tailor
