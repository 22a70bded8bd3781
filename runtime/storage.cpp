// Storage allocation: aligned host memory for cpu/xla/xpu, the device backend's allocator otherwise.
#include "runtime/storage.hpp"

#include <cstdlib>
#include <new>

#include "runtime/backend/backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt {
namespace {

constexpr size_t kAlignment = 64;

void* host_alloc(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  AMPS_CHECK(p != nullptr, "out of memory: failed to allocate {} bytes on the host", nbytes);
  return p;
}

}  // namespace

Storage::Storage(void* data, size_t nbytes, Device device, std::function<void(void*)> release)
    : data_(data), nbytes_(nbytes), device_(device), release_(std::move(release)) {}

Storage::~Storage() {
  if (release_) release_(data_);
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
    return std::make_shared<Storage>(host_alloc(nbytes), nbytes, device, &std::free);
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
