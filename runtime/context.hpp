// Context: one interpreter's runtime state (dispatch layers, grad mode, RNG, host-sync counter) and the
// thread-local "current context" that dispatch() uses. No process-wide mutable state lives in the runtime.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/device.hpp"
#include "runtime/dtype.hpp"
#include "runtime/random.hpp"

namespace amps::rt {

class DispatchLayer;

class Context {
 public:
  struct LayerEntry {
    std::shared_ptr<DispatchLayer> layer;
    int order;            // smaller runs first (outermost); see layer_order
    bool enabled = true;  // false while an ExcludeLayerGuard is active
  };

  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Installs [layer] at position [order] (stable among equal orders). The context shares ownership.
  void add_layer(std::shared_ptr<DispatchLayer> layer, int order);
  // Removes a layer installed with add_layer; no-op when absent. The context keeps removed layers
  // alive until it ends, so a dispatch running through one (which holds it by raw pointer: a
  // shared_ptr copy per layer per op would cost two locked instructions) may remove it. Removal is
  // rare (REPL tracing toggles), so the kept layers stay few.
  void remove_layer(const DispatchLayer* layer);
  const std::vector<LayerEntry>& layers() const { return layers_; }
  std::vector<LayerEntry>& layers() { return layers_; }
  // The layer of dynamic type L, or null (lets amp/ and autograd find their own state).
  template <typename L> L* find_layer() const {
    for (const LayerEntry& e : layers_)
      if (auto* p = dynamic_cast<L*>(e.layer.get())) return p;
    return nullptr;
  }

  // Autograd records graphs only while grad mode is on (no_grad turns it off).
  bool grad_enabled() const { return grad_enabled_; }
  void set_grad_enabled(bool on) { grad_enabled_ = on; }

  // Where ops with no tensor arguments and no device= argument (factories) put their result.
  Device default_device() const { return default_device_; }
  void set_default_device(Device d) { default_device_ = d; }

  // The dtype PyTorch calls the default dtype (torch.get_default_dtype): what factories without dtype=, float
  // Python numbers in promotion and integer inputs of float-only ops produce. A floating dtype (the setter's
  // caller checks); float32 unless a script sets another.
  DType default_dtype() const { return default_dtype_; }
  void set_default_dtype(DType d) { default_dtype_ = d; }

  // Host memory for this context's cpu/xla/xpu tensors (embedding hosts); null: aligned_alloc/free.
  // Each storage keeps the allocator alive until it frees its bytes.
  struct HostAllocator {
    std::function<void*(size_t nbytes)> alloc;   // null (or throw) when out of memory
    std::function<void(void* p)> free;
  };
  const std::shared_ptr<const HostAllocator>& host_allocator() const { return host_allocator_; }
  void set_host_allocator(std::shared_ptr<const HostAllocator> a) { host_allocator_ = std::move(a); }

  Generator& generator() { return generator_; }
  void manual_seed(uint64_t seed) { generator_.manual_seed(seed); }

  // Counts device-to-host reads a script forces (item(), printing values, bool(tensor)); tests assert
  // that sync-free paths (GradScaler on device) leave it unchanged.
  uint64_t host_syncs() const { return host_syncs_; }
  void count_host_sync() { ++host_syncs_; }

 private:
  std::vector<LayerEntry> layers_;
  std::vector<std::shared_ptr<DispatchLayer>> retired_layers_;  // see remove_layer
  bool grad_enabled_ = true;
  Generator generator_;
  uint64_t host_syncs_ = 0;
  Device default_device_ = Device::cpu();
  DType default_dtype_ = DType::float32;
  std::shared_ptr<const HostAllocator> host_allocator_;
};

// Conventional layer orders: autocast casts first, then autograd records the (cast) op; the profiler
// times what reaches the kernel.
namespace layer_order {
inline constexpr int tracing = 50;
inline constexpr int autocast = 100;
inline constexpr int autograd = 200;
inline constexpr int profiling = 300;
}  // namespace layer_order

namespace detail {
extern thread_local constinit Context* t_current;  // the innermost ContextGuard's context, or null
Context& thread_default_context();
}  // namespace detail

// The context of the calling thread: the innermost ContextGuard's, else a per-thread default context.
// Inline: every dispatch reads it several times.
inline Context& current_context() {
  Context* c = detail::t_current;
  return c ? *c : detail::thread_default_context();
}

// The current context's default dtype (float32 unless a script set another).
inline DType default_dtype() { return current_context().default_dtype(); }

// Makes [ctx] current on this thread for the guard's lifetime (nests; restores the previous one).
class ContextGuard {
 public:
  explicit ContextGuard(Context& ctx);
  ~ContextGuard();
  ContextGuard(const ContextGuard&) = delete;
  ContextGuard& operator=(const ContextGuard&) = delete;

 private:
  Context* prev_;
};

// Sets grad mode on the current context for the guard's lifetime (no_grad is GradModeGuard(false)).
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled);
  ~GradModeGuard();
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  Context& ctx_;
  bool prev_;
};

// Disables [layer] in the current context for the guard's lifetime, so a layer can re-dispatch
// sub-ops (e.g. autocast's casts) from the top without re-entering itself.
class ExcludeLayerGuard {
 public:
  explicit ExcludeLayerGuard(const DispatchLayer* layer);
  ~ExcludeLayerGuard();
  ExcludeLayerGuard(const ExcludeLayerGuard&) = delete;
  ExcludeLayerGuard& operator=(const ExcludeLayerGuard&) = delete;

 private:
  Context& ctx_;
  const DispatchLayer* layer_;
  bool prev_ = true;
};

}  // namespace amps::rt
