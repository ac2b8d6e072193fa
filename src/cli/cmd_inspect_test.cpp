#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using test::run_tailor;
using test::source_path;

const std::string kMulti = source_path("tests/data/elf/multi.so");

TEST(CmdInspect, JsonHasFilesEntriesAndTotals) {
  auto r = run_tailor({"inspect", kMulti, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 1u);
  const auto& f = j["files"][0];
  EXPECT_EQ(f["size"], std::filesystem::file_size(kMulti));
  EXPECT_EQ(f["fatbin_bytes"], 0x11988);  // readelf -S of the original: .nv_fatbin size 011988
  uint64_t sum = 0, sass = 0, ptx = 0;
  for (const auto& e : f["entries"]) {
    sum += e["bytes"].get<uint64_t>();
    (e["kind"] == "ptx" ? ptx : sass) += e["count"].get<uint64_t>();
  }
  EXPECT_EQ(sass, 18u);  // cuobjdump --list-elf: 18 cubins
  EXPECT_EQ(ptx, 2u);    // cuobjdump --list-ptx: 2 PTX files
  EXPECT_EQ(sum + f["fatbin_overhead_bytes"].get<uint64_t>(), f["fatbin_bytes"].get<uint64_t>());
  EXPECT_EQ(j["total"]["fatbin_bytes"], f["fatbin_bytes"]);
  EXPECT_EQ(j["total"]["size"], f["size"]);
  EXPECT_EQ(j["files"][0]["entries"][0]["arch"], "sm_75");
  EXPECT_FALSE(j.contains("projection"));
}

TEST(CmdInspect, TargetProjection) {
  auto r = run_tailor({"inspect", kMulti, "--json", "--target", "9.0"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  uint64_t other = 0;
  for (const auto& e : j["files"][0]["entries"])
    if (e["arch"] != "sm_90") other += e["bytes"].get<uint64_t>();
  EXPECT_EQ(j["projection"]["saved_bytes"], other);
  EXPECT_EQ(j["projection"]["kept_bytes"].get<uint64_t>() + other, j["total"]["size"].get<uint64_t>());
  auto text = run_tailor({"inspect", kMulti, "--target", "sm_90"});
  EXPECT_NE(text.out.find("a build for SM sm_90 alone would keep"), std::string::npos) << text.out;
}

TEST(CmdInspect, TextTable) {
  auto r = run_tailor({"inspect", source_path("tests/data/elf/sm90a-sm90-ptx.so")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("sm_90a        sass  2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute_90    ptx   1"), std::string::npos) << r.out;
  auto cpu = run_tailor({"inspect", source_path("tests/data/elf/cpu-only.so")});
  EXPECT_NE(cpu.out.find("no CUDA code"), std::string::npos) << cpu.out;
}

TEST(CmdInspect, SvgChart) {
  std::string svg = (std::filesystem::temp_directory_path() / "tailor-inspect-test.svg").string();
  auto r = run_tailor({"inspect", kMulti, "--svg", svg});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string s = test::read_file(svg);
  std::filesystem::remove(svg);
  EXPECT_TRUE(s.starts_with("<svg")) << s.substr(0, 40);
  EXPECT_NE(s.find(">sm_120<"), std::string::npos);
  EXPECT_NE(s.find(">compute_120<"), std::string::npos);
  EXPECT_NE(s.find("outside fatbins"), std::string::npos);
}

TEST(CmdInspect, BadInputExitsTwo) {
  auto missing = run_tailor({"inspect", "/nonexistent/lib.so"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "/nonexistent/lib.so: error: no such file or directory\n");
  auto text = run_tailor({"inspect", source_path("tests/data/elf/multi.so.list-elf.txt")});
  EXPECT_EQ(text.status, 2);
  EXPECT_NE(text.err.find("not an ELF file, a wheel or a directory"), std::string::npos) << text.err;
  auto target = run_tailor({"inspect", kMulti, "--target", "hopper"});
  EXPECT_EQ(target.status, 2);
  EXPECT_NE(target.err.find("--target 'hopper' is not a compute capability"), std::string::npos) << target.err;
  std::string corrupt = source_path("tests/data/elf/corrupt/entry-size-past-container.so");
  auto c = run_tailor({"inspect", corrupt});
  EXPECT_EQ(c.status, 2);
  EXPECT_EQ(c.err, corrupt +
                       ": error: corrupt fatbin: entry at offset 0x9a0 (64 header + 268435456 payload bytes) extends "
                       "268433928 bytes past its container\n");
}

// A directory with one broken library: the broken one is reported, the others
// are still inspected, and the exit status says a problem was found.
TEST(CmdInspect, ABrokenFileInADirectoryDoesNotHideTheOthers) {
  test::TempDir dir("inspect-dir");
  std::filesystem::copy_file(kMulti, dir.path() + "/good.so");
  std::string corrupt = source_path("tests/data/elf/corrupt/entry-size-past-container.so");
  std::filesystem::copy_file(corrupt, dir.path() + "/bad.so");
  auto r = run_tailor({"inspect", dir.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("good.so"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, dir.path() +
                       "/bad.so: error: corrupt fatbin: entry at offset 0x9a0 (64 header + 268435456 payload "
                       "bytes) extends 268433928 bytes past its container\n");
  auto j = nlohmann::json::parse(run_tailor({"inspect", dir.path(), "--json"}).out);
  EXPECT_EQ(j["files"].size(), 1u);
  ASSERT_EQ(j["broken"].size(), 1u);
  EXPECT_EQ(j["broken"][0]["path"], dir.path() + "/bad.so");
}

TEST(CmdInspect, AnEmptyDirectorySaysSo) {
  test::TempDir dir("inspect-empty");
  auto r = run_tailor({"inspect", dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() + ": error: the directory holds no files: nothing to inspect\n");
}

// 9.5 is a well-formed compute capability that no GPU has.
TEST(CmdInspect, ATargetNoGpuHasIsAnError) {
  auto r = run_tailor({"inspect", kMulti, "--target", "9.5"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.err.rfind("tailor: error: inspect: --target '9.5': SM 9.5 is no GPU architecture the knowledge base knows\n"
                  "hint: known: ",
                  0),
      0u)
      << r.err;
  EXPECT_NE(r.err.find("9.0"), std::string::npos) << r.err;
  EXPECT_EQ(run_tailor({"inspect", kMulti, "--target", "sm_90"}).status, 0);
}

}  // namespace
}  // namespace tailor

namespace tailor {
namespace {

// Fuzzer finding: a wheel member name that is not UTF-8 made the JSON dump throw.
TEST(CmdInspect, NonUtf8MemberNamesStillPrintJson) {
  auto r = test::run_tailor(
      {"inspect", test::source_path("tests/fuzz_corpus/binfmt/crash-wheel-member-name-not-utf8"), "--json"});
  EXPECT_TRUE(r.status == 0 || r.status == 2) << r.status;
  if (r.status == 0) {
    EXPECT_NO_THROW({ auto parsed = nlohmann::json::parse(r.out); });
  }
}

}  // namespace
}  // namespace tailor
