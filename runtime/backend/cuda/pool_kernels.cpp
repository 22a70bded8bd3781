// CUDA kernels for 2-D pooling (pool.cu): max pooling (forward, argmax indices, backward), average and adaptive
// average pooling and their backwards, with the CPU backend's argument handling and shapes (common/conv_pool_args)
// and its arithmetic (the argmax scan; averages in double, rounded once). Inputs are made contiguous first.
#include <algorithm>

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cuda {
namespace {

// The geometry of pooling [p] from input sizes [in] (3-D or 4-D) to output sizes [out] (the same rank).
PoolGeo geo(const Dims& in, const Dims& out, const common::PoolParams& p) {
  PoolGeo g;
  g.H = in[in.size() - 2], g.W = in.back(), g.OH = out[out.size() - 2], g.OW = out.back();
  g.planes = numel_of(Dims(in.begin(), in.end() - 2));
  g.kh = p.kernel[0], g.kw = p.kernel[1], g.sh = p.stride[0], g.sw = p.stride[1];
  g.ph = p.padding[0], g.pw = p.padding[1];
  if (!p.dilation.empty()) g.dh = p.dilation[0], g.dw = p.dilation[1];
  return g;
}

// ---- max pooling ----
Tensors max_pool(const ArgReader& a, const KernelContext& kc, bool want_indices) {
  const common::Pool pl = common::read_pool(a, true);
  const Dims shape = common::pool_out_shape(a.op(), pl);
  Tensor x = contiguous(pl.input), out = Tensor::empty(shape, x.dtype(), kc.device);
  Tensor idx = want_indices ? Tensor::empty(shape, DType::int64, kc.device) : Tensor();
  check(launch_max_pool(stream(kc.device), elem(x.dtype()), geo(x.sizes(), shape, pl.p), device_data(x),
                        device_data(out), want_indices ? static_cast<int64_t*>(device_data(idx)) : nullptr),
        "max_pool2d");
  return want_indices ? Tensors{out, idx} : Tensors{out};
}

Tensors k_max_pool2d(const ArgReader& a, const KernelContext& kc) { return max_pool(a, kc, false); }
Tensors k_max_pool2d_with_indices(const ArgReader& a, const KernelContext& kc) { return max_pool(a, kc, true); }

// max_pool2d_backward(grad_output, input, kernel_size, stride, padding, dilation, ceil_mode): the argmaxes found
// again in the input (the forward's scan), then gathered per input element.
Tensors k_max_pool2d_backward(const ArgReader& a, const KernelContext& kc) {
  const common::Pool pl = common::read_pool(a, true, 1);
  const Dims shape = common::pool_out_shape(a.op(), pl);
  Tensor go = a.tensor(0);
  AMPS_CHECK(go.sizes() == shape, "max_pool2d_backward: grad_output has shape {}, expected {}",
             format_shape(go.sizes()), format_shape(shape));
  go = contiguous(go);
  Tensor x = contiguous(cast(pl.input, go.dtype())), gi = Tensor::empty(x.sizes(), go.dtype(), kc.device);
  Tensor idx = Tensor::empty(shape, DType::int64, kc.device);
  const PoolGeo g = geo(x.sizes(), shape, pl.p);
  int64_t* ip = static_cast<int64_t*>(device_data(idx));
  check(launch_max_pool(stream(kc.device), elem(x.dtype()), g, device_data(x), nullptr, ip), "max_pool2d_backward");
  check(launch_max_pool_backward(stream(kc.device), elem(gi.dtype()), g, device_data(go), ip, device_data(gi)),
        "max_pool2d_backward");
  return one_tensor(gi);
}

// ---- average pooling ----
Tensors k_avg_pool2d(const ArgReader& a, const KernelContext& kc) {
  const common::Pool pl = common::read_pool(a, false);
  const Dims shape = common::pool_out_shape(a.op(), pl);
  Tensor x = contiguous(pl.input), out = Tensor::empty(shape, x.dtype(), kc.device);
  check(launch_avg_pool(stream(kc.device), elem(x.dtype()), geo(x.sizes(), shape, pl.p), pl.p.count_include_pad,
                        pl.divisor.value_or(0), device_data(x), device_data(out)), "avg_pool2d");
  return one_tensor(out);
}

// The output gradient of a pooling backward, contiguous; it must have the planes of the input [sizes] it spreads into.
Tensor pool_grad(const Tensor& g, const Dims& sizes, const char* op) {
  const bool fits = g.dim() >= 2 && int64_t(sizes.size()) == g.dim() &&
                    std::equal(sizes.begin(), sizes.end() - 2, g.sizes().begin());
  AMPS_CHECK(fits, "{}: grad_output of shape {} does not fit input sizes {}", op, format_shape(g.sizes()),
             format_shape(sizes));
  return contiguous(g);
}

// avg_pool2d_backward(grad_output, input_sizes, kernel_size, stride, padding, ceil_mode, count_include_pad,
// divisor_override)
Tensors k_avg_pool2d_backward(const ArgReader& a, const KernelContext& kc) {
  const common::AvgPoolBackward b = common::read_avg_pool_backward(a);
  Tensor go = pool_grad(a.tensor(0), b.in, "avg_pool2d_backward"), gi = Tensor::empty(b.in, go.dtype(), kc.device);
  common::PoolParams p;
  p.kernel = b.kernel, p.stride = b.stride, p.padding = b.padding;
  check(launch_avg_pool_backward(stream(kc.device), elem(go.dtype()), geo(b.in, go.sizes(), p), b.count_include_pad,
                                 b.divisor.value_or(0), device_data(go), device_data(gi)), "avg_pool2d_backward");
  return {gi};
}

// ---- adaptive average pooling ----
const common::PoolParams kUnitWindow{{1, 1}, {1, 1}, {0, 0}, {1, 1}, false, true};

Tensors k_adaptive_avg_pool2d(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  const Dims os = a.ints(1, 2);
  AMPS_CHECK(x.dim() == 3 || x.dim() == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {}",
             format_shape(x.sizes()));
  Dims shape(x.sizes().begin(), x.sizes().end() - 2);
  shape.push_back(os[0]);
  shape.push_back(os[1]);
  Tensor xc = contiguous(x), out = Tensor::empty(shape, x.dtype(), kc.device);
  check(launch_adaptive_avg_pool(stream(kc.device), elem(x.dtype()), geo(x.sizes(), shape, kUnitWindow),
                                 device_data(xc), device_data(out)), "adaptive_avg_pool2d");
  return {out};
}

// adaptive_avg_pool2d_backward(grad_output, input_sizes)
Tensors k_adaptive_avg_pool2d_backward(const ArgReader& a, const KernelContext& kc) {
  const Dims in = a.ints(1);
  Tensor go = pool_grad(a.tensor(0), in, "adaptive_avg_pool2d_backward"), gi = Tensor::empty(in, go.dtype(), kc.device);
  check(launch_adaptive_avg_pool_backward(stream(kc.device), elem(go.dtype()), geo(in, go.sizes(), kUnitWindow),
                                          device_data(go), device_data(gi)), "adaptive_avg_pool2d_backward");
  return {gi};
}

}  // namespace

void register_pool_kernels(KernelTable& t) {
  const uint32_t types = kFloatDTypes;
  t.add(OpId::max_pool2d, k_max_pool2d, types);
  t.add(OpId::max_pool2d_with_indices, k_max_pool2d_with_indices, types);
  t.add(OpId::max_pool2d_backward, k_max_pool2d_backward, types);
  t.add(OpId::avg_pool2d, k_avg_pool2d, types);
  t.add(OpId::avg_pool2d_backward, k_avg_pool2d_backward, types);
  t.add(OpId::adaptive_avg_pool2d, k_adaptive_avg_pool2d, types);
  t.add(OpId::adaptive_avg_pool2d_backward, k_adaptive_avg_pool2d_backward, types);
}

}  // namespace amps::rt::cuda
