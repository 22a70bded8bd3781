// CPU kernels for conv{1,2,3}d, conv_transpose{1,2,3}d and their backward ops on oneDNN (float32/bfloat16/
// float16) and the float64 reference loops, with PyTorch's shape checks and output-size formulas. Unbatched
// forward inputs get a batch dim added and removed; the checks and shapes are shared (common/conv_pool_args).
#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/cpu/conv_pool_ref.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_conv.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

using common::ConvParams;

Tensor run_conv(OpId op, const Tensor& input, const Tensor& weight, const Tensor& bias_arg, const ConvParams& p,
                Device dev) {
  const size_t nd = p.stride.size();
  const bool unbatched = input.dim() == int64_t(nd) + 1;
  Tensor x = common::batched_conv_input(op, input, nd);
  common::check_conv(op, x, weight, bias_arg, p);
  Tensor out = Tensor::empty(common::conv_out_shape(x.sizes(), weight.sizes(), p), x.dtype(), dev);
  Tensor bias = bias_arg.defined() ? contiguous(cast(bias_arg, x.dtype())) : Tensor();
  std::optional<dnnl_cpu::DnnlArg> barg;
  if (bias.defined() && dnnl_dtype_ok(bias.dtype())) barg = dnnl_arg(bias);
  if (out.numel() > 0 && x.dtype() == DType::float64)
    ref::conv(p, contiguous(x), contiguous(weight), bias, out);
  else if (out.numel() > 0)
    dnnl_cpu::conv_forward(p, dnnl_arg(x), dnnl_arg(weight), barg ? &*barg : nullptr, dnnl_arg(out));
  return unbatched ? native::squeeze(out, {0}) : out;
}

// conv{N}d(input, weight, bias, stride, padding, dilation, groups) and conv_transpose{N}d(input, weight, bias,
// stride, padding, output_padding, groups, dilation)
template <size_t N, bool Transposed> Tensors k_conv(const ArgReader& a, const KernelContext& kc) {
  return {run_conv(a.op(), a.tensor(0), a.tensor(1), a.opt_tensor(2), common::conv_forward_params(a, N, Transposed),
                   kc.device)};
}

// ---- backward ops (batched only; the autograd rule adds and removes the batch dim) ----

// [t] cast to [dt] and row-major (the float64 loops read plain arrays).
Tensor dense(const Tensor& t, DType dt) { return contiguous(cast(t, dt)); }

// convolution_backward_input(grad_output, weight, input_sizes, stride, padding, dilation, transposed,
// output_padding, groups)
Tensors k_conv_backward_input(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), w = a.tensor(1);
  const Dims in = a.ints(2);
  const ConvParams p = common::conv_backward_params(a, size_t(std::max<int64_t>(w.dim() - 2, 0)));
  common::check_conv_backward_shapes(a.op(), in, w.sizes(), g, p);
  const DType dt = promote(g.dtype(), w.dtype());
  Tensor gi = Tensor::empty(in, dt, kc.device);
  if (gi.numel() == 0) return one_tensor(gi);
  if (g.numel() == 0 || w.numel() == 0) fill(gi, Scalar(0.0));
  else if (dt == DType::float64) ref::conv_backward_data(p, dense(g, dt), dense(w, dt), gi);
  else dnnl_cpu::conv_backward_data(p, dnnl_arg(cast(g, dt)), dnnl_arg(cast(w, dt)), dnnl_arg(gi));
  return one_tensor(gi);
}

// convolution_backward_weight(grad_output, input, weight_sizes, ...) -> (grad_weight, grad_bias)
Tensors k_conv_backward_weight(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  const Dims ws = a.ints(2);
  const ConvParams p = common::conv_backward_params(a, size_t(std::max<int64_t>(x.dim() - 2, 0)));
  common::check_conv_backward_shapes(a.op(), x.sizes(), ws, g, p);
  const DType dt = promote(g.dtype(), x.dtype());
  if (dt == DType::float64 || x.numel() == 0 || g.numel() == 0) {  // loops (also every empty case)
    Tensor gw = Tensor::empty(ws, DType::float64, kc.device), gb = Tensor::empty({g.size(1)}, DType::float64, kc.device);
    ref::conv_backward_weights(p, dense(g, DType::float64), dense(x, DType::float64), gw, gb);
    return {cast(gw, dt), cast(gb, dt)};
  }
  Tensor gw = Tensor::empty(ws, dt, kc.device), gb = Tensor::empty({g.size(1)}, dt, kc.device);
  dnnl_cpu::DnnlArg barg = dnnl_arg(gb);
  dnnl_cpu::conv_backward_weights(p, dnnl_arg(cast(x, dt)), dnnl_arg(cast(g, dt)), dnnl_arg(gw), &barg);
  return {gw, gb};
}

}  // namespace

void register_conv_kernels(KernelTable& t) {
#define AMPS_CONV_OP(name, kernel) t.add(OpId::name, kernel, kFloatDTypes);
#include "runtime/backend/common/conv_ops.def"
#undef AMPS_CONV_OP
}

}  // namespace amps::rt::cpu
