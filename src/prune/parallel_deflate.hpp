#pragma once
/// Deflate on every core, pigz's way: each input is cut into blocks, each
/// block deflated on its own (primed with the 32 KiB before it, so the ratio
/// stays that of one stream) and ended with a sync flush, which leaves it
/// byte-aligned; the last block ends the stream. The concatenation is one raw
/// deflate stream that any inflater reads.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "binfmt/byte_slice.hpp"

namespace tailor {

/// The zlib level tailor deflates wheel members at: zlib's default (6), the
/// one pip's and wheel's writers use, so the pruned wheel is compressed as the
/// original was.
inline constexpr int kDeflateLevel = 6;
/// Block size: about 1000 blocks for torch's largest library, enough to keep
/// 16 cores busy, and few enough sync markers (5 bytes each) not to matter.
inline constexpr uint64_t kDeflateBlock = 1u << 20;

/// Raw deflate streams of \a inputs (one each), their blocks spread over up to
/// \a threads threads (0: every core).
std::vector<std::vector<uint8_t>> deflate_parallel(std::span<const ByteSlice> inputs, int level = kDeflateLevel,
                                                   uint64_t block = kDeflateBlock, size_t threads = 0);
/// The same for inputs read a block at a time (a temporary file): each thread
/// holds one block and its 32 KiB of dictionary, never a whole input.
std::vector<std::vector<uint8_t>> deflate_parallel(std::span<const ByteReader* const> inputs, int level = kDeflateLevel,
                                                   uint64_t block = kDeflateBlock, size_t threads = 0);

/// Receives one block's deflated bytes: of input \a input, \a last ending its stream.
using DeflatedBlock = std::function<void(size_t input, ByteSlice deflated, bool last)>;
/// The same streams, handed to \a put block by block in input and block order
/// instead of returned: \a window blocks (0: three per thread) are deflated on
/// the cores and handed over while the next window is deflated, then freed, so
/// memory holds at most two windows' output whatever the inputs' sizes (a wheel
/// writer writes each as it comes).
void deflate_streamed(std::span<const ByteReader* const> inputs, const DeflatedBlock& put, int level = kDeflateLevel,
                      uint64_t block = kDeflateBlock, size_t threads = 0, size_t window = 0);

/// One input of a group: its bytes, and the offsets (besides 0) where its block
/// grid starts again. A compacted library's tail lands lower by an amount that
/// differs per output; cut from where it lands, its blocks hold the same bytes in
/// every output and are deflated once.
struct GroupInput {
  const ByteReader* bytes = nullptr;
  std::vector<uint64_t> restarts;  ///< ascending, inside (0, size)
};

/// One block handed over: of input \a input of group \a group, \a last ending its stream.
struct HandedBlock {
  size_t group = 0, input = 0;
  ByteSlice deflated;
  bool last = false;
};
/// Receives a window of blocks, in order; their bytes live until it returns.
using GroupedWindow = std::function<void(std::span<const HandedBlock>)>;
/// deflate_streamed_groups handing its blocks over a window at a time, on a thread
/// of their own while the cores deflate the next window (so writing them costs no
/// deflate time); calls of \a put_window never overlap, and come in order.
uint64_t deflate_windows(std::span<const std::vector<GroupInput>> groups, const GroupedWindow& put_window,
                         int level = kDeflateLevel, uint64_t block = kDeflateBlock, size_t threads = 0,
                         size_t window = 0);

/// Receives one block's deflated bytes: of input \a input of group \a group.
using GroupedBlock = std::function<void(size_t group, size_t input, ByteSlice deflated, bool last)>;
/// deflate_streamed for groups of inputs that are one file changed several ways (a
/// member pruned for several outputs): the same bytes wherever the changes did not
/// reach (the code before .nv_fatbin, the tail after it, counted from its restart).
/// A group's blocks reach \a put block by block (the n-th block after each input's
/// r-th restart together), its inputs in order within each, so every input's blocks
/// still arrive in order. A block whose bytes and 32 KiB of dictionary equal those
/// of the same block of an earlier input, and that ends both streams or neither,
/// deflates to the same bytes: it is compared, not deflated again.
/// Returns the bytes of blocks handed over that way (not deflated again).
uint64_t deflate_streamed_groups(std::span<const std::vector<GroupInput>> groups, const GroupedBlock& put,
                                 int level = kDeflateLevel, uint64_t block = kDeflateBlock, size_t threads = 0,
                                 size_t window = 0);

}  // namespace tailor
