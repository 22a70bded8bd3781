// Backend: the narrow interface every device backend implements, and the per-device-type lookup.
#pragma once

#include <string>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/context.hpp"
#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::rt {

// What a kernel gets besides its arguments: the calling context (RNG, grad mode) and the device its
// outputs must be tagged with (xla:0 tensors stay xla:0 even though the CPU backend computes them).
struct KernelContext {
  Context& ctx;
  Device device;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // Whether [op] has a kernel for inputs of [dtype] here (the AMP layer and tests ask this).
  virtual bool supports(OpId op, DType dtype) const = 0;
  // Runs [op]; [args] are complete and on this backend's device; `out=` has been taken out (None).
  virtual Tensors run(OpId op, Args& args, const KernelContext& kc) = 0;
  // Device memory for non-host backends; the CPU backend never gets these calls.
  virtual void* allocate(size_t nbytes, Device device) = 0;
  virtual void deallocate(void* p, Device device) = 0;
  // Waits until the work queued on [device] has finished (host backends run synchronously).
  virtual void synchronize(Device device) {}
  // How many devices of this type there are (cuda: the GPUs the CUDA runtime lists).
  virtual int device_count() const { return 1; }
  // Bytes of device memory held by live tensors on [device] (0 for host backends).
  virtual int64_t memory_allocated(Device device) const { return 0; }
  // torch.cuda's memory statistics for [device] (all 0 for host backends): bytes held by live tensors and from
  // the driver (live + cached), now and at their peak since the start or the last reset_peak_memory_stats.
  struct MemoryStats {
    int64_t allocated = 0, reserved = 0, peak_allocated = 0, peak_reserved = 0;
  };
  virtual MemoryStats memory_stats(Device device) const { return {}; }
  // Restarts both peaks at the current values.
  virtual void reset_peak_memory_stats(Device device) {}
  // Returns [device]'s cached free blocks to the driver (torch.cuda.empty_cache).
  virtual void empty_cache(Device device) {}
};

// The backend serving [type]: the CPU backend for cpu/xla/xpu; the CUDA backend (null in a CPU-only
// build) for cuda.
Backend* backend_for(DeviceType type);
// Called once at startup by a CUDA backend that found a usable GPU.
void register_cuda_backend(Backend* backend);
// Why a CUDA build registered no backend ("no GPU is present", a driver too old for the runtime), set by the
// backend's probe; check_device_available puts it in its message. Empty before the probe or without CUDA.
void set_cuda_unavailable_reason(std::string reason);
std::string cuda_unavailable_reason();
// The CPU backend (the reference every other backend is tested against).
Backend& cpu_backend();

}  // namespace amps::rt
