// The caching device allocator: size classes, per-device free lists, counters, release-and-retry on OOM.
#include "runtime/backend/cuda/allocator.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "runtime/error.hpp"

namespace amps::rt::cuda {

size_t CachingAllocator::size_class(size_t nbytes) {
  constexpr size_t kSmallStep = 512, kLargeStep = size_t(2) << 20, kSmallMax = size_t(1) << 20;
  const size_t step = nbytes <= kSmallMax ? kSmallStep : kLargeStep;
  return (nbytes + step - 1) / step * step;
}

void* CachingAllocator::allocate(size_t nbytes, int device) {
  if (nbytes == 0) return nullptr;
  const size_t cls = size_class(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  PerDevice& d = devices_.at(size_t(device));
  void* p = nullptr;
  auto it = d.free.find(cls);
  if (it != d.free.end() && !it->second.empty()) {
    p = it->second.back();
    it->second.pop_back();
  } else {
    cudaError_t e = cudaMalloc(&p, cls);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clears the sticky-free error state before retrying
      release_cached_locked(d);
      e = cudaMalloc(&p, cls);
    }
    if (e != cudaSuccess) {
      cudaGetLastError();
      AMPS_FAIL("CUDA out of memory. Tried to allocate {} bytes on cuda:{} ({} bytes allocated by amps, {} reserved): {}",
                nbytes, device, d.allocated, d.reserved, cudaGetErrorString(e));
    }
    d.reserved += int64_t(cls);
    d.peak_reserved = std::max(d.peak_reserved, d.reserved);
  }
  d.live.emplace(p, cls);
  d.allocated += int64_t(cls);
  d.peak_allocated = std::max(d.peak_allocated, d.allocated);
  return p;
}

void CachingAllocator::free(void* p, int device) {
  if (p == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  PerDevice& d = devices_.at(size_t(device));
  auto it = d.live.find(p);
  AMPS_ASSERT(it != d.live.end(), "cuda: freeing a block the allocator does not own");
  d.allocated -= int64_t(it->second);
  d.free[it->second].push_back(p);
  d.live.erase(it);
}

int64_t CachingAllocator::allocated(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_.at(size_t(device)).allocated;
}

int64_t CachingAllocator::reserved(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_.at(size_t(device)).reserved;
}

int64_t CachingAllocator::peak_allocated(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_.at(size_t(device)).peak_allocated;
}

int64_t CachingAllocator::peak_reserved(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_.at(size_t(device)).peak_reserved;
}

void CachingAllocator::reset_peaks(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  PerDevice& d = devices_.at(size_t(device));
  d.peak_allocated = d.allocated;
  d.peak_reserved = d.reserved;
}

void CachingAllocator::release_cached(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked(devices_.at(size_t(device)));
}

// cudaFree waits for the device, so no queued kernel still uses a released block.
void CachingAllocator::release_cached_locked(PerDevice& d) {
  for (auto& [cls, blocks] : d.free) {
    for (void* p : blocks) cudaFree(p);
    d.reserved -= int64_t(cls * blocks.size());
    blocks.clear();
  }
  d.free.clear();
}

}  // namespace amps::rt::cuda
