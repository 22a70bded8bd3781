// torch.cuda's memory statistics (memory_stats, reset_peak_memory_stats, empty_cache) of the CUDA backend's
// caching allocator; skipped without a GPU.
#include "cuda_test_util.hpp"

namespace amps::rt {
namespace {

TEST_F(Cuda, PeakAllocatedRemembersTheHighestLiveBytesUntilReset) {
  Backend* b = backend_for(DeviceType::cuda);
  b->reset_peak_memory_stats(kCuda);
  const Backend::MemoryStats start = b->memory_stats(kCuda);
  EXPECT_EQ(start.peak_allocated, start.allocated);
  {
    Tensor t = Tensor::empty({1 << 20}, DType::float32, kCuda);
    EXPECT_GE(b->memory_stats(kCuda).peak_allocated - start.allocated, int64_t(4) << 20);
  }
  const Backend::MemoryStats after = b->memory_stats(kCuda);
  EXPECT_EQ(after.allocated, start.allocated);
  EXPECT_GE(after.peak_allocated - start.allocated, int64_t(4) << 20);
  EXPECT_GE(after.reserved, after.allocated);
  EXPECT_GE(after.peak_reserved, after.reserved);
  b->reset_peak_memory_stats(kCuda);
  EXPECT_EQ(b->memory_stats(kCuda).peak_allocated, after.allocated);
}

TEST_F(Cuda, EmptyCacheReturnsCachedBlocksToTheDriver) {
  Backend* b = backend_for(DeviceType::cuda);
  { Tensor t = Tensor::empty({3 << 20}, DType::float32, kCuda); }  // freed into the cache
  EXPECT_GT(b->memory_stats(kCuda).reserved, b->memory_stats(kCuda).allocated);
  b->empty_cache(kCuda);
  const Backend::MemoryStats s = b->memory_stats(kCuda);
  EXPECT_EQ(s.reserved, s.allocated);
  Tensor again = full({4}, 1.5, DType::float32, kCuda);  // the allocator still serves after emptying
  EXPECT_EQ(again.to(Device::cpu()).to_doubles(), std::vector<double>(4, 1.5));
}

}  // namespace
}  // namespace amps::rt
