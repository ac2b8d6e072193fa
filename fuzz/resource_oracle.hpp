#pragma once
// Resource oracles for every fuzz target (issue 46): besides a crash, an input that makes tailor
// use memory or time out of proportion to its size is a finding. The 455-byte table that took
// 8.4 GB, the bash array read in quadratic time: crash-only oracles saw neither.
//
//   TAILOR_FUZZ_TARGET(data, size) { ... }  // in place of LLVMFuzzerTestOneInput
//
// Memory: the peak of bytes live through operator new while the input runs, above what was live
// before it, must stay within kFixedBytes + kBytesPerByte x size (checked in the corpus replay
// too: it does not depend on the machine). Time, in the libFuzzer build alone (no timing in
// ctest): within kFixedMs + kMsPerKiB per KiB of input, in CPU time of the whole process: the
// work the input causes, not the machine being busy (scripts/fuzz runs niced; on a loaded machine
// wall time charged 0-byte inputs of host, import_overrides, kb_new_package and kb_overlay 2.8 to
// 7.9 s whose work took 0.05 to 0.3 s of CPU).
#include <time.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace tailor::fuzz {

inline constexpr size_t kFixedBytes = size_t{64} << 20;  // a knowledge base, a tree's facts
inline constexpr size_t kBytesPerByte = 4096;            // parse trees, facts and values per input byte
inline constexpr double kFixedMs = 2000;                 // under ASan, a cold cache
inline constexpr double kMsPerKiB = 200;

/// CPU time of the process (every thread) in milliseconds.
inline double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// Bytes live through operator new now, and the most since reset_peak().
size_t live_bytes();
size_t peak_bytes();
void reset_peak();

class Budget {
 public:
  explicit Budget(size_t size) : size_(size), base_(live_bytes()), start_ms_(cpu_ms()) { reset_peak(); }
  ~Budget() {
    const size_t used = peak_bytes() > base_ ? peak_bytes() - base_ : 0;
    if (used > kFixedBytes + kBytesPerByte * size_) {
      std::fprintf(stderr, "resource oracle: %zu bytes of input used %zu bytes of memory\n", size_, used);
      __builtin_trap();
    }
#if defined(TAILOR_FUZZ_TIME_ORACLE)
    const double ms = cpu_ms() - start_ms_;
    if (ms > kFixedMs + kMsPerKiB * static_cast<double>(size_) / 1024) {
      std::fprintf(stderr, "resource oracle: %zu bytes of input took %.0f ms\n", size_, ms);
      __builtin_trap();
    }
#endif
  }
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;

 private:
  size_t size_, base_;
  [[maybe_unused]] double start_ms_;  // read by the time oracle alone
};

}  // namespace tailor::fuzz

#define TAILOR_FUZZ_TARGET(data, size)                                 \
  static int tailor_fuzz_one(const uint8_t* data, size_t size);        \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* in, size_t n) { \
    tailor::fuzz::Budget budget(n);                                    \
    return tailor_fuzz_one(in, n);                                     \
  }                                                                    \
  static int tailor_fuzz_one(const uint8_t* data, size_t size)
