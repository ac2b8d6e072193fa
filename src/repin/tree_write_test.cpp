// Writing a repinned tree in place: all files or none.
#include "repin/tree_write.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"

namespace tailor::repin {
namespace {

namespace fs = std::filesystem;

TEST(TreeWrite, InPlaceWritesNothingWhenOneFileCannotBeWritten) {
  test::TempDir dir("tree-write");
  fs::path root = dir.path();
  std::ofstream(root / "a.nix") << "old\n";
  try {
    write_in_place(root, {{"a.nix", "new\n"}, {"gone/b.nix", "new\n"}});
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(), (root / "gone/b.nix").string() + ": error: repin: cannot write file: " +
                                           std::generic_category().message(ENOENT) + "\nhint: nothing was changed\n");
  }
  EXPECT_EQ(test::read_file((root / "a.nix").string()), "old\n");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(root)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"a.nix"});  // the staged a.nix is gone again

  write_in_place(root, {{"a.nix", "new\n"}});
  EXPECT_EQ(test::read_file((root / "a.nix").string()), "new\n");
}

}  // namespace
}  // namespace tailor::repin
