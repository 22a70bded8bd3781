// CPU kernels for max/avg pooling (oneDNN for float32/bfloat16/float16, float64 reference loops, which also
// serve divisor_override) and adaptive average pooling (loops).
#include <cmath>

#include "runtime/backend/cpu/conv_pool_ref.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_pool.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// PyTorch's pooling output size, including ceil_mode's "last window must start inside" rule.
int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  int64_t o = num / s + 1;
  if (ceil_mode && (o - 1) * s >= in + p) --o;
  return o;
}

struct Pool {
  Tensor input;
  dnnl_cpu::PoolParams p;
  bool ceil_mode = false;
  std::optional<int64_t> divisor;  // avg_pool2d's divisor_override
};

Pool read_pool(const ArgReader& a, bool max) {
  Pool r;
  r.input = a.tensor(0);
  r.p.kernel = a.ints(1, 2);
  Dims stride = a.ints(2);
  r.p.stride = stride.empty() ? r.p.kernel : expand_param(stride, 2, op_name(a.op()), "stride");
  r.p.padding = a.ints(3, 2);
  r.p.max = max;
  r.p.dilation = max ? a.ints(4, 2) : Dims{1, 1};
  r.ceil_mode = a.boolean(max ? 5 : 4);
  if (!max) r.p.count_include_pad = a.boolean(5);
  if (!max) r.divisor = a.opt_i64(6);
  AMPS_CHECK(!r.divisor || *r.divisor != 0, "divisor must be not zero");
  for (size_t i = 0; i < 2; ++i)
    AMPS_CHECK(r.p.padding[i] * 2 <= r.p.kernel[i], "pad should be at most half of effective kernel size, but got "
               "pad={}, kernel_size={}", r.p.padding[i], r.p.kernel[i]);
  return r;
}

// PyTorch's output shape [N, C, OH, OW] for the batched input [x].
Dims pool_shape(OpId op, const Pool& pl, const Tensor& x) {
  AMPS_CHECK(x.dim() == 4, "{}: Expected 3D or 4D (batch mode) tensor for input, got {}", op_name(op),
             format_shape(pl.input.sizes()));
  Dims shape{x.size(0), x.size(1)};
  for (size_t i = 0; i < 2; ++i) {
    int64_t o = pool_out(x.size(int64_t(i) + 2), pl.p.kernel[i], pl.p.stride[i], pl.p.padding[i],
                         pl.p.max ? pl.p.dilation[i] : 1, pl.ceil_mode);
    AMPS_CHECK(o > 0, "{}: Given input size {}, calculated output size is too small", op_name(op),
               format_shape(pl.input.sizes()));
    shape.push_back(o);
  }
  return shape;
}

struct PoolOut {
  Tensor out, indices;  // indices: max pooling's flat per-plane argmax, when asked for
};

PoolOut dnnl_pool(const Pool& pl, const Tensor& x, const Dims& shape, Device dev, bool want_indices) {
  Tensor out = Tensor::empty(shape, x.dtype(), dev), ws, idx;
  if (want_indices) {
    ws = Tensor::empty({dnnl_cpu::pool_workspace_bytes(pl.p, dnnl_arg(x), dnnl_arg(out))}, DType::bool_, dev);
    idx = Tensor::empty(shape, DType::int64, dev);
  }
  if (out.numel() == 0) return {out, idx};
  dnnl_cpu::pool_forward(pl.p, dnnl_arg(x), dnnl_arg(out), ws.defined() ? ws.raw_data() : nullptr);
  if (want_indices) dnnl_cpu::pool_indices(pl.p, x.sizes(), shape, ws.raw_data(), idx.data<int64_t>());
  return {out, idx};
}

// The float64 loops; other dtypes (divisor_override) compute in float64 and round once.
PoolOut ref_pool(const Pool& pl, const Tensor& x, const Dims& shape, Device dev, bool want_indices) {
  Tensor out = Tensor::empty(shape, DType::float64, dev);
  Tensor idx = want_indices ? Tensor::empty(shape, DType::int64, dev) : Tensor();
  ref::pool2d(pl.p, pl.divisor, contiguous(cast(x, DType::float64)), out, idx);
  return {cast(out, x.dtype()), idx};
}

// Runs the pool on a batched [N, C, H, W] view of the input; unbatched inputs get their dim back.
PoolOut run_pool(OpId op, const Pool& pl, Device dev, bool want_indices) {
  Tensor x = pl.input.dim() == 3 ? native::unsqueeze(pl.input, 0) : pl.input;
  Dims shape = pool_shape(op, pl, x);
  const bool ref = x.dtype() == DType::float64 || pl.divisor.has_value();
  PoolOut r = ref ? ref_pool(pl, x, shape, dev, want_indices) : dnnl_pool(pl, x, shape, dev, want_indices);
  if (pl.input.dim() != 3) return r;
  return {native::squeeze(r.out, {0}), r.indices.defined() ? native::squeeze(r.indices, {0}) : Tensor()};
}

Tensors k_max_pool2d(const ArgReader& a, const KernelContext& kc) {
  return {run_pool(a.op(), read_pool(a, true), kc.device, false).out};
}

Tensors k_max_pool2d_with_indices(const ArgReader& a, const KernelContext& kc) {
  PoolOut r = run_pool(a.op(), read_pool(a, true), kc.device, true);
  return {r.out, r.indices};
}

Tensors k_avg_pool2d(const ArgReader& a, const KernelContext& kc) {
  return {run_pool(a.op(), read_pool(a, false), kc.device, false).out};
}

// Adaptive average pooling: output cell i covers [floor(i*in/out), ceil((i+1)*in/out)).
Tensors k_adaptive_avg_pool2d(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  Dims os = a.ints(1, 2);
  AMPS_CHECK(x.dim() == 3 || x.dim() == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {}",
             format_shape(x.sizes()));
  Tensor x4 = contiguous(cast(x.dim() == 3 ? native::unsqueeze(x, 0) : x, DType::float64));
  const int64_t planes = x4.size(0) * x4.size(1), H = x4.size(2), W = x4.size(3), OH = os[0], OW = os[1];
  Tensor res = Tensor::empty({x4.size(0), x4.size(1), OH, OW}, DType::float64, kc.device);
  const double* in = x4.data<double>();
  double* o = res.data<double>();
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        int64_t h0 = i * H / OH, h1 = ((i + 1) * H + OH - 1) / OH, w0 = j * W / OW, w1 = ((j + 1) * W + OW - 1) / OW;
        double s = 0;
        for (int64_t h = h0; h < h1; ++h)
          for (int64_t w = w0; w < w1; ++w) s += in[(p * H + h) * W + w];
        o[(p * OH + i) * OW + j] = s / double((h1 - h0) * (w1 - w0));
      }
  Tensor out = cast(res, x.dtype());
  return {x.dim() == 3 ? native::squeeze(out, {0}) : out};
}

}  // namespace

void register_pool_kernels(KernelTable& t) {
  const uint32_t types = kFloatDTypes;
  t.add(OpId::max_pool2d, k_max_pool2d, types);
  t.add(OpId::max_pool2d_with_indices, k_max_pool2d_with_indices, types);
  t.add(OpId::avg_pool2d, k_avg_pool2d, types);
  t.add(OpId::adaptive_avg_pool2d, k_adaptive_avg_pool2d, kFloatDTypes);
}

}  // namespace amps::rt::cpu
