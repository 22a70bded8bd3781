// CPU kernels for the autograd helper ops (index_add, slice/select_backward, pooling
// backwards): plain loops in float64, rounded once into the result dtype.
#include <algorithm>

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// A float64 row-major copy of [t] (or [t] itself when it already is one).
Tensor f64(const Tensor& t) { return contiguous(cast(t, DType::float64)); }

Tensor i64(const Tensor& t) {
  AMPS_CHECK(t.dtype() == DType::int64 || t.dtype() == DType::int32, "index must be an integer tensor, got {}",
             dtype_name(t.dtype()));
  return contiguous(cast(t, DType::int64));
}

// [i] in [-size, size) counted from the end when negative, as the forward ops (index_select, gather, embedding,
// indexing) count it, so their backward accepts the same indices; IndexError otherwise.
int64_t wrapped_index(int64_t i, int64_t size) {
  AMPS_CHECK_INDEX(i >= -size && i < size, "index {} is out of bounds for dimension with size {}", i, size);
  return i < 0 ? i + size : i;
}

// out = input; out[..., index[i], ...] += source[..., i, ...] along dim (negative indices count from the end).
Tensors k_index_add(const ArgReader& a, const KernelContext&) {
  const Tensor& input = a.tensor(0);
  const common::IndexAddLayout l = common::index_add_layout(input, a.i64(1), a.tensor(2), a.tensor(3));
  Tensor res = Tensor::empty(input.sizes(), DType::float64, input.device());
  copy_into(res, input);
  Tensor idx = i64(a.tensor(2)), src = f64(a.tensor(3));
  const int64_t outer = l.l.outer, inner = l.l.inner, n = l.n, size = l.l.size;
  double* o = res.data<double>();
  const double* v = src.data<double>();
  const double alpha = a.scalar(4).to_double();
  std::vector<int64_t> ix = std::vector<int64_t>(size_t(n));  // the index tensor itself (maybe the caller's) is left as it is
  for (int64_t i = 0; i < n; ++i) ix[size_t(i)] = wrapped_index(idx.data<int64_t>()[i], size);
  for (int64_t p = 0; p < outer; ++p)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < inner; ++j) o[(p * size + ix[size_t(i)]) * inner + j] += alpha * v[(p * n + i) * inner + j];
  return one_tensor(cast(res, input.dtype()));
}

Tensors k_slice_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor& g = a.tensor(0);
  Tensor out = Tensor::empty(a.ints(1), g.dtype(), kc.device);
  fill(out, Scalar(0.0));
  copy_into(native::slice(out, a.i64(2), a.opt_i64(3), a.opt_i64(4), a.i64(5)), g);
  return one_tensor(out);
}

Tensors k_select_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor& g = a.tensor(0);
  Tensor out = Tensor::empty(a.ints(1), g.dtype(), kc.device);
  fill(out, Scalar(0.0));
  copy_into(native::select(out, a.i64(2), a.i64(3)), g);
  return one_tensor(out);
}

// One pooling window along one spatial dim: [lo, hi) clipped to the input, and its unclipped size.
struct Window {
  int64_t lo, hi, padded;
};

Window avg_window(int64_t o, int64_t in, int64_t k, int64_t s, int64_t p) {
  int64_t lo = o * s - p, hi = std::min(lo + k, in + p);
  int64_t padded = hi - lo;
  return {std::max<int64_t>(lo, 0), std::min(hi, in), padded};
}

Window adaptive_window(int64_t o, int64_t in, int64_t out) {
  int64_t lo = (o * in) / out, hi = ((o + 1) * in + out - 1) / out;
  return {lo, hi, hi - lo};
}

// Spreads every output gradient of [g] ([planes, OH, OW]) evenly over its window (divisor from [div]).
template <typename WinH, typename WinW, typename Div>
Tensor spread(const Tensor& g, const Dims& in_sizes, DType dt, WinH wh, WinW ww, Div div) {
  const int64_t H = in_sizes[in_sizes.size() - 2], W = in_sizes.back();
  const int64_t OH = g.size(-2), OW = g.size(-1), planes = g.numel() / std::max<int64_t>(OH * OW, 1);
  Tensor gv = f64(g);
  Tensor res = Tensor::empty(in_sizes, DType::float64, g.device());
  fill(res, Scalar(0.0));
  const double* gp = gv.data<double>();
  double* r = res.data<double>();
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        Window h = wh(oh), w = ww(ow);
        double share = gp[(pl * OH + oh) * OW + ow] / div(h, w);
        for (int64_t y = h.lo; y < h.hi; ++y)
          for (int64_t x = w.lo; x < w.hi; ++x) r[(pl * H + y) * W + x] += share;
      }
  return cast(res, dt);
}

Tensors k_avg_pool2d_backward(const ArgReader& a, const KernelContext&) {
  const Tensor& g = a.tensor(0);
  const common::AvgPoolBackward b = common::read_avg_pool_backward(a);
  const Dims &in = b.in, &k = b.kernel, &s = b.stride, &p = b.padding;
  const int64_t H = in[in.size() - 2], W = in.back();
  auto wh = [&](int64_t o) { return avg_window(o, H, k[0], s[0], p[0]); };
  auto ww = [&](int64_t o) { return avg_window(o, W, k[1], s[1], p[1]); };
  auto div = [&](const Window& h, const Window& w) {
    if (b.divisor) return double(*b.divisor);
    return b.count_include_pad ? double(h.padded * w.padded) : double((h.hi - h.lo) * (w.hi - w.lo));
  };
  return {spread(g, in, g.dtype(), wh, ww, div)};
}

Tensors k_adaptive_avg_pool2d_backward(const ArgReader& a, const KernelContext&) {
  const Tensor& g = a.tensor(0);
  Dims in = a.ints(1);
  const int64_t H = in[in.size() - 2], W = in.back(), OH = g.size(-2), OW = g.size(-1);
  auto wh = [&](int64_t o) { return adaptive_window(o, H, OH); };
  auto ww = [&](int64_t o) { return adaptive_window(o, W, OW); };
  auto div = [](const Window& h, const Window& w) { return double(h.padded * w.padded); };
  return {spread(g, in, g.dtype(), wh, ww, div)};
}

}  // namespace

void register_grad_kernels(KernelTable& t) {
  t.add(OpId::index_add, k_index_add, kNumericDTypes);  // computed in double
  t.add(OpId::slice_backward, k_slice_backward, kFloatDTypes);
  t.add(OpId::select_backward, k_select_backward, kFloatDTypes);
  t.add(OpId::avg_pool2d_backward, k_avg_pool2d_backward, kFloatDTypes);
  t.add(OpId::adaptive_avg_pool2d_backward, k_adaptive_avg_pool2d_backward, kFloatDTypes);
}

}  // namespace amps::rt::cpu
