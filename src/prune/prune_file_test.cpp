// Pruning files on disk: the output is the in-memory result, the input and
// its mode are kept, nothing is left behind on error, --in-place replaces.
#include "prune/prune_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "kb/knowledge_base.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read_all(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

PruneOptions for_sm(const std::string& sm) {
  static const KnowledgeBase kb = KnowledgeBase::load();
  PruneOptions o;
  o.targets.push_back(prune_target(kb, sm));
  return o;
}

const fs::path kMulti = fs::path(tailor::test::source_dir()) / "tests/data/elf/multi.so";

TEST(PruneFile, CopyEqualsTheInMemoryResultAndKeepsTheMode) {
  test::TempDir dir("prune-file");
  fs::path in = fs::path(dir.path()) / "in.so", out = fs::path(dir.path()) / "out.so";
  fs::copy_file(kMulti, in);
  fs::permissions(in, fs::perms(0750));
  FileOutcome f = prune_elf_file(in, out, "in.so", for_sm("8.6"));
  std::vector<uint8_t> expected = read_all(kMulti);
  prune_elf_bytes("multi.so", expected, for_sm("8.6"));
  EXPECT_EQ(read_all(out), expected);
  EXPECT_EQ(read_all(in), read_all(kMulti));
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all, fs::perms(0750));
  EXPECT_GT(f.removed_bytes, 0u);
  EXPECT_GT(f.disk_before, 0u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 2);  // no temporary left
}

TEST(PruneFile, InPlaceReplacesTheFile) {
  test::TempDir dir("prune-inplace");
  fs::path p = fs::path(dir.path()) / "lib.so";
  fs::copy_file(kMulti, p);
  prune_elf_file(p, p, "lib.so", for_sm("12.0"));
  std::vector<uint8_t> expected = read_all(kMulti);
  prune_elf_bytes("multi.so", expected, for_sm("12.0"));
  EXPECT_EQ(read_all(p), expected);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(PruneFile, RefusedFileWritesNothing) {
  test::TempDir dir("prune-refused");
  fs::path in = fs::path(dir.path()) / "in.so", out = fs::path(dir.path()) / "out.so";
  std::vector<uint8_t> bytes =
      read_all(fs::path(tailor::test::source_dir()) / "tests/data/elf/corrupt/entry-size-past-container.so");
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  try {
    prune_elf_file(in, out, "in.so", for_sm("9.0"));
    FAIL() << "a corrupt fatbin was pruned";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().path, in.string());
    EXPECT_NE(e.diagnostic().message.find("extends"), std::string::npos) << e.diagnostic().message;
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

// A signal while a pruned file is staged removes the staging file (the handler
// main installs unlinks every registered path; here it is called directly).
TEST(StagedOutput, ASignalRemovesTheStagingFile) {
  test::TempDir dir("staged-signal");
  fs::path out = fs::path(dir.path()) / "lib.so";
  StagedOutput staged(out);
  ASSERT_TRUE(fs::exists(staged.path()));
  EXPECT_EQ(staged.path().string(), out.string() + ".tailor-tmp-" + std::to_string(::getpid()));
  clean_up_registered_for_test();
  EXPECT_FALSE(fs::exists(staged.path()));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace tailor
