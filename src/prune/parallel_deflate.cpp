#include "prune/parallel_deflate.hpp"

#include <zlib.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include "util/diagnostic.hpp"
#include "util/parallel_for.hpp"

namespace tailor {

namespace {

constexpr uint64_t kWindow = 32768;

struct Block {
  size_t group = 0, input = 0;
  uint64_t from = 0, to = 0;
  bool last = false;
  size_t region = 0;  ///< after the input's region-th restart (0: from its start)
  uint64_t nth = 0;   ///< its place in that region
  size_t run = 0;     ///< where in the list the same block of the group's inputs starts
};

// One group's blocks: each input cut in \a block bytes from its start and again
// from each restart, the n-th blocks of the r-th regions side by side (inputs in
// order), so each input's blocks keep their order.
void add_group_blocks(std::vector<Block>& blocks, size_t g, const std::vector<GroupInput>& inputs, uint64_t block) {
  const size_t first = blocks.size();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const uint64_t size = inputs[i].bytes->size();
    std::vector<uint64_t> starts{0};
    for (uint64_t r : inputs[i].restarts)
      if (r > starts.back() && r < size) starts.push_back(r);
    if (size == 0) blocks.push_back({g, i, 0, 0, true, 0, 0, 0});
    for (size_t r = 0; r < starts.size(); ++r) {
      const uint64_t end = r + 1 < starts.size() ? starts[r + 1] : size;
      for (uint64_t at = starts[r], n = 0; at < end; at += block, ++n) {
        const uint64_t to = std::min(end, at + block);
        blocks.push_back({g, i, at, to, to == size, r, n, 0});
      }
    }
  }
  auto key = [](const Block& b) { return std::pair(b.region, b.nth); };
  std::stable_sort(blocks.begin() + static_cast<long>(first), blocks.end(),
                   [&](const Block& a, const Block& b) { return key(a) < key(b); });
  for (size_t k = first; k < blocks.size(); ++k)
    blocks[k].run = k > first && key(blocks[k]) == key(blocks[k - 1]) ? blocks[k - 1].run : k;
}

// Deflates one block, read as \a read: the 32 KiB before it that prime the
// dictionary, then its bytes; \a b.last ends the stream, else a sync flush leaves
// the output byte-aligned and open for the next block.
std::vector<uint8_t> deflate_block(ByteSlice read, const Block& b, int level) {
  const uint64_t dict = std::min(b.from, kWindow);
  const uint8_t* piece = read.data();
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw_format_error("zlib: cannot initialise deflate");
  struct End {
    z_stream* z;
    ~End() { deflateEnd(z); }
  } end{&z};
  if (dict > 0 && deflateSetDictionary(&z, piece, static_cast<uInt>(dict)) != Z_OK)
    throw_format_error("zlib: cannot set the deflate dictionary");
  const uint64_t n = b.to - b.from;
  std::vector<uint8_t> out(deflateBound(&z, static_cast<uLong>(n)) + 16);
  z.next_in = const_cast<Bytef*>(piece + dict);
  z.avail_in = static_cast<uInt>(n);
  const int flush = b.last ? Z_FINISH : Z_SYNC_FLUSH;
  for (;;) {
    z.next_out = out.data() + z.total_out;
    z.avail_out = static_cast<uInt>(out.size() - z.total_out);
    int rc = deflate(&z, flush);
    if (rc == Z_STREAM_ERROR) throw_format_error("zlib: deflate failed");
    if (b.last ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out > 0)) break;
    out.resize(out.size() * 2);
  }
  out.resize(z.total_out);
  // Kept until the blocks are joined: a thousand blocks of zeros must not each
  // hold their deflateBound's megabyte.
  out.shrink_to_fit();
  return out;
}

}  // namespace

std::vector<std::vector<uint8_t>> deflate_parallel(std::span<const ByteSlice> inputs, int level, uint64_t block,
                                                   size_t threads) {
  std::vector<SliceReader> readers;
  readers.reserve(inputs.size());
  for (const auto& in : inputs) readers.emplace_back(in);
  std::vector<const ByteReader*> ptrs;
  for (const auto& r : readers) ptrs.push_back(&r);
  return deflate_parallel(std::span<const ByteReader* const>(ptrs), level, block, threads);
}

void deflate_streamed(std::span<const ByteReader* const> inputs, const DeflatedBlock& put, int level, uint64_t block,
                      size_t threads, size_t window) {
  std::vector<std::vector<GroupInput>> groups;
  for (const ByteReader* in : inputs) groups.push_back({GroupInput{in, {}}});
  deflate_streamed_groups(
      groups, [&](size_t group, size_t, ByteSlice deflated, bool last) { put(group, deflated, last); }, level, block,
      threads, window);
}

uint64_t deflate_windows(std::span<const std::vector<GroupInput>> groups, const GroupedWindow& put_window, int level,
                         uint64_t block, size_t threads, size_t window) {
  uint64_t shared = 0;
  block = std::max<uint64_t>(block, 1);
  std::vector<Block> blocks;
  for (size_t g = 0; g < groups.size(); ++g) add_group_blocks(blocks, g, groups[g], block);
  if (threads == 0) threads = usable_cores();
  // Two windows live at once (one written while the next is deflated): three
  // blocks a thread each keeps the cores busy and memory near one prune's.
  if (window == 0) window = 3 * threads;
  std::vector<std::vector<uint8_t>> parts, handed_parts;
  std::vector<HandedBlock> handed;
  std::exception_ptr put_error;
  std::jthread writer;  // after what it reads: joined first, whatever ends the loop
  auto hand_over = [&] {
    if (writer.joinable()) writer.join();
    if (put_error) std::rethrow_exception(put_error);
  };
  std::vector<size_t> same_as;  // a block deflated as an earlier input's same block was: its place in the window
  for (size_t first = 0; first < blocks.size();) {
    // A window never splits one block's inputs: they are compared with each other.
    size_t end = std::min(blocks.size(), first + std::max<size_t>(window, 1));
    while (end < blocks.size() && blocks[end].run == blocks[end - 1].run) ++end;
    const size_t n = end - first;
    parts.assign(n, {});
    same_as.assign(n, SIZE_MAX);
    std::exception_ptr error;
    std::mutex error_lock;
    parallel_for_on(threads, n, [&](size_t k) {
      const Block& b = blocks[first + k];
      const ByteReader& in = *groups[b.group][b.input].bytes;
      try {
        // The earlier inputs' same block, first match wins: bytes and dictionary equal, and
        // both end their stream or neither.
        const uint64_t dict = std::min(b.from, kWindow);
        std::vector<uint8_t> mine, theirs;
        // Read once: compared with the earlier inputs' same block, else deflated.
        const ByteSlice x = in.read(b.from - dict, b.to - b.from + dict, "deflate block", mine);
        for (size_t j = std::max(b.run, first); j < first + k; ++j) {
          const Block& l = blocks[j];
          if (l.to - l.from != b.to - b.from || std::min(l.from, kWindow) != dict || l.last != b.last) continue;
          ByteSlice y =
              groups[l.group][l.input].bytes->read(l.from - dict, l.to - l.from + dict, "deflate block", theirs);
          if (x.size() == y.size() && std::equal(x.data(), x.data() + x.size(), y.data())) {
            same_as[k] = j - first;
            return;
          }
        }
        parts[k] = deflate_block(x, b, level);
      } catch (...) {
        std::lock_guard lock(error_lock);
        if (!error) error = std::current_exception();
      }
    });
    if (error) std::rethrow_exception(error);
    hand_over();  // the window before is written: its bytes go, this one's are handed over
    handed_parts = std::move(parts);
    handed.clear();
    for (size_t k = 0; k < n; ++k) {
      const Block& b = blocks[first + k];
      size_t from = k;
      while (same_as[from] != SIZE_MAX) from = same_as[from];  // an alias of an alias: the one deflated
      const auto& bytes = handed_parts[from];
      if (from != k) shared += b.to - b.from;
      handed.push_back({b.group, b.input, ByteSlice(bytes.data(), bytes.size()), b.last});
    }
    writer = std::jthread([&] {
      try {
        put_window(handed);
      } catch (...) {
        put_error = std::current_exception();
      }
    });
    first = end;
  }
  hand_over();
  return shared;
}

uint64_t deflate_streamed_groups(std::span<const std::vector<GroupInput>> groups, const GroupedBlock& put, int level,
                                 uint64_t block, size_t threads, size_t window) {
  return deflate_windows(
      groups,
      [&](std::span<const HandedBlock> blocks) {
        for (const HandedBlock& b : blocks) put(b.group, b.input, b.deflated, b.last);
      },
      level, block, threads, window);
}

std::vector<std::vector<uint8_t>> deflate_parallel(std::span<const ByteReader* const> inputs, int level, uint64_t block,
                                                   size_t threads) {
  std::vector<std::vector<uint8_t>> out(inputs.size());
  // Every block at once: the caller holds the whole result anyway.
  deflate_streamed(
      inputs,
      [&](size_t input, ByteSlice piece, bool) {
        out[input].insert(out[input].end(), piece.data(), piece.data() + piece.size());
      },
      level, block, threads, SIZE_MAX);
  return out;
}

}  // namespace tailor
