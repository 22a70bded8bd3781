// Storage: a refcounted byte buffer on one device, shared by a tensor and all its views.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "runtime/device.hpp"

namespace amps::rt {

class Storage {
 public:
  // Uninitialised [nbytes] on [device] (64-byte aligned on the host). Throws for an unavailable device.
  static std::shared_ptr<Storage> allocate(size_t nbytes, Device device);
  // Adopts memory owned elsewhere; [release] runs once when the last tensor using it dies.
  static std::shared_ptr<Storage> adopt(void* data, size_t nbytes, Device device,
                                        std::function<void(void*)> release);

  Storage(void* data, size_t nbytes, Device device, std::function<void(void*)> release);
  // Host bytes from the per-thread small-buffer cache (see storage.cpp); freed back into it.
  struct HostCached {};
  Storage(HostCached, size_t nbytes, Device device);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }

  // The version counter autograd uses to detect "modified in place": every in-place op on any view of
  // this storage bumps it. It lives here so a tensor, its views and its detach()es share one counter.
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  std::function<void(void*)> release_;
  std::atomic<uint32_t> version_{0};
  bool host_cached_ = false;
};

}  // namespace amps::rt
