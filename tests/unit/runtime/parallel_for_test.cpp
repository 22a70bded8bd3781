// parallel_for (runtime/backend/cpu/loops.hpp): one range runs on the calling thread outside any OpenMP region, so
// a region opened inside it is not nested (libgomp would start new threads for a nested team on every call).
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>

#include "runtime/backend/cpu/loops.hpp"

namespace amps::rt::cpu {
namespace {

TEST(ParallelFor, OneRangeRunsOnTheCallerWithoutARegion) {
  for (auto [n, grain] : {std::pair<int64_t, int64_t>{1, 1}, {7, 7}, {5, 100}}) {
    int calls = 0;
    parallel_for(n, grain, [&](int64_t b, int64_t e) {
      ++calls;
      EXPECT_EQ(b, 0);
      EXPECT_EQ(e, n);
      EXPECT_EQ(omp_get_level(), 0) << "n " << n << " grain " << grain;
    });
    EXPECT_EQ(calls, 1);
  }
}

TEST(ParallelFor, SeveralRangesCoverTheRangeOnce) {
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one OpenMP thread";
  std::atomic<int64_t> covered = 0;
  std::atomic<int> ranges = 0, in_region = 0;
  parallel_for(4 * kParallelGrain, kParallelGrain, [&](int64_t b, int64_t e) {
    covered += e - b;
    ++ranges;
    if (omp_get_level() == 1) ++in_region;
  });
  EXPECT_EQ(covered.load(), 4 * kParallelGrain);
  EXPECT_GE(ranges.load(), 2);
  EXPECT_EQ(in_region.load(), ranges.load());
}

}  // namespace
}  // namespace amps::rt::cpu
