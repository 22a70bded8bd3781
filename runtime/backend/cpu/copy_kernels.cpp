// CPU kernels for copies, casts, fills and the non-random factories (zeros, full, arange, eye, ...).
#include <cmath>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Applies the `requires_grad=` argument of a factory (argument [i]) to [t].
Tensor finish_factory(const ArgReader& a, size_t i, Tensor t) {
  if (a.boolean(i)) t.set_requires_grad(true);
  return t;
}

Tensors k_copy_(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0), src = a.tensor(1);
  Dims b = broadcast_shapes(src.sizes(), self.sizes(), "copy_");
  AMPS_CHECK(b == self.sizes(), "copy_: output with shape {} doesn't match the broadcast shape {}",
             format_shape(self.sizes()), format_shape(b));
  copy_into(self, src);
  return {self};
}

Tensors k_to(const ArgReader& a, const KernelContext& kc) {
  Tensor self = a.tensor(0);
  DType dt = a.opt_dtype(1).value_or(self.dtype());
  Device dev = a.opt_device(2).value_or(self.device());
  if (dt == self.dtype() && dev == self.device() && !a.boolean(4)) return {self};
  Tensor out = Tensor::empty(self.sizes(), dt, dev);
  copy_into(out, self);
  return {out};
}

Tensors k_clone(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  Tensor out = empty_like(self, self.dtype(), self.device());
  copy_into(out, self);
  return {out};
}

Tensors k_contiguous(const ArgReader& a, const KernelContext&) { return {contiguous(a.tensor(0))}; }
Tensors k_detach(const ArgReader& a, const KernelContext&) { return {native::alias(a.tensor(0))}; }

Tensors k_fill_(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  fill(self, a.scalar(1));
  return {self};
}

Tensors k_zero_(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  fill(self, Scalar(int64_t(0)));
  return {self};
}

// *_like(input, *, dtype, device, requires_grad) with an optional fill value at position [fill_at].
Tensor like(const ArgReader& a, size_t first_kw) {
  Tensor self = a.tensor(0);
  DType dt = a.opt_dtype(first_kw).value_or(self.dtype());
  Device dev = a.opt_device(first_kw + 1).value_or(self.device());
  return Tensor::empty(self.sizes(), dt, dev);
}

Tensors k_zeros_like(const ArgReader& a, const KernelContext&) {
  Tensor t = like(a, 1);
  fill(t, Scalar(int64_t(0)));
  return {finish_factory(a, 3, t)};
}

Tensors k_ones_like(const ArgReader& a, const KernelContext&) {
  Tensor t = like(a, 1);
  fill(t, Scalar(int64_t(1)));
  return {finish_factory(a, 3, t)};
}

Tensors k_full_like(const ArgReader& a, const KernelContext&) {
  Tensor t = like(a, 2);
  fill(t, a.scalar(1));
  return {finish_factory(a, 4, t)};
}

Tensors k_empty_like(const ArgReader& a, const KernelContext&) { return {finish_factory(a, 3, like(a, 1))}; }

// zeros/ones/empty(size, *, dtype, device, requires_grad).
Tensor sized(const ArgReader& a, const KernelContext& kc, DType fallback) {
  return Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(fallback), kc.device);
}

Tensors k_zeros(const ArgReader& a, const KernelContext& kc) {
  Tensor t = sized(a, kc, DType::float32);
  fill(t, Scalar(int64_t(0)));
  return {finish_factory(a, 3, t)};
}

Tensors k_ones(const ArgReader& a, const KernelContext& kc) {
  Tensor t = sized(a, kc, DType::float32);
  fill(t, Scalar(int64_t(1)));
  return {finish_factory(a, 3, t)};
}

Tensors k_empty(const ArgReader& a, const KernelContext& kc) {
  return {finish_factory(a, 3, sized(a, kc, DType::float32))};
}

Tensors k_full(const ArgReader& a, const KernelContext& kc) {
  Scalar v = a.scalar(1);
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(2).value_or(v.default_dtype()), kc.device);
  fill(t, v);
  return {finish_factory(a, 4, t)};
}

// Writes start + i * step for i in [0, n) into a new 1-D tensor.
Tensor ramp(int64_t n, double start, double step, DType dt, Device dev) {
  Tensor t = Tensor::empty({n}, dt, Device::cpu());
  AMPS_DISPATCH_ALL(dt, T, [&] {
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + double(i) * step);
  });
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
  DType dt = a.opt_dtype(3).value_or(floating ? DType::float32 : DType::int64);
  int64_t n = span > 0 ? int64_t(std::ceil(span)) : 0;
  return {finish_factory(a, 5, ramp(n, start.to_double(), step.to_double(), dt, kc.device))};
}

Tensors k_linspace(const ArgReader& a, const KernelContext& kc) {
  double start = a.scalar(0).to_double(), end = a.scalar(1).to_double();
  int64_t steps = a.i64(2);
  AMPS_CHECK(steps >= 0, "linspace: number of steps must be non-negative");
  double step = steps > 1 ? (end - start) / double(steps - 1) : 0.0;
  DType dt = a.opt_dtype(3).value_or(DType::float32);
  return {finish_factory(a, 5, ramp(steps, start, step, dt, kc.device))};
}

Tensors k_eye(const ArgReader& a, const KernelContext& kc) {
  int64_t n = a.i64(0), m = a.opt_i64(1).value_or(n);
  AMPS_CHECK(n >= 0 && m >= 0, "eye: n and m must be non-negative, got {} and {}", n, m);
  Tensor t = Tensor::empty({n, m}, a.opt_dtype(2).value_or(DType::float32), kc.device);
  fill(t, Scalar(int64_t(0)));
  AMPS_DISPATCH_ALL(t.dtype(), T, [&] {
    for (int64_t i = 0; i < std::min(n, m); ++i) t.data<T>()[i * m + i] = T(1);
  });
  return {finish_factory(a, 4, t)};
}

}  // namespace

Tensor cast_device(const Tensor& t, Device dev) {
  Tensor out = Tensor::empty(t.sizes(), t.dtype(), dev);
  copy_into(out, t);
  return out;
}

void register_copy_kernels(KernelTable& t) {
  t.add(OpId::copy_, k_copy_);
  t.add(OpId::to, k_to);
  t.add(OpId::clone, k_clone);
  t.add(OpId::contiguous, k_contiguous);
  t.add(OpId::detach, k_detach);
  t.add(OpId::fill_, k_fill_);
  t.add(OpId::zero_, k_zero_);
  t.add(OpId::zeros_like, k_zeros_like);
  t.add(OpId::ones_like, k_ones_like);
  t.add(OpId::full_like, k_full_like);
  t.add(OpId::empty_like, k_empty_like);
  t.add(OpId::zeros, k_zeros);
  t.add(OpId::ones, k_ones);
  t.add(OpId::empty, k_empty);
  t.add(OpId::full, k_full);
  t.add(OpId::arange, k_arange);
  t.add(OpId::linspace, k_linspace);
  t.add(OpId::eye, k_eye);
}

}  // namespace amps::rt::cpu
