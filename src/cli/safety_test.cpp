// The command line's safety net: output that cannot be written, exceptions,
// binary input, empty paths and unsafe names end in a diagnostic and exit 2,
// never in an abort, half an output or a broken file.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>
#include <sstream>
#include <streambuf>
#include <system_error>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/cli.hpp"
#include "cli/command.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

const std::string kNoSpace =
    "tailor: error: cannot write the output: " + std::generic_category().message(ENOSPC) + "\n";

// The real binary with stdout on /dev/full: exit status and stderr.
test::RunResult to_dev_full(const std::string& args) {
  test::TempDir dir("devfull");
  auto r = test::run_command(tailor::test::tailor_binary() + " " + args + " >/dev/full 2>" + dir.path() + "/err");
  r.err = test::read_file(dir.path() + "/err");
  return r;
}

TEST(Safety, EveryCommandFailsWhenStdoutIsFull) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const Command& c : commands()) {
    auto r = to_dev_full(std::string(c.name) + " --help");
    EXPECT_EQ(r.status, 2) << c.name;
    EXPECT_EQ(r.err, kNoSpace) << c.name;
  }
  for (const std::string& args : std::vector<std::string>{
           "--help", "-V", "help matrix", "kb", "matrix build-pytorch/main", "matrix build-pytorch/main --json",
           "ci build-pytorch/main --github", "manifest build-pytorch/main pytorch-python313-cpu-avx2",
           "parse " + tailor::test::source_dir() + "/data/builders/torch.nix"}) {
    auto r = to_dev_full(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, kNoSpace) << args;
  }
}

// A stream buffer that refuses every byte, and a stream that throws on it:
// an exception from deep inside a command.
struct Refusing : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

TEST(Safety, AnExceptionInACommandIsADiagnostic) {
  Refusing buf;
  std::ostream out(&buf);
  out.exceptions(std::ios::badbit);
  std::ostringstream err;
  int status = run_cli({"kb"}, out, err);
  EXPECT_EQ(status, 2);
  EXPECT_TRUE(err.str().starts_with("tailor: error: kb: ")) << err.str();
}

TEST(Safety, AnUnreadableKnowledgeBaseDirectoryIsADiagnostic) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any directory";
  test::TempDir dir("kb-unreadable");
  ::chmod(dir.path().c_str(), 0);
  auto r = test::run_tailor({"kb", "--kb", dir.path()});
  ::chmod(dir.path().c_str(), 0700);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() + ": error: cannot read the knowledge-base overlay directory: " +
                       std::generic_category().message(EACCES) + "\n");
}

TEST(Safety, ABinaryFileIsNotAText) {
  test::TempDir dir("binary");
  std::string path = dir.path() + "/spec.toml";
  std::ofstream(path, std::ios::binary) << std::string("[branch]\0\x01\xff binary", 18);
  for (const char* cmd : {"matrix", "parse"}) {
    auto r = test::run_tailor({cmd, path});
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_EQ(r.err, path + ": error: not a text file (a NUL byte at offset 8)\n") << cmd;
    EXPECT_EQ(r.out, "") << cmd;
  }
}

TEST(Safety, AnEmptyOutputDirectoryIsAnError) {
  auto r = test::run_tailor({"generate", "build-pytorch/main", "-o", ""});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("must not be empty"), std::string::npos) << r.err;
}

TEST(Safety, HelpForACommandAndTheShortVersionFlag) {
  auto help = test::run_tailor({"help", "matrix"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, test::run_tailor({"matrix", "--help"}).out);
  EXPECT_EQ(test::run_tailor({"help", "matrx"}).status, 2);
  auto v = test::run_tailor({"-V"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, test::run_tailor({"--version"}).out);
  EXPECT_NE(test::run_tailor({"--help"}).out.find("'tailor -V' (--version)"), std::string::npos);
}

TEST(Safety, HelpSaysTheWholeCommandAndNumbersSayTheirRange) {
  EXPECT_NE(test::run_tailor({"matrix", "--help"}).out.find("Usage: tailor matrix [OPTIONS]"), std::string::npos);
  auto jobs = test::run_tailor({"build", "build-pytorch/main", "-j", "0"});
  EXPECT_EQ(jobs.status, 2);
  EXPECT_EQ(jobs.err.rfind("tailor: error: build: --jobs: '0' must be a whole number from 1 to 1000000\n", 0), 0u)
      << jobs.err;
  for (const char* bad : {"nan", "inf", "2GB"}) {
    auto mem = test::run_tailor({"build", "build-pytorch/main", "--memory", bad});
    EXPECT_EQ(mem.status, 2) << bad;
    EXPECT_NE(mem.err.find(fmt::format("'{}' must be a number of 0 or more", bad)), std::string::npos) << mem.err;
  }
}

// Every numeric option of every command states its range in its --help, and refuses what is outside.
TEST(Safety, EveryNumericOptionStatesAndChecksItsRange) {
  static const std::regex numeric(R"(^\s+(\S+)\s+(INT|UINT|FLOAT)\b(\S*( \S+)*))");
  int seen = 0;
  for (const Command& c : commands()) {
    std::istringstream help(test::run_tailor({c.name, "--help"}).out);
    for (std::string line; std::getline(help, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, numeric)) continue;
      ++seen;
      bool ranged =
          line.find(":from 1 to 1000000") != std::string::npos || line.find(":0 or more") != std::string::npos;
      EXPECT_TRUE(ranged) << c.name << ": " << line;
    }
  }
  EXPECT_EQ(seen, 5) << "build -j, --memory; ci --chunk, --max-parallel; builders --gb-per-job";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"ci", "--github", "--chunk", "0"},
                                               {"ci", "--github", "--max-parallel", "-1"},
                                               {"ci", "--github", "--chunk", "99999999999"},
                                               {"builders", "a@b:x86_64-linux:1:1", "--gb-per-job", "1e3"},
                                               {"build", "build-pytorch/main", "--dry-run", "-j", "2.5"}}) {
    auto r = test::run_tailor(args);
    EXPECT_EQ(r.status, 2) << args[1];
    EXPECT_NE(r.err.find("must be a whole number from 1 to 1000000"), std::string::npos) << r.err;
  }
  auto fields = test::run_tailor({"builders", "a@b:x86_64-linux:64x:256"});
  EXPECT_EQ(fields.status, 2);
  EXPECT_NE(fields.err.find("cores and memory (GB) must be whole numbers from 1 to 1000000"), std::string::npos)
      << fields.err;
}

// Names become file, Nix attribute and CI job names: checked where they are written.
TEST(Safety, UnsafeNamesAreRejectedWhereTheyAreWritten) {
  test::TempDir dir("names");
  std::string path = dir.path() + "/s.toml";
  std::ofstream(path)
      << "[branch]\nname = \"ml: prod\"\nproduct = \"build-pytorch\"\npin = \"fe5e41d\"\npython = \"3.13\"\n\n"
         "[[family]]\nname = \"cpu\"\npackage = \"pytorch\"\nbackend = \"cpu\"\nisa = \"avx2\"\n";
  auto r = test::run_tailor({"matrix", path});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, path +
                       ":2:8: error: branch name 'ml: prod' contains ':'\n"
                       "name = \"ml: prod\"\n"
                       "       ^\n"
                       "hint: names are letters, digits and . _ + -, starting with a letter or a digit\n");
  auto imp = test::run_tailor({"import", test::source_path("tests/data/trees/clean"), "--name", "x\"y"});
  EXPECT_EQ(imp.status, 2);
  EXPECT_EQ(imp.err.rfind("tailor: error: branch name 'x\"y' contains '\"'\n", 0), 0u) << imp.err;
  auto org = test::run_tailor({"ci", "build-pytorch/main", "--github", "--org", "a b"});
  EXPECT_EQ(org.status, 2);
  EXPECT_NE(org.err.find("'a b' contains ' '"), std::string::npos) << org.err;
}

}  // namespace
}  // namespace tailor
