#include "util/find_program.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/run.hpp"

namespace tailor {
namespace {

// Sets PATH for one test and puts it back.
class PathOverride {
 public:
  explicit PathOverride(const std::string& value) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", value.c_str(), 1);
  }
  ~PathOverride() { ::setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

void write_file(const std::filesystem::path& p, bool executable) {
  std::ofstream(p) << "#!/bin/sh\n";
  std::filesystem::permissions(p, executable ? std::filesystem::perms::owner_all : std::filesystem::perms::owner_read);
}

TEST(FindProgram, FirstExecutableInPathOrderWins) {
  test::TempDir a("find-a"), b("find-b"), c("find-c");
  write_file(std::filesystem::path(a.path()) / "tool", false);                  // not executable: skipped
  std::filesystem::create_directory(std::filesystem::path(b.path()) / "tool");  // a directory: skipped
  write_file(std::filesystem::path(c.path()) / "tool", true);
  PathOverride path(a.path() + "::" + b.path() + ":" + c.path());
  EXPECT_EQ(find_program("tool"), std::filesystem::path(c.path()) / "tool");
  EXPECT_EQ(find_program("absent-tool"), std::filesystem::path());
  EXPECT_EQ(find_program(""), std::filesystem::path());
}

TEST(FindProgram, EmptyPathFindsNothing) {
  PathOverride path("");
  EXPECT_EQ(find_program("sh"), std::filesystem::path());
}

}  // namespace
}  // namespace tailor
