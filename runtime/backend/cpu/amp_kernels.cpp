// CPU kernels: the GradScaler's device-side steps, exactly as PyTorch's AmpGradScalerKernels.cpp.
#include <atomic>
#include <cmath>
#include <limits>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

void check_flag(const Tensor& t, const char* name, Device device) {
  AMPS_CHECK(t.device() == device, "{} must be on the same device as the scaled grads.", name);
  AMPS_CHECK(t.numel() == 1, "{} must be a 1-element tensor.", name);
  AMPS_CHECK(t.dtype() == DType::float32, "{} must be a float tensor.", name);
}

// Whether p[0..n) holds a non-finite value; with inv != 1 also scales them in place by inv. Vectorisable:
// |v| <= max is false for inf and NaN alike, and the flag is an OR reduction over plain values (a lambda's
// captures would be re-read after every store through p, which may alias them).
template <typename T> bool unscale_loop(T* p, int64_t n, float inv) {
  using C = compute_t<T>;
  const C biggest = std::numeric_limits<C>::max();
  int bad = 0;
  if (inv == 1.0f) {
    for (int64_t i = 0; i < n; ++i) bad |= int(!(std::abs(C(p[i])) <= biggest));
    return bad != 0;
  }
  for (int64_t i = 0; i < n; ++i) {
    const C v = C(p[i]);
    bad |= int(!(std::abs(v) <= biggest));
    p[i] = T(v * inv);
  }
  return bad != 0;
}

template <typename T> bool unscale_range(T* p, int64_t n, float inv) {
  bool bad = false;
  vectorized([&] { bad = unscale_loop(p, n, inv); });
  return bad;
}

// Unscales one row-major grad in place, in parallel; sets *found to 1 on any non-finite element (never resets
// it). inv == 1 (the GradScaler's check for amp-scaling optimizers) only reads.
template <typename T> void unscale_contiguous(const Tensor& g, float inv, float* found) {
  T* p = g.data<T>();
  std::atomic<bool> bad = false;
  parallel_for(g.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    if (unscale_range(p + b, e - b, inv)) bad.store(true, std::memory_order_relaxed);
  });
  if (bad.load()) *found = 1.0f;
}

// _amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale): in place, no host sync.
Tensors k_unscale(const ArgReader& a, const KernelContext&) {
  std::vector<Tensor> grads = a.tensors(0);
  if (grads.empty()) return {};
  Tensor found = a.tensor(1), inv = a.tensor(2);
  check_flag(inv, "inv_scale", grads[0].device());
  check_flag(found, "found_inf", grads[0].device());
  for (const Tensor& g : grads)
    AMPS_CHECK(g.dtype() == grads[0].dtype() && g.device() == grads[0].device(),
               "_amp_foreach_non_finite_check_and_unscale_: all scaled_grads must have the same dtype and device");
  const float inv_v = *inv.data<float>();
  float* found_p = found.data<float>();
  for (const Tensor& g : grads) {
    Tensor work = g.is_contiguous() ? g : contiguous(g);
    AMPS_DISPATCH_FLOAT(g.dtype(), "_amp_foreach_non_finite_check_and_unscale_", T,
                        [&] { unscale_contiguous<T>(work, inv_v, found_p); });
    if (!work.is_same(g)) copy_into(g, work);
  }
  return {};
}

// _amp_update_scale_: backoff on inf; grow after growth_interval clean steps unless growth overflows.
Tensors k_update_scale(const ArgReader& a, const KernelContext&) {
  Tensor scale = a.tensor(0), tracker = a.tensor(1), found = a.tensor(2);
  AMPS_CHECK(scale.numel() == 1 && scale.dtype() == DType::float32, "current_scale must be a 1-element float tensor.");
  AMPS_CHECK(tracker.numel() == 1 && tracker.dtype() == DType::int32, "growth_tracker must be a 1-element int tensor.");
  AMPS_CHECK(found.numel() == 1 && found.dtype() == DType::float32, "found_inf must be a 1-element float tensor.");
  const double growth = a.f64(3), backoff = a.f64(4);
  const int64_t interval = a.i64(5);
  float* s = scale.data<float>();
  int32_t* t = tracker.data<int32_t>();
  if (*found.data<float>() != 0.0f) {
    *s = float(double(*s) * backoff);
    *t = 0;
    return one_tensor(scale);
  }
  const int64_t successful = int64_t(*t) + 1;
  if (successful == interval) {
    const float grown = float(double(*s) * growth);
    if (std::isfinite(grown)) *s = grown;
    *t = 0;
  } else {
    *t = int32_t(successful);
  }
  return one_tensor(scale);
}

}  // namespace

void register_amp_kernels(KernelTable& t) {
  t.add(OpId::_amp_foreach_non_finite_check_and_unscale_, k_unscale, kFloatDTypes);
  t.add(OpId::_amp_update_scale_, k_update_scale, dtype_bit(DType::float32));
}

}  // namespace amps::rt::cpu
