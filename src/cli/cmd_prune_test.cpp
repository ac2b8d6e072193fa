#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/inspected.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_command;
using test::run_tailor;
using test::source_path;

const std::string kMulti = source_path("tests/data/elf/multi.so");
const std::string kWheel = source_path("tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl");

using test::inspected;

// Issue 46 #5: a folder whose files were all left as they were (a full disk, an unknown layout)
// exited 0, so a recipe's fixup phase passed with unpruned libraries. Any file left undone is exit 1.
TEST(CmdPrune, AFolderWithAFileLeftUndoneExitsOne) {
  test::TempDir dir("cmd-prune-undone");
  const std::string lib = dir.path() + "/lib";
  fs::create_directories(lib);
  fs::copy_file(kMulti, lib + "/multi.so");
  fs::copy_file(source_path("tests/data/elf/corrupt/entry-size-past-container.so"), lib + "/bad.so");
  auto copy = run_tailor({"prune", lib, "--sm", "9.0", "-o", dir.path() + "/out"});
  EXPECT_EQ(copy.status, 1) << copy.err;
  EXPECT_TRUE(copy.err.starts_with("bad.so: warning: not pruned, left as it was: ")) << copy.err;
  EXPECT_NE(copy.out.find("; 1 refused"), std::string::npos) << copy.out;
  auto r = run_tailor({"prune", lib, "--sm", "9.0", "--in-place"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(r.err.starts_with("bad.so: warning: not pruned, left as it was: ")) << r.err;
  EXPECT_EQ(inspected(lib + "/multi.so"), "sm_90×3");  // the rest is pruned all the same
  auto json = run_tailor({"prune", lib, "--sm", "9.0", "--dry-run", "--json"});
  EXPECT_EQ(json.status, 1) << json.err;
  auto clean = run_tailor({"prune", kMulti, "--sm", "9.0", "--dry-run"});
  EXPECT_EQ(clean.status, 0) << clean.err;
}

// Issue 46 #14: a sparse file was copied byte by byte (a 300 MB ELF of 76 kB on disk took 307 MB,
// reported "0 B freed"). Its holes stay holes, in a copied file and in a pruned ELF alike.
TEST(CmdPrune, HolesOfASparseFileStayHoles) {
  test::TempDir dir("cmd-prune-sparse");
  const std::string lib = dir.path() + "/lib";
  fs::create_directories(lib);
  fs::copy_file(kMulti, lib + "/multi.so");
  constexpr uintmax_t kHole = uintmax_t{64} << 20;
  fs::resize_file(lib + "/multi.so", fs::file_size(kMulti) + kHole);  // a hole after the ELF's bytes
  std::ofstream(lib + "/data.bin") << "x";
  fs::resize_file(lib + "/data.bin", kHole);
  auto on_disk = [](const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return static_cast<uintmax_t>(st.st_blocks) * 512;
  };
  if (on_disk(lib + "/data.bin") > (uintmax_t{1} << 20)) GTEST_SKIP() << "this file system stores no holes";
  auto r = run_tailor({"prune", lib, "--sm", "9.0", "-o", dir.path() + "/out"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(dir.path() + "/out/data.bin"), kHole);
  EXPECT_LT(on_disk(dir.path() + "/out/data.bin"), uintmax_t{1} << 20);
  EXPECT_EQ(fs::file_size(dir.path() + "/out/multi.so"), fs::file_size(kMulti) + kHole);
  EXPECT_LT(on_disk(dir.path() + "/out/multi.so"), uintmax_t{1} << 20);
  EXPECT_EQ(inspected(dir.path() + "/out/multi.so"), "sm_90×3");
}

TEST(CmdPrune, LibraryCopyKeepsOnlyTheTargetsCode) {
  test::TempDir dir("cmd-prune");
  std::string out = dir.path() + "/multi.so";
  auto r = run_tailor({"prune", kMulti, "--sm", "8.9", "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(out), "sm_86×3");  // sm_86 is the newest SASS of major 8 not above 8.9
  EXPECT_EQ(fs::file_size(out), fs::file_size(kMulti));
  EXPECT_NE(r.out.find("pruned 1 ELF file with fatbins for SM 8.9 in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_75×3 sm_80×3 sm_90×3 sm_100×3 sm_120×3 compute_120×2"), std::string::npos) << r.out;
}

TEST(CmdPrune, JsonReportAndDryRun) {
  test::TempDir dir("cmd-prune-json");
  auto r = run_tailor({"prune", kMulti, "--sm", "9.0,12.0", "--dry-run", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["sm"], (nlohmann::json{"9.0", "12.0"}));
  EXPECT_EQ(j["dry_run"], true);
  ASSERT_EQ(j["files"].size(), 1u);
  uint64_t kept = 0, removed = 0;
  for (const auto& a : j["archs"]) kept += a["kept"].get<uint64_t>(), removed += a["removed"].get<uint64_t>();
  EXPECT_EQ(kept, 6u);  // sm_90 and sm_120 in each of 3 containers
  EXPECT_EQ(removed, 14u);
  EXPECT_EQ(inspected(kMulti).substr(0, 8), "sm_75×3");  // the input is untouched (× is two bytes)
}

// A set variant's name (with --spec) stands for every SM of its set: vllm-portable's
// "all" on x86_64 is 7.5, 8.0, 8.6, 8.9, 9.0, 10.0 and 12.0.
TEST(CmdPrune, SetVariantKeepsEverySmOfTheSet) {
  auto r = run_tailor({"prune", kMulti, "--sm", "vllm-python312-cuda12_8-all-avx2", "--spec",
                       "build-vllm/vllm-portable", "--dry-run", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["sm"], (nlohmann::json{"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}));
  uint64_t kept = 0, removed = 0;
  for (const auto& a : j["archs"]) kept += a["kept"].get<uint64_t>(), removed += a["removed"].get<uint64_t>();
  EXPECT_EQ(kept, 18u);    // every cubin: 8.9 loads sm_86, the others their own
  EXPECT_EQ(removed, 2u);  // compute_120: no PTX without --keep-ptx
  auto bad = run_tailor(
      {"prune", kMulti, "--sm", "vllm-python312-cuda12_8-all-avx9", "--spec", "build-vllm/vllm-portable", "--dry-run"});
  EXPECT_EQ(bad.status, 2);
}

TEST(CmdPrune, UsageErrorsAreReportedVerbatim) {
  auto r = run_tailor({"prune", kMulti, "--sm", "9.0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: prune: say where the result goes\nhint: give -o OUT for a pruned copy, or --in-place\n");
  r = run_tailor({"prune", kMulti, "--sm", "9.5", "--dry-run"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "tailor: error: prune: --sm '9.5' is not a compute capability the knowledge base knows");
  r = run_tailor({"prune", kMulti, "--sm", "9.0", "-o", kMulti});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.err,
      kMulti +
          ": error: the output exists already\nhint: tailor prune never overwrites: remove it, or choose another -o\n");
  r = run_tailor({"prune", kWheel, "--sm", "9.0", "--in-place"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, kWheel + ": error: wheels are not pruned in place\nhint: name the new wheel with -o\n");
}

TEST(CmdPrune, DirectoryCopyKeepsLinksAndOtherFiles) {
  test::TempDir dir("cmd-prune-dir");
  fs::path src = fs::path(dir.path()) / "site", out = fs::path(dir.path()) / "pruned";
  fs::create_directories(src / "lib");
  fs::copy_file(kMulti, src / "lib/libmulti.so.1");
  fs::create_symlink("libmulti.so.1", src / "lib/libmulti.so");
  std::ofstream(src / "README") << "text\n";
  auto r = run_tailor({"prune", src.string(), "--sm", "10.0", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected((out / "lib/libmulti.so.1").string()), "sm_100×3");
  EXPECT_TRUE(fs::is_symlink(out / "lib/libmulti.so"));
  EXPECT_EQ(fs::read_symlink(out / "lib/libmulti.so"), "libmulti.so.1");
  EXPECT_EQ(fs::file_size(out / "README"), 5u);
  EXPECT_EQ(inspected((src / "lib/libmulti.so.1").string()).substr(0, 8), "sm_75×3");
}

TEST(CmdPrune, InPlaceOnADirectory) {
  test::TempDir dir("cmd-prune-inplace");
  fs::copy_file(kMulti, fs::path(dir.path()) / "a.so");
  auto r = run_tailor({"prune", dir.path(), "--sm", "7.5", "--in-place"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(dir.path() + "/a.so"), "sm_75×3");
}

// The wheel's RECORD checked by Python's own hashlib, and installed by pip.
TEST(CmdPrune, WheelRecordVerifiesAndPipInstallsIt) {
  test::TempDir dir("cmd-prune-wheel");
  std::string out = dir.path() + "/prunefix-0.1-py3-none-linux_x86_64.whl";
  auto r = run_tailor({"prune", kWheel, "--sm", "9.0", "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(out), "sm_90×3");
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("python3"), "python3 not found");
  auto check = run_command("python3 " + source_path("tests/data/elf/verify-record.py") + " " + out, true);
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_EQ(check.out, "RECORD verifies: 7 files\n");  // 6 members and tailor-prune.json
  auto json = run_command(
      "python3 -c \"import zipfile,json,sys; z=zipfile.ZipFile(sys.argv[1]); "
      "j=json.loads(z.read('prunefix-0.1.dist-info/tailor-prune.json')); print(j['sm'], j['removed_bytes'] > 0)\" " +
      out);
  EXPECT_EQ(json.out, "['9.0'] True\n");
  TAILOR_SKIP_IF_TOOL_MISSING(run_command("python3 -m pip --version").status != 0, "pip not found");
  std::string target = dir.path() + "/site";
  auto pip =
      run_command("python3 -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target " +
                      target + " " + out,
                  true);
  ASSERT_EQ(pip.status, 0) << pip.out;
  EXPECT_EQ(inspected(target + "/prunefix/lib/libmulti.so"), "sm_90×3");
}

// The report says what the user gains: the download (the wheel's size) and the
// deflated libraries before and after, at the zlib level it deflated with.
TEST(CmdPrune, WheelReportStatesDownloadAndDeflatedSizes) {
  test::TempDir dir("cmd-prune-wheel-json");
  std::string out = dir.path() + "/prunefix-0.1-py3-none-linux_x86_64.whl";
  auto r = run_tailor({"prune", kWheel, "--sm", "9.0", "-o", out, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["download"]["before"].get<uint64_t>(), fs::file_size(kWheel));
  EXPECT_EQ(j["download"]["after"].get<uint64_t>(), fs::file_size(out));
  EXPECT_EQ(j["deflate_level"], 6);
  EXPECT_LT(j["compressed"]["after"].get<uint64_t>(), j["compressed"]["before"].get<uint64_t>());
  auto text = run_tailor({"prune", kWheel, "--sm", "9.0", "-o", dir.path() + "/b-0.1-py3-none-any.whl"});
  EXPECT_NE(text.out.find("download: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("at zlib level 6"), std::string::npos) << text.out;
}

// A tree's report sums the space every file takes on disk, before and after.
TEST(CmdPrune, DirectoryReportStatesBytesOnDisk) {
  test::TempDir dir("cmd-prune-disk");
  auto r = run_tailor({"prune", source_path("tests/data/elf"), "--sm", "9.0", "--dry-run", "--json"});
  // tests/data/elf/corrupt/ holds files prune refuses: a folder with any file left as it was exits 1.
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("corrupt/elf-header-truncated.so: warning: not pruned, left as it was"), std::string::npos);
  auto j = nlohmann::json::parse(r.out);
  uint64_t all = 0;
  for (const auto& e : fs::recursive_directory_iterator(source_path("tests/data/elf")))
    if (e.is_regular_file()) all += fs::file_size(e.path());
  // Allocated space: at least the bytes (no fixture is sparse), in blocks.
  EXPECT_GE(j["disk"]["before"].get<uint64_t>(), all);
  EXPECT_EQ(j["disk"]["after"], j["disk"]["before"]);  // a dry run changes nothing
}

}  // namespace
}  // namespace tailor
