// CPU kernels for conv{1,2,3}d and conv_transpose{1,2,3}d on oneDNN (float32/bfloat16/float16) and the
// float64 reference loops, with PyTorch's shape checks and output-size formulas. Unbatched inputs get a
// batch dim added and removed.
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

Dims conv_out_shape(const ConvCall& c) {
  const int64_t cout = c.p.transposed ? c.weight.size(1) * c.p.groups : c.weight.size(0);
  Dims out{c.input.size(0), cout};
  for (size_t i = 0; i < c.nd; ++i) {
    const int64_t in = c.input.size(int64_t(i) + 2), k = c.weight.size(int64_t(i) + 2);
    const int64_t s = c.p.stride[i], pd = c.p.padding[i], d = c.p.dilation[i];
    int64_t o = c.p.transposed ? (in - 1) * s - 2 * pd + d * (k - 1) + c.p.output_padding[i] + 1
                               : (in + 2 * pd - d * (k - 1) - 1) / s + 1;
    AMPS_CHECK(o > 0, "Calculated output size is too small: input {} with kernel {} gives {}",
               format_shape(c.input.sizes()), format_shape(c.weight.sizes()), o);
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
  Tensor out = Tensor::empty(conv_out_shape(c), c.input.dtype(), dev);
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

}  // namespace

void register_conv_kernels(KernelTable& t) {
  const uint32_t types = kFloatDTypes;
  t.add(OpId::conv1d, k_conv<1>, types);
  t.add(OpId::conv2d, k_conv<2>, types);
  t.add(OpId::conv3d, k_conv<3>, types);
  t.add(OpId::conv_transpose1d, k_conv_transpose<1>, types);
  t.add(OpId::conv_transpose2d, k_conv_transpose<2>, types);
  t.add(OpId::conv_transpose3d, k_conv_transpose<3>, types);
}

}  // namespace amps::rt::cpu
