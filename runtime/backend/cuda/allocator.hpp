// CachingAllocator: device memory in size classes, freed blocks kept per device for reuse (like PyTorch's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace amps::rt::cuda {

// Blocks are rounded up to a size class (512 B steps up to 1 MiB, 2 MiB steps above) and go back to their
// class's free list when a tensor dies. All work on a device runs on one stream, so a freed block can be
// handed out again at once: later kernels are queued behind the ones still reading it. cudaMalloc failing
// releases the cached blocks and retries once before raising "CUDA out of memory".
class CachingAllocator {
 public:
  explicit CachingAllocator(int devices) : devices_(size_t(devices)) {}
  // [nbytes] on [device] (the caller made it current); nullptr for 0 bytes.
  void* allocate(size_t nbytes, int device);
  void free(void* p, int device);
  // Bytes in blocks held by live tensors / held from the driver (live + cached).
  int64_t allocated(int device) const;
  int64_t reserved(int device) const;
  // The highest allocated / reserved since the start or the last reset_peaks (which sets them to the current).
  int64_t peak_allocated(int device) const;
  int64_t peak_reserved(int device) const;
  void reset_peaks(int device);
  // Returns every cached block of [device] to the driver.
  void release_cached(int device);

  static size_t size_class(size_t nbytes);

 private:
  struct PerDevice {
    std::unordered_map<void*, size_t> live;     // block -> its size class
    std::map<size_t, std::vector<void*>> free;  // size class -> cached blocks
    int64_t allocated = 0, reserved = 0, peak_allocated = 0, peak_reserved = 0;
  };
  void release_cached_locked(PerDevice& d);
  mutable std::mutex mutex_;
  std::vector<PerDevice> devices_;
};

}  // namespace amps::rt::cuda
