#pragma once
/// What removing code saves once compressed (a wheel, a compressed NAR or
/// image layer), estimated for `prune --dry-run`, which writes nothing and so
/// cannot deflate the result: the removed entries' own bytes, deflated. The
/// zeros prune leaves in their place deflate to almost nothing, and compaction
/// leaves nothing, so either way that is what the compressed size falls by.

#include <cstdint>

#include "binfmt/byte_slice.hpp"
#include "prune/fatbin_rewrite.hpp"

namespace tailor {

/// Pieces sampled per file, and each piece's size.
inline constexpr uint64_t kEstimateSamples = 16;
inline constexpr uint64_t kEstimateSample = 64 * 1024;

/// About how many bytes the entries \a plan removes from \a file take deflated
/// at zlib level 6 (as a wheel's members are): kEstimateSamples pieces of
/// kEstimateSample bytes, spread evenly over the removed entries, are deflated
/// each primed with the 32 KiB before it in the file (as in the file's own
/// stream), and their ratio scales the removed bytes; removed entries
/// smaller than the samples together are deflated whole. Entries that nvcc
/// compressed already deflate little, so the ratio is read, not assumed.
uint64_t deflated_removed_estimate(const ByteReader& file, const RewritePlan& plan);

}  // namespace tailor
