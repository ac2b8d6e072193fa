// The memory half of the resource oracles: operator new and delete count the bytes live
// (malloc_usable_size: what the allocator gave), and the peak since the last reset.
#include "resource_oracle.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace tailor::fuzz {

namespace {
std::atomic<size_t> g_live{0}, g_peak{0};

void* counted(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  size_t now = g_live.fetch_add(malloc_usable_size(p)) + malloc_usable_size(p);
  for (size_t peak = g_peak.load(); now > peak && !g_peak.compare_exchange_weak(peak, now);) {}
  return p;
}

void uncounted(void* p) {
  if (!p) return;
  g_live.fetch_sub(malloc_usable_size(p));
  std::free(p);
}
}  // namespace

size_t live_bytes() { return g_live.load(); }
size_t peak_bytes() { return g_peak.load(); }
void reset_peak() { g_peak.store(g_live.load()); }

}  // namespace tailor::fuzz

void* operator new(size_t n) { return tailor::fuzz::counted(n); }
void* operator new[](size_t n) { return tailor::fuzz::counted(n); }
// The nothrow forms too (std::get_temporary_buffer uses them): every unaligned new that the
// delete below frees must come from the same malloc, or ASan reports a new/free mismatch.
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  try {
    return tailor::fuzz::counted(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { tailor::fuzz::uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { tailor::fuzz::uncounted(p); }
void operator delete(void* p) noexcept { tailor::fuzz::uncounted(p); }
void operator delete[](void* p) noexcept { tailor::fuzz::uncounted(p); }
void operator delete(void* p, size_t) noexcept { tailor::fuzz::uncounted(p); }
void operator delete[](void* p, size_t) noexcept { tailor::fuzz::uncounted(p); }
