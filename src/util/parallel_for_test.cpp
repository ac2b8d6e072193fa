#include "util/parallel_for.hpp"

#include <sched.h>

#include <thread>

#include <gtest/gtest.h>

namespace tailor {
namespace {

// A thread pinned to one core (as under `taskset -c 0`) counts one core, not the machine's.
TEST(ParallelFor, UsableCoresFollowTheAffinityMask) {
  size_t inside = 0;
  std::thread t([&] {
    cpu_set_t mine, one;
    ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
    int first = 0;
    while (!CPU_ISSET(first, &mine)) ++first;  // a cpuset need not start at core 0
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    inside = usable_cores();
  });
  t.join();
  EXPECT_EQ(inside, 1u);
  EXPECT_GE(usable_cores(), 1u);
}

TEST(ParallelFor, EveryIndexOnceOnWhicheverThread) {
  std::vector<int> hits(1000, 0);
  parallel_for_on(0, hits.size(), [&](size_t i) { hits[i]++; });
  for (int h : hits) EXPECT_EQ(h, 1);
  std::vector<int> more(777, 0);
  parallel_for(more.size(), 10, [&](size_t i) { more[i] += 2; });
  for (int h : more) EXPECT_EQ(h, 2);
}

}  // namespace
}  // namespace tailor
