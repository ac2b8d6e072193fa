#pragma once
/// Putting large elements in a computed order with one move each.

#include <cstddef>
#include <utility>
#include <vector>

namespace tailor {

/// Rearranges first[0, from.size()) so that element j becomes the one that was
/// at first[from[j]] (\a from: a permutation, consumed). Each element moves once,
/// along the permutation's cycles, in place: sorting large elements directly
/// moves each log n times, and a sorted copy holds them all twice.
template <class T>
void apply_order(T* first, std::vector<size_t>& from) {
  constexpr size_t kDone = static_cast<size_t>(-1);
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == kDone) continue;
    if (from[i] == i) {
      from[i] = kDone;
      continue;
    }
    T held = std::move(first[i]);
    for (size_t j = i;;) {
      const size_t k = from[j];
      from[j] = kDone;
      if (k == i) {
        first[j] = std::move(held);
        break;
      }
      first[j] = std::move(first[k]);
      j = k;
    }
  }
}

}  // namespace tailor
