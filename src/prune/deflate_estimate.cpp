#include "prune/deflate_estimate.hpp"

#include <zlib.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "prune/parallel_deflate.hpp"

namespace tailor {

namespace {

constexpr uint64_t kWindow = 32768;

// Bytes the last \a n of \a piece take deflated (one raw stream, zlib level 6),
// primed with the bytes before them, as they would be in the file's own stream.
uint64_t deflated_size(ByteSlice piece, uint64_t n) {
  const uint64_t dict = piece.size() - n;
  z_stream z{};
  if (deflateInit2(&z, kDeflateLevel, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return n;
  if (dict > 0) deflateSetDictionary(&z, piece.data(), static_cast<uInt>(dict));
  std::vector<uint8_t> out(deflateBound(&z, static_cast<uLong>(n)) + 16);
  z.next_in = const_cast<Bytef*>(piece.data() + dict);
  z.avail_in = static_cast<uInt>(n);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  uint64_t packed = rc == Z_STREAM_END ? z.total_out : n;
  deflateEnd(&z);
  return packed;
}

}  // namespace

uint64_t deflated_removed_estimate(const ByteReader& file, const RewritePlan& plan) {
  std::vector<std::pair<uint64_t, uint64_t>> removed;  // [offset, length) in the file
  uint64_t total = 0;
  for (const auto& c : plan.containers) {
    if (!c.changes()) continue;
    for (size_t i = 0; i < c.entries.size(); ++i)
      if (!c.choice.keep[i] && c.entries[i].stored_bytes() > 0) {
        removed.emplace_back(c.entries[i].offset, c.entries[i].stored_bytes());
        total += c.entries[i].stored_bytes();
      }
  }
  if (total == 0) return 0;
  // Piece k starts at the k-th of kEstimateSamples even steps through the removed
  // bytes laid end to end, and stops at its entry's end; few bytes: every one.
  const bool whole = total <= kEstimateSamples * kEstimateSample;
  const uint64_t step = whole ? kEstimateSample : total / kEstimateSamples;
  uint64_t raw = 0, packed = 0, passed = 0, next = 0;
  std::vector<uint8_t> buf;
  for (const auto& [offset, length] : removed) {
    if (whole) next = passed;  // every piece of every entry
    for (; next < passed + length; next += step) {
      uint64_t at = next - passed, n = std::min(kEstimateSample, length - at);
      uint64_t dict = std::min(offset + at, kWindow);
      ByteSlice piece = file.read(offset + at - dict, dict + n, "fatbin entry", buf);
      raw += n;
      packed += deflated_size(piece, n);
    }
    passed += length;
  }
  if (raw == 0) return total;
  return whole ? packed : static_cast<uint64_t>(static_cast<double>(total) * static_cast<double>(packed) / raw);
}

}  // namespace tailor
