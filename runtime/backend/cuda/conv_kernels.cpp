// CUDA kernels for conv{1,2,3}d, conv_transpose{1,2,3}d and their backward ops on cuDNN (cudnn.cpp), with the CPU
// backend's checks and output shapes (common/conv_pool_args). A transposed convolution is its plain twin run
// backwards: its forward is the twin's backward_data, its input gradient the twin's forward, its weight gradient
// the twin's backward_filter with the roles of input and grad_output swapped. Operands are made contiguous first.
#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/backend/cuda/cudnn.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

using common::ConvParams;
using cudnn::Pass;

// out += bias [C] along dim 1 (bias in out's dtype).
void add_bias(OpId op, const Tensor& out, const Tensor& bias) {
  AMPS_CHECK(bias.numel() == out.size(1), "{}: bias has {} elements, expected {} (output channels)", op_name(op),
             bias.numel(), out.size(1));
  Dims shape(size_t(out.dim() - 1), 1);
  shape[0] = out.size(1);
  Tensor b = reshape(contiguous(cast(bias, out.dtype())), shape);
  Launch l = make_launch(out.sizes(), {&out, &out, &b});
  check(launch_binary(stream(out.device()), BinOp::add, elem(out.dtype()), l.shape, l.ops[0], l.ops[1], l.ops[2], 1.0),
        "convolution bias");
}

Tensor run_conv(OpId op, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p, Device dev) {
  const size_t nd = p.stride.size();
  const bool unbatched = input.dim() == int64_t(nd) + 1;
  Tensor x = common::batched_conv_input(op, input, nd);
  common::check_conv(op, x, weight, bias, p);
  Tensor out = Tensor::empty(common::conv_out_shape(x.sizes(), weight.sizes(), p), x.dtype(), dev);
  if (out.numel() == 0) return unbatched ? native::squeeze(out, {0}) : out;
  Tensor xc = contiguous(x), wc = contiguous(weight);
  if (xc.numel() == 0 || wc.numel() == 0) fill(out, Scalar(0.0));
  else if (!p.transposed) cudnn::convolution(Pass::forward, p, xc, wc, out);
  else cudnn::convolution(Pass::backward_data, p, out, wc, xc);
  if (bias.defined()) add_bias(op, out, bias);
  return unbatched ? native::squeeze(out, {0}) : out;
}

// conv{N}d(input, weight, bias, stride, padding, dilation, groups) and conv_transpose{N}d(input, weight, bias,
// stride, padding, output_padding, groups, dilation)
template <size_t N, bool Transposed> Tensors k_conv(const ArgReader& a, const KernelContext& kc) {
  return {run_conv(a.op(), a.tensor(0), a.tensor(1), a.opt_tensor(2), common::conv_forward_params(a, N, Transposed),
                   kc.device)};
}

// ---- backward ops (batched only; the autograd rule adds and removes the batch dim) ----

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
  if (g.numel() == 0 || w.numel() == 0) {
    fill(gi, Scalar(0.0));
    return one_tensor(gi);
  }
  Tensor gc = contiguous(cast(g, dt)), wc = contiguous(cast(w, dt));
  if (!p.transposed) cudnn::convolution(Pass::backward_data, p, gi, wc, gc);
  else cudnn::convolution(Pass::forward, p, gc, wc, gi);
  return one_tensor(gi);
}

// out[c] = sum of [g]'s channel c ([N, C, *]) over batch and space, float accumulation (double for f64).
Tensor channel_sums(const Tensor& g, Device dev) {
  const int64_t C = g.size(1), cols = C ? g.numel() / C : 0;
  Tensor out = Tensor::empty({C}, g.dtype(), dev);
  if (cols == 0) {
    fill(out, Scalar(0.0));
    return out;
  }
  Tensor rows = contiguous(native::transpose(g, 0, 1));  // [C, N, *]
  const int splits = sum_row_splits(C, cols);
  Tensor work = splits > 1 ? Tensor::empty({C * splits}, DType::float64, dev) : Tensor();
  check(launch_sum_rows(stream(dev), elem(g.dtype()), device_data(rows), device_data(out), C, cols, 1.0,
                        work.defined() ? device_data(work) : nullptr, splits), "convolution_backward_weight");
  return out;
}

// convolution_backward_weight(grad_output, input, weight_sizes, ...) -> (grad_weight, grad_bias)
Tensors k_conv_backward_weight(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  const Dims ws = a.ints(2);
  const ConvParams p = common::conv_backward_params(a, size_t(std::max<int64_t>(x.dim() - 2, 0)));
  common::check_conv_backward_shapes(a.op(), x.sizes(), ws, g, p);
  const DType dt = promote(g.dtype(), x.dtype());
  Tensor gw = Tensor::empty(ws, dt, kc.device), gc = contiguous(cast(g, dt));
  if (gw.numel() > 0 && (x.numel() == 0 || g.numel() == 0)) {
    fill(gw, Scalar(0.0));
  } else if (gw.numel() > 0) {
    Tensor xc = contiguous(cast(x, dt));
    if (!p.transposed) cudnn::convolution(Pass::backward_filter, p, xc, gw, gc);
    else cudnn::convolution(Pass::backward_filter, p, gc, gw, xc);
  }
  return {gw, channel_sums(gc, kc.device)};
}

}  // namespace

void register_conv_kernels(KernelTable& t) {
#define AMPS_CONV_OP(name, kernel) t.add(OpId::name, kernel, kFloatDTypes);
#include "runtime/backend/common/conv_ops.def"
#undef AMPS_CONV_OP
}

}  // namespace amps::rt::cuda
