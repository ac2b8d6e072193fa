// Block-parallel deflate: whatever the block size and input, zlib inflates
// the result back to the input, and priming each block with the window before
// it keeps the size close to one single-threaded stream.
#include "prune/parallel_deflate.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

namespace tailor {
namespace {

std::vector<uint8_t> inflate_raw(const std::vector<uint8_t>& in, size_t size) {
  std::vector<uint8_t> out(size + 1);
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, -MAX_WBITS), Z_OK);
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);  // the stream ends: the last block closed it
  EXPECT_EQ(z.avail_in, 0u);                       // and nothing follows
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

// Text that repeats at distances up to a few KiB (like code), with random bytes between.
std::vector<uint8_t> sample(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v;
  const std::string words[] = {"cudaLaunchKernel", "sm_90", "__nv_fatbin", ".text", "\x48\x89\xe5\x41\x57"};
  while (v.size() < n) {
    if (rng() % 4 == 0)
      v.push_back(static_cast<uint8_t>(rng()));
    else
      for (char c : words[rng() % 5]) v.push_back(static_cast<uint8_t>(c));
  }
  v.resize(n);
  return v;
}

TEST(ParallelDeflate, RoundTripsAtEveryBlockBoundary) {
  // Empty, one byte, below one block, exactly two blocks, two blocks and one byte.
  const uint64_t block = 4096;
  std::vector<std::vector<uint8_t>> data = {
      {}, {42}, sample(1000, 1), sample(2 * block, 2), sample(2 * block + 1, 3), sample(300000, 4)};
  std::vector<ByteSlice> in;
  for (const auto& d : data) in.emplace_back(d.data(), d.size());
  auto out = deflate_parallel(in, kDeflateLevel, block, 3);
  ASSERT_EQ(out.size(), data.size());
  for (size_t i = 0; i < data.size(); ++i) EXPECT_EQ(inflate_raw(out[i], data[i].size()), data[i]) << i;
}

// Issue 59: one member pruned for several outputs shares its unchanged blocks. Grouped,
// each input's stream is byte for byte the one it gets deflated alone, and arrives in
// order: with changes at the front (ELF headers), in the middle (a fatbin), a tail
// moved or cut short, another length, and inputs the same as an earlier one.
TEST(ParallelDeflate, GroupsGiveEachInputTheStreamItGetsAlone) {
  const uint64_t block = 4096;
  const std::vector<uint8_t> base = sample(20 * block + 123, 6);
  std::vector<std::vector<uint8_t>> inputs(6, base);
  inputs[1][10] ^= 1;                                  // the first block differs
  inputs[1][9 * block + 5] ^= 1;                       // and one in the middle
  inputs[2].erase(inputs[2].begin() + 12 * block + 7,  // the tail moves down
                  inputs[2].begin() + 15 * block);
  inputs[3].resize(6 * block);  // ends on a block boundary, where the first goes on
  // inputs[4]: the same as the first; inputs[5]: the same as the third (12.0 and 12.1 both keep sm_120)
  inputs[5] = inputs[2];
  std::vector<GroupInput> group;
  std::vector<SliceReader> readers;
  readers.reserve(inputs.size());
  for (const auto& d : inputs) readers.emplace_back(ByteSlice(d.data(), d.size()));
  for (const auto& r : readers) group.push_back({&r, {}});
  std::vector<std::vector<GroupInput>> groups = {{group[0]}, group};
  std::vector<std::vector<uint8_t>> got(inputs.size());
  std::vector<size_t> blocks_of(inputs.size(), 0);
  bool ended_first = false;
  const uint64_t shared = deflate_streamed_groups(
      groups,
      [&](size_t g, size_t i, ByteSlice piece, bool last) {
        if (g == 0) {
          EXPECT_FALSE(ended_first);
          ended_first = last;
          return;
        }
        got[i].insert(got[i].end(), piece.data(), piece.data() + piece.size());
        ++blocks_of[i];
        if (last) {
          EXPECT_EQ(inflate_raw(got[i], inputs[i].size()), inputs[i]) << i;
        }
      },
      kDeflateLevel, block, 3, 5);
  EXPECT_TRUE(ended_first);
  // Blocks handed over without deflating, counted by hand (a change reaches its own block
  // and, through the 32 KiB dictionary, the 8 blocks of 4 KiB after it): input 1 blocks
  // 18..20 (the last one ends both streams alike), input 2 blocks 0..11, input 3 blocks
  // 0..4 (its block 5 ends its stream, not the first's), input 4 all 21, input 5 all 18
  // (its moved tail the same as input 2's alone).
  EXPECT_EQ(shared, 2 * block + 123 + 12 * block + 5 * block + 20 * block + 123 + 17 * block + 130);
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<ByteSlice> one{ByteSlice(inputs[i].data(), inputs[i].size())};
    EXPECT_EQ(got[i], deflate_parallel(one, kDeflateLevel, block, 2)[0]) << i;
    EXPECT_EQ(blocks_of[i], (inputs[i].size() + block - 1) / block) << i;
  }
}

// A compacted library's tail lands lower by an amount that differs per output.
// Cut from where it lands (a restart), its blocks are the same in every output
// and deflated once, as the head's are; cut from the start, they are not. Each
// input's stream is still the one it gets alone with the same restart.
TEST(ParallelDeflate, ATailCutFromWhereItLandsIsDeflatedOnce) {
  const uint64_t block = 4096;
  const std::vector<uint8_t> head = sample(10 * block + 100, 10), tail = sample(12 * block + 77, 11);
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<uint64_t> lands;
  unsigned seed = 12;
  for (size_t kept : {3000, 5000, 1000}) {  // each output keeps other fatbin entries
    std::vector<uint8_t> in = head, kept_bytes = sample(kept, seed++);
    in.insert(in.end(), kept_bytes.begin(), kept_bytes.end());
    lands.push_back(in.size());
    in.insert(in.end(), tail.begin(), tail.end());
    inputs.push_back(std::move(in));
  }
  std::vector<SliceReader> readers;
  readers.reserve(inputs.size());
  for (const auto& d : inputs) readers.emplace_back(ByteSlice(d.data(), d.size()));
  auto run = [&](bool restart, std::vector<std::vector<uint8_t>>& got) {
    std::vector<std::vector<GroupInput>> groups(1);
    for (size_t i = 0; i < readers.size(); ++i)
      groups[0].push_back({&readers[i], restart ? std::vector<uint64_t>{lands[i]} : std::vector<uint64_t>{}});
    got.assign(inputs.size(), {});
    return deflate_streamed_groups(
        groups,
        [&](size_t, size_t i, ByteSlice piece, bool) {
          got[i].insert(got[i].end(), piece.data(), piece.data() + piece.size());
        },
        kDeflateLevel, block, 2, 7);
  };
  std::vector<std::vector<uint8_t>> got;
  // Without the restart: the head's 10 whole blocks, in the second and third input.
  EXPECT_EQ(run(false, got), 2 * 10 * block);
  // With it: those, and the tail's blocks whose 32 KiB of dictionary lies in the tail
  // (its 9th block on: 4 whole blocks and the last 77 bytes), in the second and third.
  EXPECT_EQ(run(true, got), 2 * 10 * block + 2 * (4 * block + 77));
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(inflate_raw(got[i], inputs[i].size()), inputs[i]) << i;
    std::vector<std::vector<uint8_t>> alone(1);
    std::vector<std::vector<GroupInput>> one = {{{&readers[i], {lands[i]}}}};
    deflate_streamed_groups(
        one,
        [&](size_t, size_t, ByteSlice piece, bool) {
          alone[0].insert(alone[0].end(), piece.data(), piece.data() + piece.size());
        },
        kDeflateLevel, block, 2, 3);
    EXPECT_EQ(got[i], alone[0]) << i;
  }
}

TEST(ParallelDeflate, DictionaryKeepsTheRatioOfOneStream) {
  auto d = sample(1 << 20, 5);
  ByteSlice in(d.data(), d.size());
  // One block: a single zlib stream at the same level.
  uint64_t single = deflate_parallel(std::span(&in, 1), kDeflateLevel, d.size(), 1)[0].size();
  uint64_t blocks = deflate_parallel(std::span(&in, 1), kDeflateLevel, 65536, 4)[0].size();
  // 16 blocks, each primed with the 32 KiB before it: at most 1% larger.
  EXPECT_LE(blocks, single + single / 100);
  EXPECT_GT(blocks, single);  // the sync markers cost something: these are two different encodings
}

// Streamed, the blocks come in input and block order, each input's last block
// flagged once, whatever the window: joined they are the same streams.
TEST(ParallelDeflate, StreamedBlocksComeInOrderAndJoinToTheSameStreams) {
  std::vector<std::vector<uint8_t>> data = {sample(50000, 7), {}, sample(8192, 8), sample(30001, 9)};
  std::vector<SliceReader> readers;
  for (const auto& d : data) readers.emplace_back(ByteSlice(d.data(), d.size()));
  std::vector<const ByteReader*> in;
  for (const auto& r : readers) in.push_back(&r);
  auto whole = deflate_parallel(std::span<const ByteReader* const>(in), kDeflateLevel, 4096, 3);
  for (size_t window : {1, 2, 5, 64}) {
    std::vector<std::vector<uint8_t>> joined(data.size());
    std::vector<int> lasts(data.size(), 0);
    size_t previous = 0;
    deflate_streamed(
        std::span<const ByteReader* const>(in),
        [&](size_t input, ByteSlice piece, bool last) {
          EXPECT_GE(input, previous);  // never back to an earlier input
          EXPECT_EQ(lasts[input], 0) << "a block after input " << input << "'s last";
          previous = input;
          joined[input].insert(joined[input].end(), piece.data(), piece.data() + piece.size());
          lasts[input] += last;
        },
        kDeflateLevel, 4096, 3, window);
    for (size_t i = 0; i < data.size(); ++i) {
      EXPECT_EQ(lasts[i], 1) << "window " << window << ", input " << i;
      EXPECT_EQ(joined[i], whole[i]) << "window " << window << ", input " << i;
      EXPECT_EQ(inflate_raw(joined[i], data[i].size()), data[i]) << "window " << window << ", input " << i;
    }
  }
}

TEST(ParallelDeflate, LevelZeroStores) {
  auto d = sample(100000, 6);
  ByteSlice in(d.data(), d.size());
  auto out = deflate_parallel(std::span(&in, 1), 0, 8192, 2)[0];
  EXPECT_GT(out.size(), d.size());  // stored blocks: the input plus their headers
  EXPECT_EQ(inflate_raw(out, d.size()), d);
}

}  // namespace
}  // namespace tailor
