// CPU kernels for copies, casts, fills and the non-random factories: the device-independent ones
// (common/copy_kernels.hpp) with the CPU's copies, and arange, eye (linspace and logspace: range_kernels.cpp).
#include <cmath>

#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

using common::finish_factory;

// *_like results go where `device=` says (every host device is served here), else next to the input.
Device like_device(const ArgReader& a, size_t i, const KernelContext&) {
  return a.opt_device(i).value_or(a.tensor(0).device());
}

// Writes start + i * step for i in [0, n) into a new 1-D tensor.
Tensor ramp(int64_t n, double start, double step, DType dt, Device dev) {
  Tensor t = Tensor::empty({n}, dt, Device::cpu());
  AMPS_DISPATCH_ALL(dt, T, [&] {
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) p[i] = to_result<T>(start + double(i) * step);  // small integers wrap via int64
  });
  return dev == Device::cpu() ? t : cast_device(t, dev);
}

// arange of integers into int64 in integer arithmetic (PyTorch's: its length (end - start + step - sign) / step),
// exact where doubles would round bounds above 2^53.
Tensor int64_ramp(Scalar start, Scalar end, Scalar step, Device dev) {
  const __int128 s = start.to_int(), e = end.to_int(), st = step.to_int(), sgn = st > 0 ? 1 : -1;
  const __int128 n = (e - s + st - sgn) / st;
  Tensor t = Tensor::empty({int64_t(n > 0 ? n : 0)}, DType::int64, Device::cpu());
  int64_t* p = t.data<int64_t>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = int64_t(s + __int128(i) * st);
  return dev == Device::cpu() ? t : cast_device(t, dev);
}

Tensors k_arange(const ArgReader& a, const KernelContext& kc) {
  Scalar start = a.scalar(0), step = a.scalar(2);
  std::optional<Scalar> end = a.opt_scalar(1);
  if (!end) {
    end = start;
    start = Scalar(int64_t(0));
  }
  AMPS_CHECK(step.to_double() != 0, "arange: step must be nonzero");
  double span = (end->to_double() - start.to_double()) / step.to_double();
  AMPS_CHECK(!(span < 0), "arange: upper bound and larger bound inconsistent with step sign");
  bool floating = start.is_floating() || end->is_floating() || step.is_floating();
  DType dt = a.opt_dtype(3).value_or(floating ? kc.ctx.default_dtype() : DType::int64);
  if (!floating && dt == DType::int64) return one_tensor(finish_factory(a, 5, int64_ramp(start, *end, step, kc.device)));
  int64_t n = span > 0 ? int64_t(std::ceil(span)) : 0;
  return one_tensor(finish_factory(a, 5, ramp(n, start.to_double(), step.to_double(), dt, kc.device)));
}

Tensors k_eye(const ArgReader& a, const KernelContext& kc) {
  int64_t n = a.i64(0), m = a.opt_i64(1).value_or(n);
  AMPS_CHECK(n >= 0 && m >= 0, "eye: n and m must be non-negative, got {} and {}", n, m);
  Tensor t = Tensor::empty({n, m}, a.opt_dtype(2).value_or(kc.ctx.default_dtype()), kc.device);
  fill(t, Scalar(int64_t(0)));
  AMPS_DISPATCH_ALL(t.dtype(), T, [&] {
    for (int64_t i = 0; i < std::min(n, m); ++i) t.data<T>()[i * m + i] = T(1);
  });
  return one_tensor(finish_factory(a, 4, t));
}

}  // namespace

void register_range_kernels(KernelTable& t);  // linspace, logspace (range_kernels.cpp)

Tensor cast_device(const Tensor& t, Device dev) {
  Tensor out = Tensor::empty(t.sizes(), t.dtype(), dev);
  copy_into(out, t);
  return out;
}

void register_copy_kernels(KernelTable& t) {
  common::register_copy_kernels<copy_into, fill, contiguous, like_device>(t);
  t.add(OpId::arange, k_arange);
  register_range_kernels(t);
  t.add(OpId::eye, k_eye);
}

}  // namespace amps::rt::cpu
