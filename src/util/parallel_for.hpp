#pragma once
/// Runs independent pieces of work on the machine's cores (ninja's habit:
/// whoever is free takes the next piece). Used where each piece writes only
/// its own slot, so the result does not depend on the order they finish in.

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace tailor {

/// The cores this process may run on (as nproc counts them): a taskset or a
/// container's cpuset gives fewer than the machine has, and more threads
/// than that only take turns.
inline size_t usable_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<size_t>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Calls \a fn(state, i) for every i in [0, n) on up to 8 threads, each with its
/// own state from \a make_state(); returns when all are done. Below \a
/// min_per_thread pieces per thread, starting a thread costs more than it saves.
template <typename MakeState, typename Fn>
void parallel_for(size_t n, size_t min_per_thread, MakeState&& make_state, Fn&& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    auto state = make_state();
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(state, i);
  };
  size_t threads = std::min<size_t>({usable_cores(), 8, n / std::max<size_t>(1, min_per_thread)});
  std::vector<std::jthread> pool;
  for (size_t k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
}

/// Calls \a fn(i) for every i in [0, n) on up to \a max_threads threads (0: one
/// per core), whoever is free taking the next i: for few, large pieces (a
/// wheel's libraries, deflate blocks) where every core pays off.
template <typename Fn>
void parallel_for_on(size_t max_threads, size_t n, Fn&& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  size_t threads = std::min(max_threads ? max_threads : usable_cores(), n);
  std::vector<std::jthread> pool;
  for (size_t k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
}

/// The same without per-thread state: \a fn(i).
template <typename Fn>
void parallel_for(size_t n, size_t min_per_thread, Fn&& fn) {
  parallel_for(
      n, min_per_thread, [] { return 0; }, [&](int, size_t i) { fn(i); });
}

}  // namespace tailor
