// Issue 33 §3, §4, §6 and §8 at the command line: inputs that are no regular
// file or too large are refused by name (exit 2) instead of hanging or
// growing without bound; a host file whose number overflows is named; a
// killed generate's or prune's staging file is drift and is swept; two writers
// of one output take turns.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// A FIFO with no writer: an open without O_NONBLOCK, or a read, would wait forever.
std::string make_fifo(const test::TempDir& dir, const std::string& name) {
  std::string path = dir.path() + "/" + name;
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

TEST(HostileInputs, ParseRefusesAFifoADeviceAndADirectoryWithoutDefaultNix) {
  test::TempDir dir("hostile-parse");
  const std::string fifo = make_fifo(dir, "x.nix");
  auto r = test::run_tailor({"parse", fifo});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, fifo + ": error: cannot read the file: a FIFO, not a regular file\n");
  r = test::run_tailor({"parse", "/dev/zero"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "/dev/zero: error: cannot read the file: a character device, not a regular file\n");
  fs::create_directory(dir.path() + "/d");
  fs::create_directory(dir.path() + "/d/default.nix");
  r = test::run_tailor({"parse", dir.path() + "/d"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() + "/d/default.nix: error: cannot read the file: a directory, not a regular file\n");
}

// Issue 27 §7: a binary file named .nix is "not a text file" in check, import and repin,
// never a syntax error that echoes its bytes to the terminal; a recipe that does not parse
// is left out of import with its syntax error, not imported as a valid variant. (`parse`
// of a FIFO or device is refused above: read_bounded never waits on one.)
TEST(HostileInputs, BinaryAndBrokenRecipesInCheckImportAndRepin) {
  test::TempDir dir("hostile-binary");
  const std::string tree = dir.path() + "/pkgs";
  fs::create_directory(tree);
  const std::string elf = std::string(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\xff\xfe garbage\n",
      21);
  write(tree + "/pytorch-python313-cpu-avx512.nix", elf);
  auto r = test::run_tailor({"check", tree});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, tree +
                       "/pytorch-python313-cpu-avx512.nix: error: not a text file (a NUL byte at offset 7) [TLR001]\n"
                       "checked 1 file: 1 error, 0 warnings\n");
  EXPECT_EQ(r.err, "");
  // Beside a good recipe and one that does not parse, import leaves both bad ones out, saying why.
  fs::copy_file(test::source_path("tests/data/trees/clean/pytorch-python313-cpu-avx2.nix"),
                tree + "/pytorch-python313-cpu-avx2.nix");
  write(tree + "/pytorch-python313-cpu-armv9.nix",
        "{ pkgs }:\npkgs.python313Packages.torch.overrideAttrs (old: {\n  pname = ;\n})\n");
  r = test::run_tailor({"import", tree});
  EXPECT_EQ(r.err,
            "tailor: warning: pytorch-python313-cpu-armv9.nix:3:11: left out: it does not parse: expected an "
            "expression, got ';'\n"
            "tailor: warning: pytorch-python313-cpu-avx512.nix: left out: not a text file (a NUL byte at offset 7)\n");
  EXPECT_NE(r.out.find("# Imported by tailor from pkgs (1 variants).\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("isa = \"avx2\"\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("armv9"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("avx512"), std::string::npos) << r.out;
  // repin stops at the binary file before any edit, by name.
  fs::remove(tree + "/pytorch-python313-cpu-armv9.nix");
  r = test::run_tailor({"repin", tree, "--rev", "0182a361324364ae3f436a63005877674cf45efb", "-o", dir.path() + "/out"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, tree + "/pytorch-python313-cpu-avx512.nix: error: not a text file (a NUL byte at offset 7)\n");
  EXPECT_FALSE(fs::exists(dir.path() + "/out"));
}

TEST(HostileInputs, ParseRefusesAFileOverTheSizeLimitUnlessRaised) {
  test::TempDir dir("hostile-size");
  const std::string file = dir.path() + "/big.nix";
  write(file, "{ a = 1; }\n");  // 11 bytes
  auto r = test::run_tailor({"parse", "--max-input-size", "10", file});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(
      r.err.starts_with(file + ": error: cannot read the file: 11 bytes, over the input size limit of 10 bytes"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "--max-input-size")) << r.err;
  r = test::run_tailor({"parse", "--max-input-size=11", file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "{ a = 1; }\n");
  r = test::run_tailor({"parse", "--max-input-size", "lots", file});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--max-input-size: 'lots' is not a byte count")) << r.err;
}

// Issue 46 #4: --cpuinfo and --variant-json were read by their own readers: a FIFO hung forever,
// /dev/zero grew to gigabytes. They go through the one input reader now, as every other input.
TEST(HostileInputs, CpuinfoAndVariantJsonAreReadByTheOneInputReader) {
  test::TempDir dir("hostile-cpuinfo");
  const std::string fifo = make_fifo(dir, "cpuinfo");
  for (const char* command : {"detect", "recommend"}) {
    auto r = test::run_tailor({command, "--cpuinfo", fifo, "--gpus", "none"});
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err, fifo + ": error: cannot read the CPU description: a FIFO, not a regular file\n") << command;
  }
  auto r = test::run_tailor({"detect", "--cpuinfo", "/dev/zero", "--gpus", "none"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "/dev/zero: error: cannot read the CPU description: a character device, not a regular file\n");
  const std::string cpuinfo = test::source_path("tests/data/cpuinfo/x86_64-zen4-avx512bf16");
  r = test::run_tailor({"detect", "--max-input-size", "100", "--cpuinfo", cpuinfo, "--gpus", "none"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with(cpuinfo + ": error: cannot read the CPU description: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "over the input size limit of 100 bytes")) << r.err;
  const std::string json_fifo = make_fifo(dir, "variant.json");
  r = test::run_tailor({"verify", dir.path(), "--variant-json", json_fifo});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, json_fifo + ": error: cannot read the variant JSON: a FIFO, not a regular file\n");
}

TEST(HostileInputs, SpecThatIsAFifoOrADirectoryIsRefused) {
  test::TempDir dir("hostile-spec");
  const std::string fifo = make_fifo(dir, "spec.toml");
  auto r = test::run_tailor({"matrix", fifo});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, fifo + ": error: cannot read spec file: a FIFO, not a regular file\n");
  fs::create_directory(dir.path() + "/d.toml");
  r = test::run_tailor({"matrix", dir.path() + "/d.toml"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() + "/d.toml: error: cannot read spec file: a directory, not a regular file\n");
}

TEST(HostileInputs, SpecOverTheSizeLimitIsRefused) {
  test::TempDir dir("hostile-spec-size");
  const std::string spec = dir.path() + "/spec.toml";
  write(spec, std::string(2048, '#') + "\n");
  auto r = test::run_tailor({"matrix", spec, "--max-input-size", "1K"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(
      r.err.starts_with(spec + ": error: cannot read spec file: 2049 bytes, over the input size limit of 1024 bytes"))
      << r.err;
}

TEST(HostileInputs, KbOverlayWithADirectoryOrAFifoForAFileIsAnError) {
  test::TempDir dir("hostile-kb");
  fs::create_directory(dir.path() + "/packages.toml");
  auto r = test::run_tailor({"matrix", "build-pytorch/main", "--kb", dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() + "/packages.toml: error: cannot read file: a directory, not a regular file\n");
  fs::remove(dir.path() + "/packages.toml");
  const std::string fifo = make_fifo(dir, "cpu_isas.toml");
  r = test::run_tailor({"matrix", "build-pytorch/main", "--kb", dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, fifo + ": error: cannot read file: a FIFO, not a regular file\n");
}

TEST(HostileInputs, InspectRefusesAFifo) {
  test::TempDir dir("hostile-inspect");
  const std::string fifo = make_fifo(dir, "lib.so");
  auto r = test::run_tailor({"inspect", fifo});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, fifo + ": error: cannot read: a FIFO, not a regular file")) << r.err;
}

// §6 in a tree: a recipe that is a FIFO, a link to a device, or a file over the
// input size limit is refused by name by check and import (exit 2), not waited
// on, read without end, or skipped.
TEST(HostileInputs, CheckAndImportRefuseATreeFileThatIsAFifoADeviceOrTooLarge) {
  test::TempDir dir("hostile-tree");
  const std::string tree = dir.path() + "/pkgs";
  fs::create_directories(tree + "/sub");
  write(tree + "/a.nix", "{ }\n");
  ASSERT_EQ(::mkfifo((tree + "/sub/fifo.nix").c_str(), 0600), 0);
  for (const char* command : {"check", "import"}) {
    auto r = test::run_tailor({command, tree});
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err, tree + "/sub/fifo.nix: error: cannot read the file: a FIFO, not a regular file\n") << command;
  }
  fs::remove(tree + "/sub/fifo.nix");
  fs::create_symlink("/dev/zero", tree + "/zero.nix");
  auto r = test::run_tailor({"check", tree});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, tree + "/zero.nix: error: cannot read the file: a character device, not a regular file\n");
  fs::remove(tree + "/zero.nix");
  // A FIFO the tree holds but check does not read (no .nix, no root .md) is no matter.
  ASSERT_EQ(::mkfifo((tree + "/sub/notes.txt").c_str(), 0600), 0);
  write(tree + "/big.nix", "{ a = 1; }\n");  // 11 bytes
  r = test::run_tailor({"check", "--max-input-size", "10", tree});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, tree +
                       "/big.nix: error: cannot read the file: 11 bytes, over the input size limit of 10 bytes\n"
                       "hint: raise the limit with --max-input-size BYTES\n");
  r = test::run_tailor({"check", "--max-input-size", "11", tree});
  EXPECT_NE(r.status, 2) << r.err;
}

// §3: nlohmann's out_of_range (number overflow), named with the file and the number's position.
TEST(HostileInputs, HostFileWithANumberOverflowIsNamed) {
  test::TempDir dir("hostile-host");
  const std::string host = dir.path() + "/host.json";
  write(host,
        "{\"os\": \"linux\", \"cpu\": {\"arch\": \"x86_64\", \"features\": []},\n \"gpus\": [{\"index\": 1e400, "
        "\"sm\": \"9.0\"}]}\n");
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "--for", host});
  EXPECT_EQ(r.status, 2);
  // Line 2: ` "gpus": [{"index": ` is 20 characters, so 1e400 starts at column 21.
  EXPECT_TRUE(r.err.starts_with(host + ":2:21: error: not usable JSON: number overflow parsing '1e400'")) << r.err;
  // An integer too large for an index is refused, not wrapped.
  write(host,
        "{\"os\": \"linux\", \"cpu\": {\"arch\": \"x86_64\", \"features\": []},\n \"gpus\": [{\"index\": 4294967296, "
        "\"sm\": \"9.0\"}]}\n");
  r = test::run_tailor({"manifest", "build-pytorch/main", "--for", host});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with(host + ": error: gpus[].index 4294967296 is not a GPU index")) << r.err;
}

// A pid that is gone: a child that has exited and been reaped.
pid_t gone_pid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  if (child > 0) ::waitpid(child, &status, 0);
  return child;
}

// §4: a staging file whose process is gone is drift for --check and is swept by
// the next generate, even one with nothing else to write.
TEST(HostileInputs, GenerateSweepsAKilledRunsStagingFileAndCheckReportsIt) {
  test::TempDir dir("hostile-leftover");
  const std::string tree = dir.path() + "/tree";
  ASSERT_EQ(test::run_tailor({"generate", "build-pytorch/main", "-o", tree}).status, 0);
  pid_t child = gone_pid();
  ASSERT_GT(child, 0);
  const std::string leftover = tree + "/README.md.tailor-tmp-" + std::to_string(child);
  const std::string mine = tree + "/BUILD_MATRIX.md.tailor-tmp-" + std::to_string(::getpid());  // a live writer's
  write(leftover, "half a README");
  write(mine, "being written");
  auto check = test::run_tailor({"generate", "build-pytorch/main", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_TRUE(
      contains(check.out, "stale: README.md.tailor-tmp-" + std::to_string(child) + " (staging file of a killed run)"))
      << check.out;
  EXPECT_FALSE(contains(check.out, "BUILD_MATRIX.md.tailor-tmp-")) << check.out;
  EXPECT_TRUE(fs::exists(leftover)) << "--check writes nothing";
  auto gen = test::run_tailor({"generate", "build-pytorch/main", "-o", tree});
  EXPECT_EQ(gen.status, 0) << gen.err;
  EXPECT_FALSE(fs::exists(leftover)) << gen.out;
  EXPECT_TRUE(fs::exists(mine)) << "a live process's staging file is not stale";
  fs::remove(mine);
  EXPECT_EQ(test::run_tailor({"generate", "build-pytorch/main", "-o", tree, "--check"}).status, 0);
}

// A tailor run in the background while the test holds an output's lock: what it
// says on stderr once it waits, and its exit status once the lock is released.
// Polls up to 2 minutes each, for a loaded machine.
class BackgroundTailor {
 public:
  BackgroundTailor(const test::TempDir& dir, const std::string& args)
      : err_(dir.path() + "/err"), rc_(dir.path() + "/rc") {
    const std::string cmd = "(" + test::tailor_binary() + " " + args + " > /dev/null 2> " + err_ + "; echo $? > " +
                            rc_ + ".tmp; mv " + rc_ + ".tmp " + rc_ + ") &";
    started_ = ::system(cmd.c_str()) == 0;
  }
  bool started() const { return started_; }
  std::string stderr_once_waiting() const {
    std::string said;
    for (int i = 0; i < 1200 && !contains(said, "waiting"); ++i) {
      ::usleep(100 * 1000);
      std::ifstream in(err_);
      said.assign(std::istreambuf_iterator<char>(in), {});
    }
    return said;
  }
  bool finished() const { return fs::exists(rc_); }
  std::string exit_status() const {
    for (int i = 0; i < 1200 && !finished(); ++i) ::usleep(100 * 1000);
    std::ifstream in(rc_);
    std::string code;
    in >> code;
    return code;
  }

 private:
  std::string err_, rc_;
  bool started_ = false;
};

// §8: while one writer holds the output directory, a second generate waits
// (saying so) and finishes once the first lets go. The test plays the first
// writer by holding the lock itself; the second is a real tailor process.
TEST(HostileInputs, SecondWriterOfAnOutputDirectoryWaitsForTheFirst) {
  test::TempDir dir("hostile-lock");
  const std::string tree = dir.path() + "/tree";
  fs::create_directory(tree);
  int fd = ::open(tree.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  BackgroundTailor second(dir, "generate build-pytorch/main -o " + tree);
  ASSERT_TRUE(second.started());
  EXPECT_EQ(second.stderr_once_waiting(), "tailor: waiting for another tailor run writing " + tree + "\n");
  EXPECT_FALSE(second.finished()) << "it finished while the lock was held";
  EXPECT_FALSE(fs::exists(tree + "/README.md")) << "it wrote while the lock was held";
  ::close(fd);  // releases the lock
  EXPECT_EQ(second.exit_status(), "0");
  EXPECT_TRUE(fs::exists(tree + "/README.md"));
}

// Issue 46 #7: two `kb new-package … -o DIR` at once both succeeded in 14 of 20 tries, leaving
// an overlay of both. The second now waits for the first and finds its files: it writes nothing.
TEST(HostileInputs, SecondKbNewPackageIntoOneOverlayWaitsThenRefuses) {
  test::TempDir dir("hostile-new-package");
  const std::string kb = dir.path() + "/kb";
  fs::create_directory(kb);
  int fd = ::open(kb.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  BackgroundTailor second(dir, "kb new-package llama2 --like magma -o " + kb);
  ASSERT_TRUE(second.started());
  EXPECT_EQ(second.stderr_once_waiting(), "tailor: waiting for another tailor run writing " + kb + "\n");
  EXPECT_FALSE(fs::exists(kb + "/packages.toml")) << "it wrote while the lock was held";
  write(kb + "/packages.toml", "# the first run's overlay\n");  // what the first writer wrote
  ::close(fd);
  EXPECT_EQ(second.exit_status(), "2");
  EXPECT_EQ(test::read_file(kb + "/packages.toml"), "# the first run's overlay\n");
  EXPECT_FALSE(fs::exists(kb + "/builders"));
}

// §4: what a killed prune staged (a file's copy, a folder's stage, a file
// replaced in place) is swept by the next prune writing there; a live run's is not.
TEST(HostileInputs, PruneSweepsAKilledRunsStagingFiles) {
  test::TempDir dir("hostile-prune-leftover");
  const fs::path root = dir.path(), multi = test::source_path("tests/data/elf/multi.so");
  const std::string dead = std::to_string(gone_pid()), live = std::to_string(::getpid());
  write(root / ("old.whl.tailor-tmp-" + dead), "half a wheel");
  fs::create_directories(root / ("pruned.tailor-tmp-" + dead) / "lib");
  write(root / ("pruned.tailor-tmp-" + dead) / "lib/x.so", "half a folder");
  write(root / ("other.so.tailor-tmp-" + live), "being written");
  auto r = test::run_tailor({"prune", multi.string(), "--sm", "9.0", "-o", (root / "multi.so").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(root / ("old.whl.tailor-tmp-" + dead)));
  EXPECT_FALSE(fs::exists(root / ("pruned.tailor-tmp-" + dead)));
  EXPECT_TRUE(fs::exists(root / ("other.so.tailor-tmp-" + live))) << "a live process's staging file is not stale";

  // In place over a folder: a stale staging file inside is swept, never pruned or counted.
  fs::create_directories(root / "site/lib");
  fs::copy_file(multi, root / "site/lib/libmulti.so");
  fs::copy_file(multi, root / ("site/lib/libmulti.so.tailor-tmp-" + dead));
  auto j = test::run_tailor({"prune", (root / "site").string(), "--sm", "9.0", "--in-place", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_FALSE(fs::exists(root / ("site/lib/libmulti.so.tailor-tmp-" + dead)));
  EXPECT_TRUE(contains(j.out, "\"path\": \"lib/libmulti.so\"")) << j.out;
  EXPECT_FALSE(contains(j.out, "tailor-tmp")) << j.out;
}

// §8: two prunes in place of one file take turns. The test holds the lock of the
// file's folder (a replaced file is a new inode: its own lock would not hold);
// the second writer is a real tailor process.
TEST(HostileInputs, SecondPruneInPlaceWaitsForTheFirst) {
  test::TempDir dir("hostile-prune-lock");
  const std::string lib = dir.path() + "/lib";
  fs::create_directory(lib);
  fs::copy_file(test::source_path("tests/data/elf/multi.so"), lib + "/libmulti.so");
  const auto before = fs::last_write_time(lib + "/libmulti.so");
  int fd = ::open(lib.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  BackgroundTailor second(dir, "prune " + lib + "/libmulti.so --sm 9.0 --in-place");
  ASSERT_TRUE(second.started());
  EXPECT_EQ(second.stderr_once_waiting(), "tailor: waiting for another tailor run writing " + lib + "\n");
  EXPECT_FALSE(second.finished()) << "it finished while the lock was held";
  EXPECT_EQ(fs::last_write_time(lib + "/libmulti.so"), before) << "it wrote while the lock was held";
  ::close(fd);
  EXPECT_EQ(second.exit_status(), "0");
  EXPECT_NE(fs::last_write_time(lib + "/libmulti.so"), before);
}

// Issue 46 #5: an in-place prune killed midway left a half-pruned folder that no
// tailor-prune.json described. SIGTERM now stops it between files: the record lists
// exactly the files whose bytes changed, with "complete": false and "interrupted":
// "SIGTERM"; the same command then prunes the rest and completes the record.
TEST(HostileInputs, PruneInPlaceStoppedMidwayRecordsWhatItDid) {
  test::TempDir dir("hostile-prune-interrupted");
  const fs::path site = fs::path(dir.path()) / "site", multi = test::source_path("tests/data/elf/multi.so");
  constexpr int kFiles = 800;
  auto name = [](int i) { return fmt::format("lib/lib{:04}.so", i); };
  fs::create_directories(site / "lib");
  for (int i = 0; i < kFiles; ++i) fs::copy_file(multi, site / name(i));
  const std::string original = test::read_file(multi.string()), err = dir.path() + "/err";
  struct stat first {};
  ASSERT_EQ(::stat((site / name(0)).c_str(), &first), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int null = ::open("/dev/null", O_WRONLY), e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(null, 1);
    ::dup2(e, 2);
    ::execl(test::tailor_binary().c_str(), "tailor", "prune", site.c_str(), "--sm", "9.0", "--in-place", nullptr);
    ::_exit(127);
  }
  // The first file replaced (a new inode): the prune is under way. Stop it there.
  for (int i = 0; i < 100000; ++i) {
    struct stat st {};
    if (::stat((site / name(0)).c_str(), &st) == 0 && st.st_ino != first.st_ino) break;
    ::usleep(100);
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << ", its record unwritten";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_TRUE(contains(test::read_file(err), site.string() + ": warning: interrupted by SIGTERM: "))
      << test::read_file(err);

  auto removed_in = [&](const nlohmann::json& record) {
    std::set<std::string> paths;
    for (const auto& f : record.at("files"))
      for (const auto& a : f.at("archs"))
        if (a.at("arch") == "sm_80" && a.at("kept") == 0 && a.at("removed").get<int>() > 0)
          paths.insert(f.at("path").get<std::string>());
    return paths;
  };
  auto changed_files = [&] {
    std::set<std::string> paths;
    for (int i = 0; i < kFiles; ++i)
      if (test::read_file((site / name(i)).string()) != original) paths.insert(name(i));
    return paths;
  };
  ASSERT_TRUE(fs::exists(site / "tailor-prune.json")) << "a half-pruned folder without its record";
  auto record = nlohmann::json::parse(test::read_file((site / "tailor-prune.json").string()));
  EXPECT_EQ(record.value("complete", true), false);
  EXPECT_EQ(record.value("interrupted", ""), "SIGTERM");
  const std::set<std::string> changed = changed_files();
  EXPECT_EQ(removed_in(record), changed) << "the record lists exactly the files pruned";
  EXPECT_FALSE(changed.empty());
  EXPECT_LT(changed.size(), size_t{kFiles}) << "the prune ended before the signal: nothing stopped midway";
  for (const auto& e : fs::directory_iterator(site / "lib"))
    EXPECT_FALSE(contains(e.path().filename().string(), "tailor-tmp")) << e.path();

  // The same command finishes: every file pruned, the record complete and about all of them.
  auto again = test::run_tailor({"prune", site.string(), "--sm", "9.0", "--in-place"});
  EXPECT_EQ(again.status, 0) << again.err;
  record = nlohmann::json::parse(test::read_file((site / "tailor-prune.json").string()));
  EXPECT_EQ(record.value("complete", false), true);
  EXPECT_FALSE(record.contains("interrupted"));
  EXPECT_EQ(changed_files().size(), size_t{kFiles});
  EXPECT_EQ(removed_in(record), changed_files()) << "the files the first run pruned kept their entries";
}

}  // namespace
}  // namespace tailor
