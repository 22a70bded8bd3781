// CUDA kernels for the GradScaler's device steps, with the CPU backend's checks and messages
// (runtime/backend/cpu/amp_kernels.cpp): nothing here reads a device value on the host.
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cuda {
namespace {

void check_flag(const Tensor& t, const char* name, Device device) {
  AMPS_CHECK(t.device() == device, "{} must be on the same device as the scaled grads.", name);
  AMPS_CHECK(t.numel() == 1, "{} must be a 1-element tensor.", name);
  AMPS_CHECK(t.dtype() == DType::float32, "{} must be a float tensor.", name);
}

// Launches one unscale over [work] (contiguous tensors), kMaxListTensors at a time.
void unscale_lists(const std::vector<Tensor>& work, DType dt, Device dev, float* found, const float* inv) {
  TensorList l;
  auto flush = [&] {
    check(launch_unscale(stream(dev), elem(dt), l, found, inv), "_amp_foreach_non_finite_check_and_unscale_");
    l = TensorList{};
  };
  for (const Tensor& g : work) {
    if (g.numel() == 0) continue;
    l.data[l.count] = device_data(g);
    l.numel[l.count] = g.numel();
    l.first_block[l.count + 1] = l.first_block[l.count] + (g.numel() + kUnscaleChunk - 1) / kUnscaleChunk;
    if (++l.count == kMaxListTensors) flush();
  }
  if (l.count > 0) flush();
}

// _amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale): in place, no host sync.
// Non-contiguous grads are unscaled in a contiguous copy that is written back (queued on the same stream).
Tensors k_unscale(const ArgReader& a, const KernelContext&) {
  std::vector<Tensor> grads = a.tensors(0);
  if (grads.empty()) return {};
  Tensor found = a.tensor(1), inv = a.tensor(2);
  const Device dev = grads[0].device();
  check_flag(inv, "inv_scale", dev);
  check_flag(found, "found_inf", dev);
  for (const Tensor& g : grads)
    AMPS_CHECK(g.dtype() == grads[0].dtype() && g.device() == dev,
               "_amp_foreach_non_finite_check_and_unscale_: all scaled_grads must have the same dtype and device");
  std::vector<Tensor> work;
  for (const Tensor& g : grads) work.push_back(contiguous(g));
  unscale_lists(work, grads[0].dtype(), dev, static_cast<float*>(device_data(found)),
                static_cast<const float*>(device_data(inv)));
  for (size_t i = 0; i < grads.size(); ++i)
    if (!work[i].is_same(grads[i])) copy_into(grads[i], work[i]);
  return {};
}

// _amp_update_scale_: backoff on inf; grow after growth_interval clean steps unless growth overflows.
Tensors k_update_scale(const ArgReader& a, const KernelContext& kc) {
  Tensor scale = a.tensor(0), tracker = a.tensor(1), found = a.tensor(2);
  AMPS_CHECK(scale.numel() == 1 && scale.dtype() == DType::float32, "current_scale must be a 1-element float tensor.");
  AMPS_CHECK(tracker.numel() == 1 && tracker.dtype() == DType::int32, "growth_tracker must be a 1-element int tensor.");
  AMPS_CHECK(found.numel() == 1 && found.dtype() == DType::float32, "found_inf must be a 1-element float tensor.");
  AMPS_CHECK(tracker.device() == scale.device() && found.device() == scale.device(),
             "_amp_update_scale_: current_scale, growth_tracker and found_inf must be on the same device");
  check(launch_update_scale(stream(kc.device), static_cast<float*>(device_data(scale)),
                            static_cast<int32_t*>(device_data(tracker)), static_cast<const float*>(device_data(found)),
                            a.f64(3), a.f64(4), a.i64(5)),
        "_amp_update_scale_");
  return one_tensor(scale);
}

}  // namespace

void register_amp_kernels(KernelTable& t) {
  t.add(OpId::_amp_foreach_non_finite_check_and_unscale_, k_unscale, kFloatDTypes);
  t.add(OpId::_amp_update_scale_, k_update_scale, dtype_bit(DType::float32));
}

}  // namespace amps::rt::cuda
