// Issue 33 §2: a zip bomb (a wheel whose library inflates a thousandfold) is
// refused by the ratio limit before anything is inflated; opened with the limit
// raised, inspect and prune read it a buffer at a time, so tailor's peak memory
// stays far below the member's size. Measured on a real tailor process.
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/child_run.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/zip_builder.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kZeros = uint64_t{256} << 20;  // what the library inflates to, beyond its ELF image
constexpr long kCeilingKib = 96 * 1024;           // tailor's peak resident memory may not pass this

struct Packed {
  std::vector<uint8_t> data;
  uint32_t crc = 0;
  uint64_t size = 0;
};

// Raw deflate of \a head followed by \a zeros zero bytes, fed a piece at a time.
Packed deflate_with_zeros(const std::vector<uint8_t>& head, uint64_t zeros) {
  Packed p;
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> zero(1 << 20, 0), out(1 << 20);
  auto feed = [&](const uint8_t* data, uint64_t n, int flush) {
    p.crc = static_cast<uint32_t>(crc32(p.crc, data, static_cast<uInt>(n)));
    p.size += n;
    z.next_in = const_cast<Bytef*>(data);
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      deflate(&z, flush);
      p.data.insert(p.data.end(), out.data(), out.data() + (out.size() - z.avail_out));
    } while (z.avail_out == 0);
  };
  feed(head.data(), head.size(), zeros == 0 ? Z_FINISH : Z_NO_FLUSH);
  for (uint64_t left = zeros; left > 0;) {
    uint64_t n = std::min<uint64_t>(left, zero.size());
    left -= n;
    feed(zero.data(), n, left == 0 ? Z_FINISH : Z_NO_FLUSH);
  }
  deflateEnd(&z);
  return p;
}

// A wheel of deflated members, as Python's zipfile writes it (Unix mode 0755).
std::vector<uint8_t> wheel(const std::vector<std::pair<std::string, Packed>>& members) {
  std::vector<test::ZipMember> packed;
  for (const auto& [name, p] : members)
    packed.push_back({name, p.data, p.crc, p.size, 8, (3 << 8) | 20, 0100755u << 16});
  return test::zip_archive(packed);
}

Packed text(const std::string& s) { return deflate_with_zeros(std::vector<uint8_t>(s.begin(), s.end()), 0); }

// The library's ELF image: a fatbin for SM 8.0 and one for 9.0.
std::vector<uint8_t> library() {
  std::vector<uint8_t> fatbin = test::fatbin_container({{.arch = 80, .payload = 4096}, {.arch = 90, .payload = 4096}});
  return test::elf_file(64, false, 62, {{".text", std::vector<uint8_t>(64, 0x90)}, {".nv_fatbin", fatbin}});
}

// bomb-0.1: the library followed by 256 MiB of zeros, which deflate to about 256 kB.
std::string write_bomb(const std::string& dir) {
  std::vector<uint8_t> elf = library();
  std::string path = dir + "/bomb-0.1-py3-none-linux_x86_64.whl";
  auto bytes = wheel({{"bomb/libbomb.so", deflate_with_zeros(elf, kZeros)},
                      {"bomb-0.1.dist-info/METADATA", text("Metadata-Version: 2.1\nName: bomb\nVersion: 0.1\n")},
                      {"bomb-0.1.dist-info/RECORD", text("bomb/libbomb.so,,\nbomb-0.1.dist-info/METADATA,,\n"
                                                         "bomb-0.1.dist-info/RECORD,,\n")}});
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(ZipBomb, RefusedByTheRatioLimitBeforeInflating) {
  test::TempDir dir("zip-bomb-limit");
  std::string bomb = write_bomb(dir.path());
  ASSERT_LT(fs::file_size(bomb), uint64_t{1} << 20);  // well under 1 MB on disk
  test::ChildRun m = test::run_tailor_child({"inspect", bomb});
  EXPECT_EQ(m.status, 2);
  EXPECT_NE(m.err.find(bomb + ": error: member 'bomb/libbomb.so' would inflate "), std::string::npos) << m.err;
  EXPECT_NE(m.err.find(" bytes to " + std::to_string(library().size() + kZeros) + " "), std::string::npos) << m.err;
  EXPECT_NE(m.err.find("(more than 100:1)"), std::string::npos) << m.err;
  EXPECT_NE(m.err.find("hint: raise the limit with --max-ratio N if the wheel is trusted"), std::string::npos) << m.err;
  m = test::run_tailor_child({"prune", bomb, "--sm", "9.0", "-o", dir.path() + "/out.whl"});
  EXPECT_EQ(m.status, 2);
  EXPECT_NE(m.err.find("would inflate"), std::string::npos) << m.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/out.whl"));
  // The total: 256 MiB and more is over a limit of 1M, whatever the ratio.
  m = test::run_tailor_child({"inspect", bomb, "--max-ratio", "2000", "--max-unpacked", "1M"});
  EXPECT_EQ(m.status, 2);
  EXPECT_NE(m.err.find("error: the wheel would unpack to "), std::string::npos) << m.err;
  EXPECT_NE(m.err.find("more than the limit of 1048576"), std::string::npos) << m.err;
}

// Under AddressSanitizer freed memory waits in a quarantine (256 MB by default)
// before it is reused: that is the sanitizer's memory, not tailor's, so the
// child measured runs without one. Other builds ignore the variable.
void without_asan_quarantine() {
  std::string opts = "quarantine_size_mb=0:thread_local_quarantine_size_kb=0";
  if (const char* old = std::getenv("ASAN_OPTIONS"); old && *old) opts = std::string(old) + ":" + opts;
  ::setenv("ASAN_OPTIONS", opts.c_str(), 1);
}

TEST(ZipBomb, InspectAndPruneStayUnderAMemoryCeilingWithTheLimitRaised) {
  test::TempDir dir("zip-bomb-rss");
  std::string bomb = write_bomb(dir.path());
  test::ChildRun m =
      test::run_tailor_child({"inspect", bomb, "--max-ratio", "2000", "--json"}, without_asan_quarantine);
  EXPECT_EQ(m.status, 0) << m.err;
  EXPECT_LT(m.max_rss_kib, kCeilingKib) << "inspect peaked at " << m.max_rss_kib << " KiB";

  std::string out = dir.path() + "/pruned-0.1-py3-none-linux_x86_64.whl";
  m = test::run_tailor_child({"prune", bomb, "--sm", "9.0", "--max-ratio", "2000", "-o", out}, without_asan_quarantine);
  EXPECT_EQ(m.status, 0) << m.err;
  EXPECT_LT(m.max_rss_kib, kCeilingKib) << "prune peaked at " << m.max_rss_kib << " KiB";
  // The pruned library keeps SM 9.0's entry only, and is still the whole member.
  auto r = test::run_command(test::tailor_binary() + " inspect --json --max-ratio 2000 " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"sm_90\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sm_80\""), std::string::npos) << r.out;
}

// Issue 46 #14: a member of 4 GiB or more needs zip64, which the pruned wheel's
// writer does not write; it was refused only when the writer reached it, after
// every library was pruned (31 s on a real wheel). The zip directory says it at
// once: the refusal comes before any work, so a library whose work would fail
// (a wrong CRC-32) is never read. No 4 GiB file: the directory claims the size.
TEST(ZipBomb, AMemberOfFourGiBIsRefusedBeforeAnyWork) {
  test::TempDir dir("zip64-member");
  Packed lib = deflate_with_zeros(library(), 0);
  lib.crc ^= 1;
  // 75 stored deflate blocks of 65,535 zeros: enough bytes that 5 GiB is under the ratio check of inflation.
  test::ZipMember big{"x/big.dat", {}, 0, 0, 8, (3 << 8) | 20, 0100644u << 16, uint64_t{5} << 30};
  for (int b = 0; b < 75; ++b) {
    big.data.insert(big.data.end(), {static_cast<uint8_t>(b == 74), 0xff, 0xff, 0x00, 0x00});
    big.data.resize(big.data.size() + 65535, 0);
  }
  Packed record = text("x/lib/libx.so,,\nx/big.dat,,\nx-0.1.dist-info/RECORD,,\n");
  auto bytes = test::zip_archive(
      {{"x/lib/libx.so", lib.data, lib.crc, lib.size, 8, (3 << 8) | 20, 0100755u << 16},
       big,
       {"x-0.1.dist-info/RECORD", record.data, record.crc, record.size, 8, (3 << 8) | 20, 0100644u << 16}});
  const std::string path = dir.path() + "/x-0.1-py3-none-linux_x86_64.whl", out = dir.path() + "/out.whl";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto r = test::run_tailor({"prune", path, "--sm", "9.0", "-o", out, "--max-ratio", "2000", "--max-unpacked", "64G"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, path +
                       ": error: member 'x/big.dat' is 5368709120 bytes unpacked, 4915500 stored: the pruned wheel "
                       "would need zip64, which tailor does not write\n")
      << "refused after the work: the library's CRC-32 error, or the writer's own message";
  EXPECT_FALSE(fs::exists(out));
  size_t left = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) left += e.path() != path;
  EXPECT_EQ(left, 0u) << "nothing staged or scratched beside the output";
}

}  // namespace
}  // namespace tailor

namespace tailor {
namespace {

TEST(ZipBomb, LimitOptionsTakeOnlyPositiveValues) {
  auto r = test::run_tailor({"inspect", "x.whl", "--max-ratio", "0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: inspect: --max-ratio: '0' must be a whole number from 1 to 1000000\n"
            "hint: run 'tailor inspect --help' for its options\n");
  r = test::run_tailor({"prune", "x.whl", "--sm", "9.0", "-o", "y.whl", "--max-unpacked", "12Q"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: prune: --max-unpacked: '12Q' is not a byte count (64G)\n"
            "hint: run 'tailor prune --help' for its options\n");
}

}  // namespace
}  // namespace tailor
