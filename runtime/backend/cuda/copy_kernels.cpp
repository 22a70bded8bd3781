// CUDA kernels for moves and copies (to, copy_, clone, contiguous), fills and factories. Factories whose
// values come from the host (arange, linspace, eye, the random ones) run the CPU kernel and upload, so a
// seed gives the same numbers on cpu and cuda.
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cuda {
namespace {

Tensor finish_factory(const ArgReader& a, size_t i, Tensor t) {
  if (a.boolean(i)) t.set_requires_grad(true);
  return t;
}

Tensors k_copy_(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0), src = a.tensor(1);
  Dims b = broadcast_shapes(src.sizes(), self.sizes(), "copy_");
  AMPS_CHECK(b == self.sizes(), "copy_: output with shape {} doesn't match the broadcast shape {}",
             format_shape(self.sizes()), format_shape(b));
  transfer(self, src);
  return {self};
}

// to(): the cuda backend serves moves in both directions (the dispatcher sends cuda<->cpu here).
Tensors k_to(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  DType dt = a.opt_dtype(1).value_or(self.dtype());
  Device dev = a.opt_device(2).value_or(self.device());
  if (dt == self.dtype() && dev == self.device() && !a.boolean(4)) return {self};
  Tensor out = Tensor::empty(self.sizes(), dt, dev);
  transfer(out, self);
  return {out};
}

Tensors k_clone(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  Tensor out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  copy_into(out, self);
  return {out};
}

Tensors k_contiguous(const ArgReader& a, const KernelContext&) { return {contiguous(a.tensor(0))}; }

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

// *_like(input, [fill,] *, dtype, device, requires_grad): [first_kw] is the dtype argument.
Tensors like(const ArgReader& a, const KernelContext& kc, size_t first_kw, std::optional<Scalar> value) {
  Tensor self = a.tensor(0);
  Tensor t = Tensor::empty(self.sizes(), a.opt_dtype(first_kw).value_or(self.dtype()), kc.device);
  if (value) fill(t, *value);
  return {finish_factory(a, first_kw + 2, t)};
}

Tensors k_zeros_like(const ArgReader& a, const KernelContext& kc) { return like(a, kc, 1, Scalar(int64_t(0))); }
Tensors k_ones_like(const ArgReader& a, const KernelContext& kc) { return like(a, kc, 1, Scalar(int64_t(1))); }
Tensors k_full_like(const ArgReader& a, const KernelContext& kc) { return like(a, kc, 2, a.scalar(1)); }
Tensors k_empty_like(const ArgReader& a, const KernelContext& kc) { return like(a, kc, 1, std::nullopt); }

// zeros/ones/empty(size, *, dtype, device, requires_grad).
Tensors sized(const ArgReader& a, const KernelContext& kc, std::optional<Scalar> value) {
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(DType::float32), kc.device);
  if (value) fill(t, *value);
  return {finish_factory(a, 3, t)};
}

Tensors k_zeros(const ArgReader& a, const KernelContext& kc) { return sized(a, kc, Scalar(int64_t(0))); }
Tensors k_ones(const ArgReader& a, const KernelContext& kc) { return sized(a, kc, Scalar(int64_t(1))); }
Tensors k_empty(const ArgReader& a, const KernelContext& kc) { return sized(a, kc, std::nullopt); }

Tensors k_full(const ArgReader& a, const KernelContext& kc) {
  Scalar v = a.scalar(1);
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(2).value_or(v.default_dtype()), kc.device);
  fill(t, v);
  return {finish_factory(a, 4, t)};
}

// Runs the CPU backend's kernel for this op on the host, then uploads each result (requires_grad kept).
Tensors k_from_host(const ArgReader& a, const KernelContext& kc) {
  Tensors host = cpu_backend().run(a.op(), a.args(), KernelContext{kc.ctx, Device::cpu()});
  Tensors out;
  for (const Tensor& h : host) {
    Tensor d = Tensor::empty(h.sizes(), h.dtype(), kc.device);
    transfer(d, h);
    if (h.requires_grad()) d.set_requires_grad(true);
    out.push_back(d);
  }
  return out;
}

// In-place random fills (normal_, uniform_, bernoulli_): drawn into a host tensor shaped like the input.
Tensors k_fill_from_host(const ArgReader& a, const KernelContext& kc) {
  Tensor self = a.tensor(0);
  a.args()[0] = Tensor::empty(self.sizes(), self.dtype(), Device::cpu());
  Tensors host = cpu_backend().run(a.op(), a.args(), KernelContext{kc.ctx, Device::cpu()});
  transfer(self, host[0]);
  return {self};
}

}  // namespace

void register_copy_kernels(KernelTable& t) {
  t.add(OpId::copy_, k_copy_);
  t.add(OpId::to, k_to);
  t.add(OpId::clone, k_clone);
  t.add(OpId::contiguous, k_contiguous);
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
  for (OpId op : {OpId::arange, OpId::linspace, OpId::eye, OpId::rand, OpId::randn, OpId::randint, OpId::randperm})
    t.add(op, k_from_host);
  for (OpId op : {OpId::normal_, OpId::uniform_, OpId::bernoulli_}) t.add(op, k_fill_from_host, kFloatDTypes);
}

}  // namespace amps::rt::cuda
