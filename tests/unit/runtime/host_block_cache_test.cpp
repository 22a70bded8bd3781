// Tests for host_block_cache.hpp: large host blocks are reused, bounded, aligned, and really freed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/host_block_cache.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {
namespace {

constexpr size_t kMiB = size_t(1) << 20;

TEST(HostBlockCache, AFreedBlockServesTheNextRequestOfItsSize) {
  host_block_cache_empty();
  const auto before = host_block_cache_stats();
  void* a = host_block_alloc(3 * kMiB);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 1, 3 * kMiB);
  host_block_free(a, 3 * kMiB);
  EXPECT_EQ(host_block_cache_stats().cached_bytes, 3 * kMiB);
  void* b = host_block_alloc(3 * kMiB - 100);  // rounds to the same pages
  EXPECT_EQ(b, a);
  const auto after = host_block_cache_stats();
  EXPECT_EQ(after.hits - before.hits, 1u);
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.cached_bytes, 0u);
  host_block_free(b, 3 * kMiB - 100);
  host_block_cache_empty();
}

TEST(HostBlockCache, AMuchLargerCachedBlockIsNotHandedToASmallRequest) {
  host_block_cache_empty();
  void* big = host_block_alloc(8 * kMiB);
  host_block_free(big, 8 * kMiB);
  void* small = host_block_alloc(2 * kMiB);  // 8 MiB would waste 3/4 of the block
  EXPECT_NE(small, big);
  EXPECT_EQ(host_block_cache_stats().cached_bytes, 8 * kMiB);
  host_block_free(small, 2 * kMiB);
  // The reused block keeps its own size: freeing it after a slightly smaller request accounts 8 MiB.
  void* again = host_block_alloc(8 * kMiB - 4096 * 10);
  EXPECT_EQ(again, big);
  host_block_free(again, 8 * kMiB - 4096 * 10);
  EXPECT_EQ(host_block_cache_stats().cached_bytes, 10 * kMiB);
  host_block_cache_empty();
  EXPECT_EQ(host_block_cache_stats().cached_bytes, 0u);
}

TEST(HostBlockCache, CachedBytesStayWithinTheLimitOldestEvictedFirst) {
  host_block_cache_empty();
  const size_t limit = host_block_cache_limit();
  ASSERT_GT(limit, 16 * kMiB);
  const size_t block = limit / 4 + kMiB;  // four of these exceed the limit
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(host_block_alloc(block));
  for (void* p : blocks) host_block_free(p, block);
  const size_t kept = (block + 4095) / 4096 * 4096;
  EXPECT_EQ(host_block_cache_stats().cached_bytes, 3 * kept);  // the fourth free evicted one
  void* reused = host_block_alloc(block);
  EXPECT_EQ(reused, blocks[1]);  // blocks[0], the oldest, was the one given back
  host_block_free(reused, block);
  host_block_cache_empty();
}

TEST(HostBlockCache, LargeTensorsReuseTheirStorageAcrossIterations) {
  host_block_cache_empty();
  const auto before = host_block_cache_stats();
  for (int i = 0; i < 5; ++i) {
    Tensor t = Tensor::empty({256, 1024}, DType::float32);  // 1 MiB: above the per-thread small cache
    t.fill_(1.0);
  }
  const auto after = host_block_cache_stats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 4u);
  host_block_cache_empty();
}

}  // namespace
}  // namespace amps::rt
