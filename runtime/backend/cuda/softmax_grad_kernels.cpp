// CUDA kernels of the softmax/log_softmax gradients and of nll_loss's gradient, with the CPU kernels' checks and
// result types (common/softmax_grad_args.hpp; cpu/softmax_grad_kernels.cpp).
#include "runtime/backend/common/softmax_grad_args.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cuda {
namespace {

// float32 operands and a float16/bfloat16 input_dtype (softmax(x, dtype=float32) of a half x), along the innermost
// dim of up to kWarpRowMax: the kernel writes the half type (the values of computing then casting, in one pass).
bool writes_half_from_f32(const common::SoftmaxGradArgs& p) {
  const bool half = p.input_dtype == DType::float16 || p.input_dtype == DType::bfloat16;
  return half && p.out.dtype() == DType::float32 && p.inner() == 1 && p.out.size(p.dim) <= kWarpRowMax;
}

Tensor softmax_grad(const ArgReader& a, const KernelContext& kc, bool log) {
  common::SoftmaxGradArgs p = common::softmax_grad_args(a, log);
  const Tensor y = contiguous(p.out), g = contiguous(cast(p.grad, p.out.dtype()));
  if (writes_half_from_f32(p)) {
    Tensor out = Tensor::empty(y.sizes(), p.input_dtype, kc.device);
    check(launch_softmax_backward_from_f32(stream(kc.device), elem(p.input_dtype),
                                           static_cast<const float*>(device_data(g)),
                                           static_cast<const float*>(device_data(y)), device_data(out), p.outer(),
                                           y.size(p.dim), log),
          log ? "_log_softmax_backward_data" : "_softmax_backward_data");
    return p.squeezed(out);
  }
  Tensor out = Tensor::empty(y.sizes(), y.dtype(), kc.device);
  check(launch_softmax_backward(stream(kc.device), elem(y.dtype()), device_data(g), device_data(y), device_data(out),
                                p.outer(), y.size(p.dim), p.inner(), log),
        log ? "_log_softmax_backward_data" : "_softmax_backward_data");
  return cast(p.squeezed(out), p.input_dtype);
}

Tensors k_softmax_backward(const ArgReader& a, const KernelContext& kc) { return one_tensor(softmax_grad(a, kc, false)); }
Tensors k_log_softmax_backward(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(softmax_grad(a, kc, true));
}

// The gradient, weight and totals in double for float64, else in float (the kernel's accumulation types).
Tensors k_nll_loss_backward(const ArgReader& a, const KernelContext& kc) {
  const common::NllGradArgs p = common::nll_grad_args(a);
  const DType acc = p.grad.dtype() == DType::float64 ? DType::float64 : DType::float32;
  const Tensor g = contiguous(cast(p.grad, acc)), t = contiguous(cast(p.target, DType::int64));
  const Tensor w = p.weight.defined() ? contiguous(cast(p.weight, acc)) : Tensor();
  Tensor out = Tensor::empty(p.input_sizes, p.grad.dtype(), kc.device);
  Tensor total = Tensor::empty({}, DType::float64, kc.device);
  NllGrad n{device_data(g), static_cast<const int64_t*>(device_data(t)), w.defined() ? device_data(w) : nullptr,
            p.batch, p.classes, p.inner, p.ignore_index, p.red == common::Reduction::none,
            p.red == common::Reduction::mean};
  check(launch_nll_backward(stream(kc.device), elem(out.dtype()), n, static_cast<double*>(device_data(total)),
                            device_data(out)),
        "nll_loss_backward");
  return one_tensor(out);
}

}  // namespace

void register_softmax_grad_kernels(KernelTable& t) {
  t.add(OpId::_softmax_backward_data, k_softmax_backward, kFloatDTypes);
  t.add(OpId::_log_softmax_backward_data, k_log_softmax_backward, kFloatDTypes);
  t.add(OpId::nll_loss_backward, k_nll_loss_backward, kFloatDTypes);
}

}  // namespace amps::rt::cuda
