// Issue 45 §3: a wheel prune holds a bounded part of the wheel in memory,
// whatever its size. The wheel here is mostly incompressible: a library whose
// SM 8.0 and SM 9.0 entries are random bytes, and a random data file beside
// it. Before the writer streamed, a prune held every page of the wheel it had
// read (a mapping's pages count as resident) and the whole deflated library
// until the archive was written: about the wheel's size and the library's
// deflated size on top of it. Measured on a real tailor process.
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/child_run.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/zip_builder.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kEntry = 24u << 20;          // each fatbin entry's payload, random
constexpr uint64_t kData = uint64_t{24} << 20;  // the random file beside the library
// What the prune may hold above a tailor run that reads nothing (a child's peak
// starts at its parent's resident size at fork, which this subtracts): well under
// the ~72 MiB wheel it reads and the 24 MiB of deflated library it writes.
constexpr long kAboveBaselineKib = 40 * 1024;

// Random bytes (xorshift64): deflate cannot shrink them, so whatever a writer
// holds of them it holds at full size.
void randomize(uint8_t* p, uint64_t n, uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    p[i] = static_cast<uint8_t>(x >> 24);
  }
}

test::ZipMember stored(const std::string& name, std::vector<uint8_t> data) {
  uint32_t crc = static_cast<uint32_t>(crc32(0, data.data(), static_cast<uInt>(data.size())));
  uint64_t size = data.size();
  return {name, std::move(data), crc, size, 0, (3 << 8) | 20, 0100755u << 16};
}

std::string write_wheel(const std::string& dir) {
  std::vector<uint8_t> fatbin =
      test::fatbin_container({{.arch = 80, .payload = kEntry}, {.arch = 90, .payload = kEntry}});
  // The payloads follow their 64-byte entry headers, after the 16-byte container header.
  randomize(fatbin.data() + 16 + 64, kEntry, 1);
  randomize(fatbin.data() + 16 + 64 + kEntry + 64, kEntry, 2);
  std::vector<uint8_t> elf =
      test::elf_file(64, false, 62, {{".text", std::vector<uint8_t>(64, 0x90)}, {".nv_fatbin", fatbin}});
  std::vector<uint8_t> data(kData);
  randomize(data.data(), data.size(), 3);
  std::string meta = "Metadata-Version: 2.1\nName: big\nVersion: 0.1\n";
  std::string record = "big/libbig.so,,\nbig/data.bin,,\nbig-0.1.dist-info/METADATA,,\nbig-0.1.dist-info/RECORD,,\n";
  auto bytes = test::zip_archive({stored("big/libbig.so", std::move(elf)), stored("big/data.bin", std::move(data)),
                                  stored("big-0.1.dist-info/METADATA", {meta.begin(), meta.end()}),
                                  stored("big-0.1.dist-info/RECORD", {record.begin(), record.end()})});
  std::string path = dir + "/big-0.1-py3-none-linux_x86_64.whl";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// AddressSanitizer's quarantine holds freed memory (see zip_bomb_test.cpp).
void without_asan_quarantine() {
  std::string opts = "quarantine_size_mb=0:thread_local_quarantine_size_kb=0";
  if (const char* old = std::getenv("ASAN_OPTIONS"); old && *old) opts = std::string(old) + ":" + opts;
  ::setenv("ASAN_OPTIONS", opts.c_str(), 1);
}

TEST(PruneWheelMemory, PeakStaysFarBelowTheWheelItRewrites) {
  test::TempDir dir("prune-wheel-rss");
  std::string in = write_wheel(dir.path());
  ASSERT_GT(fs::file_size(in), uint64_t{72} << 20);
  std::string out = dir.path() + "/out/big-0.1-py3-none-linux_x86_64.whl";
  fs::create_directories(dir.path() + "/out");
  test::ChildRun base = test::run_tailor_child(
      {"prune", test::source_path("tests/data/elf/sm90.so"), "--sm", "9.0", "--dry-run"}, without_asan_quarantine);
  ASSERT_EQ(base.status, 0) << base.err;
  test::ChildRun m = test::run_tailor_child({"prune", in, "--sm", "9.0", "-o", out}, without_asan_quarantine);
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_LT(m.max_rss_kib - base.max_rss_kib, kAboveBaselineKib)
      << "prune peaked at " << m.max_rss_kib << " KiB, a dry run of a small file at " << base.max_rss_kib << " KiB";
  // It did the work: the SM 8.0 entry left, the random SM 9.0 entry and the data file stayed.
  EXPECT_LT(fs::file_size(out), fs::file_size(in) - kEntry + (uint64_t{1} << 20));
  EXPECT_GT(fs::file_size(out), kData + kEntry);
  auto r = test::run_command(test::tailor_binary() + " inspect --json " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"sm_90\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sm_80\""), std::string::npos) << r.out;
}

// Issue 59: a fan-out holds no more than one prune does: each member is inflated
// once into a temporary file, each output's copy pruned on disk, and the changed
// members of every output deflated through the same window of blocks.
TEST(PruneWheelMemory, FanOutPeakStaysThatOfOnePrune) {
  test::TempDir dir("prune-fan-out-rss");
  std::string in = write_wheel(dir.path());
  test::ChildRun base = test::run_tailor_child(
      {"prune", test::source_path("tests/data/elf/sm90.so"), "--sm", "9.0", "--dry-run"}, without_asan_quarantine);
  ASSERT_EQ(base.status, 0) << base.err;
  test::ChildRun m = test::run_tailor_child({"prune", in, "--each", "8.0,8.6,9.0,10.0", "-o", dir.path() + "/out"},
                                            without_asan_quarantine);
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_LT(m.max_rss_kib - base.max_rss_kib, kAboveBaselineKib)
      << "the fan-out peaked at " << m.max_rss_kib << " KiB, a dry run of a small file at " << base.max_rss_kib
      << " KiB";
  // 8.0 and 8.6 keep the random SM 8.0 entry, 9.0 the SM 9.0 one; 10.0 finds nothing it runs and keeps both.
  for (const char* label : {"sm80", "sm86", "sm90"}) {
    std::string out = dir.path() + "/out/big-0.1-py3-none-linux_x86_64-" + label + ".whl";
    EXPECT_LT(fs::file_size(out), fs::file_size(in) - kEntry + (uint64_t{1} << 20)) << label;
    EXPECT_GT(fs::file_size(out), kData + kEntry) << label;
  }
}

}  // namespace
}  // namespace tailor
