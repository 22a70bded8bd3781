// CPU kernels for conv{1,2,3}d, conv_transpose{1,2,3}d and their backward ops on oneDNN (float32/bfloat16/
// float16) and the float64 reference loops, with PyTorch's shape checks and output-size formulas. Unbatched
// forward inputs get a batch dim added and removed.
#include "runtime/backend/cpu/conv_pool_ref.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_conv.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

struct ConvCall {
  Tensor input, weight, bias;
  dnnl_cpu::ConvParams p;
  size_t nd;
};

void check_conv(OpId op, const ConvCall& c) {
  AMPS_CHECK(c.weight.dim() == int64_t(c.nd) + 2, "{}: expected weight to be {}-D, got {}-D with shape {}",
             op_name(op), c.nd + 2, c.weight.dim(), format_shape(c.weight.sizes()));
  AMPS_CHECK(c.input.dtype() == c.weight.dtype(), "{}: Input type ({}) and weight type ({}) should be the same",
             op_name(op), dtype_name(c.input.dtype()), dtype_name(c.weight.dtype()));
  const int64_t groups = c.p.groups, cin = c.input.size(1);
  const int64_t expect = c.p.transposed ? c.weight.size(0) : c.weight.size(1) * groups;
  AMPS_CHECK(groups > 0 && cin == expect, "Given groups={}, weight of size [{}], expected input[{}] to have {} "
             "channels, but got {} channels instead", groups, fmt::join(c.weight.sizes(), ", "),
             fmt::join(c.input.sizes(), ", "), expect, cin);
}

// PyTorch's output shape of a convolution of [in] with weight [w] (both batched/full rank).
Dims conv_out_shape(const Dims& in, const Dims& w, const dnnl_cpu::ConvParams& p) {
  const int64_t cout = p.transposed ? w[1] * p.groups : w[0];
  Dims out{in[0], cout};
  for (size_t i = 0; i + 2 < in.size(); ++i) {
    const int64_t k = w[i + 2], s = p.stride[i], pd = p.padding[i], d = p.dilation[i];
    int64_t o = p.transposed ? (in[i + 2] - 1) * s - 2 * pd + d * (k - 1) + p.output_padding[i] + 1
                             : (in[i + 2] + 2 * pd - d * (k - 1) - 1) / s + 1;
    AMPS_CHECK(o > 0, "Calculated output size is too small: input {} with kernel {} gives {}", format_shape(in),
               format_shape(w), o);
    out.push_back(o);
  }
  return out;
}

Tensor run_conv(OpId op, ConvCall c, Device dev) {
  const bool unbatched = c.input.dim() == int64_t(c.nd) + 1;
  if (unbatched) c.input = native::unsqueeze(c.input, 0);
  AMPS_CHECK(c.input.dim() == int64_t(c.nd) + 2, "{}: Expected {}D (unbatched) or {}D (batched) input, but got "
             "input of size: {}", op_name(op), c.nd + 1, c.nd + 2, format_shape(c.input.sizes()));
  check_conv(op, c);
  Tensor out = Tensor::empty(conv_out_shape(c.input.sizes(), c.weight.sizes(), c.p), c.input.dtype(), dev);
  Tensor bias = c.bias.defined() ? contiguous(cast(c.bias, c.input.dtype())) : Tensor();
  std::optional<dnnl_cpu::DnnlArg> barg;
  if (bias.defined() && dnnl_dtype_ok(bias.dtype())) barg = dnnl_arg(bias);
  if (out.numel() > 0 && c.input.dtype() == DType::float64)
    ref::conv(c.p, contiguous(c.input), contiguous(c.weight), bias, out);
  else if (out.numel() > 0)
    dnnl_cpu::conv_forward(c.p, dnnl_arg(c.input), dnnl_arg(c.weight), barg ? &*barg : nullptr, dnnl_arg(out));
  return unbatched ? native::squeeze(out, {0}) : out;
}

// conv{N}d(input, weight, bias, stride, padding, dilation, groups)
template <size_t N> Tensors k_conv(const ArgReader& a, const KernelContext& kc) {
  ConvCall c{a.tensor(0), a.tensor(1), a.opt_tensor(2), {}, N};
  c.p.stride = a.ints(3, N);
  c.p.padding = a.ints(4, N);
  c.p.dilation = a.ints(5, N);
  c.p.groups = a.i64(6);
  return {run_conv(a.op(), c, kc.device)};
}

// conv_transpose{N}d(input, weight, bias, stride, padding, output_padding, groups, dilation)
template <size_t N> Tensors k_conv_transpose(const ArgReader& a, const KernelContext& kc) {
  ConvCall c{a.tensor(0), a.tensor(1), a.opt_tensor(2), {}, N};
  c.p.stride = a.ints(3, N);
  c.p.padding = a.ints(4, N);
  c.p.output_padding = a.ints(5, N);
  c.p.groups = a.i64(6);
  c.p.dilation = a.ints(7, N);
  c.p.transposed = true;
  return {run_conv(a.op(), c, kc.device)};
}

// ---- backward ops (batched only; the autograd rule adds and removes the batch dim) ----

// stride, padding, dilation, transposed, output_padding, groups of a convolution_backward_* call, with
// [nd] spatial dims; the grad_output's shape must be the forward's output shape.
dnnl_cpu::ConvParams backward_params(const ArgReader& a, size_t nd) {
  dnnl_cpu::ConvParams p;
  p.stride = a.ints(3, nd);
  p.padding = a.ints(4, nd);
  p.dilation = a.ints(5, nd);
  p.transposed = a.boolean(6);
  p.output_padding = p.transposed ? a.ints(7, nd) : Dims(nd, 0);
  p.groups = a.i64(8);
  AMPS_CHECK(p.groups > 0, "{}: non-positive groups is not supported", op_name(a.op()));
  return p;
}

void check_backward_shapes(OpId op, const Dims& in, const Dims& w, const Tensor& g, const dnnl_cpu::ConvParams& p) {
  AMPS_CHECK(in.size() == w.size() && g.dim() == int64_t(w.size()) && w.size() >= 3 && w.size() <= 5,
             "{}: expected batched input, weight and grad_output of equal rank 3 to 5", op_name(op));
  const int64_t cin = p.transposed ? w[0] : w[1] * p.groups;
  AMPS_CHECK(in[1] == cin && w[0] % p.groups == 0, "{}: input of size {} does not fit weight {} with groups={}",
             op_name(op), format_shape(in), format_shape(w), p.groups);
  Dims want = conv_out_shape(in, w, p);
  AMPS_CHECK(g.sizes() == want, "{}: grad_output has shape {}, expected {}", op_name(op), format_shape(g.sizes()),
             format_shape(want));
}

// [t] cast to [dt] and row-major (the float64 loops read plain arrays).
Tensor dense(const Tensor& t, DType dt) { return contiguous(cast(t, dt)); }

// convolution_backward_input(grad_output, weight, input_sizes, stride, padding, dilation, transposed,
// output_padding, groups)
Tensors k_conv_backward_input(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), w = a.tensor(1);
  const Dims in = a.ints(2);
  const dnnl_cpu::ConvParams p = backward_params(a, size_t(std::max<int64_t>(w.dim() - 2, 0)));
  check_backward_shapes(a.op(), in, w.sizes(), g, p);
  const DType dt = promote(g.dtype(), w.dtype());
  Tensor gi = Tensor::empty(in, dt, kc.device);
  if (gi.numel() == 0) return {gi};
  if (g.numel() == 0 || w.numel() == 0) fill(gi, Scalar(0.0));
  else if (dt == DType::float64) ref::conv_backward_data(p, dense(g, dt), dense(w, dt), gi);
  else dnnl_cpu::conv_backward_data(p, dnnl_arg(cast(g, dt)), dnnl_arg(cast(w, dt)), dnnl_arg(gi));
  return {gi};
}

// convolution_backward_weight(grad_output, input, weight_sizes, ...) -> (grad_weight, grad_bias)
Tensors k_conv_backward_weight(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  const Dims ws = a.ints(2);
  const dnnl_cpu::ConvParams p = backward_params(a, size_t(std::max<int64_t>(x.dim() - 2, 0)));
  check_backward_shapes(a.op(), x.sizes(), ws, g, p);
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
  const uint32_t types = kFloatDTypes;
  t.add(OpId::conv1d, k_conv<1>, types);
  t.add(OpId::conv2d, k_conv<2>, types);
  t.add(OpId::conv3d, k_conv<3>, types);
  t.add(OpId::conv_transpose1d, k_conv_transpose<1>, types);
  t.add(OpId::conv_transpose2d, k_conv_transpose<2>, types);
  t.add(OpId::conv_transpose3d, k_conv_transpose<3>, types);
  t.add(OpId::convolution_backward_input, k_conv_backward_input, types);
  t.add(OpId::convolution_backward_weight, k_conv_backward_weight, types);
}

}  // namespace amps::rt::cpu
