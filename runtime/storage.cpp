// Storage allocation: aligned host memory for cpu/xla/xpu, the device backend's allocator otherwise.
#include "runtime/storage.hpp"

#include <cstdlib>
#include <new>

#include "runtime/backend/backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/host_block_cache.hpp"
#include "runtime/small_pool.hpp"

namespace amps::rt {
namespace {

constexpr size_t kAlignment = 64;

// Small host buffers are recycled per thread: a loop of small ops then reuses warm memory instead of
// paying aligned_alloc/free (glibc's memalign bypasses its thread cache) for every result. Buffers of
// up to kMaxCached bytes are rounded up to a power of two; each class keeps at most kPerClass.
constexpr int kMinShift = 6, kMaxShift = 16, kPerClass = 8;
constexpr size_t kMaxCached = size_t(1) << kMaxShift;

struct HostCache {  // trivially destructible, so it stays usable while statics die after the thread's end
  void* items[kMaxShift - kMinShift + 1][kPerClass];
  uint8_t count[kMaxShift - kMinShift + 1];
  bool closed;  // set once the thread's cache was drained; later frees go straight to free()
};
thread_local HostCache t_cache{};

// Frees what the calling thread cached when it ends (constructed on the first cached release).
struct HostCacheDrain {
  ~HostCacheDrain() {
    for (int c = 0; c <= kMaxShift - kMinShift; ++c)
      while (t_cache.count[c] > 0) std::free(t_cache.items[c][--t_cache.count[c]]);
    t_cache.closed = true;
  }
};
thread_local HostCacheDrain t_cache_drain;

int size_class(size_t nbytes) {
  int shift = kMinShift;
  while ((size_t(1) << shift) < nbytes) ++shift;
  return shift - kMinShift;
}

void* cached_host_alloc(size_t nbytes) {
  const int c = size_class(nbytes);
  if (t_cache.count[c] > 0) return t_cache.items[c][--t_cache.count[c]];
  void* p = std::aligned_alloc(kAlignment, size_t(1) << (c + kMinShift));
  AMPS_CHECK(p != nullptr, "out of memory: failed to allocate {} bytes on the host", nbytes);
  return p;
}

void cached_host_free(void* p, size_t nbytes) {
  const int c = size_class(nbytes);
  if (t_cache.closed || t_cache.count[c] == kPerClass) return std::free(p);
  (void)&t_cache_drain;  // odr-use: registers the drain for this thread
  t_cache.items[c][t_cache.count[c]++] = p;
}

}  // namespace

Storage::Storage(void* data, size_t nbytes, Device device, std::function<void(void*)> release)
    : data_(data), nbytes_(nbytes), device_(device), release_(std::move(release)) {}

Storage::Storage(HostCached, size_t nbytes, Device device)
    : data_(cached_host_alloc(nbytes)), nbytes_(nbytes), device_(device), host_cached_(true) {}

Storage::~Storage() {
  if (host_cached_) cached_host_free(data_, nbytes_);
  else if (release_) release_(data_);
}

// Host bytes from the current context's allocator (an embedding host's), which the storage keeps alive.
static std::shared_ptr<Storage> hosted(const std::shared_ptr<const Context::HostAllocator>& a, size_t nbytes, Device device) {
  void* p = nbytes ? a->alloc(nbytes) : nullptr;
  AMPS_CHECK(p != nullptr || nbytes == 0, "out of memory: the host allocator refused {} bytes", nbytes);
  return std::make_shared<Storage>(p, nbytes, device, [a](void* q) { if (q) a->free(q); });
}

std::shared_ptr<Storage> Storage::allocate(size_t nbytes, Device device) {
  if (device.is_host()) {
    if (const auto& a = current_context().host_allocator()) return hosted(a, nbytes, device);
    if (nbytes > 0 && nbytes <= kMaxCached)
      return std::allocate_shared<Storage>(PoolAllocator<Storage>{}, HostCached{}, nbytes, device);
    if (nbytes == 0) return std::make_shared<Storage>(nullptr, 0, device, nullptr);
    return std::make_shared<Storage>(host_block_alloc(nbytes), nbytes, device,
                                     [nbytes](void* p) { host_block_free(p, nbytes); });
  }
  check_device_available(device);
  Backend* b = backend_for(device.type);
  void* p = b->allocate(nbytes, device);
  return std::make_shared<Storage>(p, nbytes, device, [b, device](void* q) { b->deallocate(q, device); });
}

std::shared_ptr<Storage> Storage::adopt(void* data, size_t nbytes, Device device,
                                        std::function<void(void*)> release) {
  return std::make_shared<Storage>(data, nbytes, device, std::move(release));
}

}  // namespace amps::rt
