// CPU kernels for 2-D pooling: max pooling (forward, argmax indices, backward) in native loops over every
// float dtype; average pooling on oneDNN for float32/bfloat16/float16 and float64 reference loops (which
// also serve divisor_override); adaptive average pooling (loops).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/cpu/conv_pool_ref.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_pool.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/max_pool_simd.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/half.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

using common::Pool;
using common::pool_shape;
using common::read_pool;

// Average pooling on oneDNN (float32/bfloat16/float16) or the float64 loops (float64, divisor_override:
// other dtypes compute in float64 and round once); unbatched inputs get their batch dim back.
Tensor run_avg_pool(OpId op, const Pool& pl, Device dev) {
  Tensor x = pl.input.dim() == 3 ? native::unsqueeze(pl.input, 0) : pl.input;
  Dims shape = pool_shape(op, pl, x);
  Tensor out;
  if (x.dtype() == DType::float64 || pl.divisor.has_value()) {
    Tensor o64 = Tensor::empty(shape, DType::float64, dev);
    ref::pool2d(pl.p, pl.divisor, contiguous(cast(x, DType::float64)), o64);
    out = cast(o64, x.dtype());
  } else {
    out = Tensor::empty(shape, x.dtype(), dev);
    if (out.numel() > 0) dnnl_cpu::pool_forward(pl.p, dnnl_arg(x), dnnl_arg(out), nullptr);
  }
  return pl.input.dim() == 3 ? native::squeeze(out, {0}) : out;
}

// ---- max pooling: planes of [H, W], one task per plane; values are compared in the compute type and
// copied (never rounded). Forward, indices and backward find a window's argmax with the same scan, so
// max_pool2d_backward routes gradients exactly where max_pool2d_with_indices points.
struct MaxGeo {
  int64_t H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t planes;
  // Windows of distinct outputs share no input element: the backward writes instead of accumulating.
  bool disjoint() const { return sh >= (kh - 1) * dh + 1 && sw >= (kw - 1) * dw + 1; }
};

MaxGeo max_geo(const Pool& pl, const Tensor& x, const Dims& out_shape) {
  const int64_t H = x.size(-2), W = x.size(-1);
  const dnnl_cpu::PoolParams& p = pl.p;
  return {H, W, out_shape[out_shape.size() - 2], out_shape.back(), p.kernel[0], p.kernel[1], p.stride[0],
          p.stride[1], p.padding[0], p.padding[1], p.dilation[0], p.dilation[1], x.numel() / std::max<int64_t>(H * W, 1)};
}

// Flat plane index of the max of output (oh, ow)'s window: PyTorch's row-major scan, where a larger value
// or a NaN takes over (so NaN propagates). Every window holds an input element (padding <= kernel / 2).
template <typename T> int64_t window_argmax(const T* x, const MaxGeo& g, int64_t oh, int64_t ow) {
  using C = compute_t<T>;
  const int64_t h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
  int64_t at = -1;
  C best = C(0);
  for (int64_t i = 0, h = h0; i < g.kh; ++i, h += g.dh) {
    if (h < 0 || h >= g.H) continue;
    for (int64_t j = 0, w = w0; j < g.kw; ++j, w += g.dw) {
      if (w < 0 || w >= g.W) continue;
      const C v = C(x[h * g.W + w]);
      if (at < 0 || v > best || v != v) best = v, at = h * g.W + w;
    }
  }
  return at;
}

// Runs f(begin, end) over ranges of planes, in parallel when there is enough work.
template <typename F> void for_planes(const MaxGeo& g, F&& f) {
  const int64_t work = std::max<int64_t>(1, g.OH * g.OW * g.kh * g.kw);
  parallel_for(g.planes, std::max<int64_t>(1, kParallelGrain / work), f);
}

// The outputs [lo, hi) along one axis whose windows lie wholly inside the input.
std::pair<int64_t, int64_t> inside(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, int64_t d) {
  const int64_t lo = std::min(out, (p + s - 1) / s), last = in - 1 - (k - 1) * d + p;
  return {lo, last < 0 ? lo : std::clamp(last / s + 1, lo, out)};
}

// at[o] for the [n] windows starting at flat indices k0 + o * sw of the compute-type values [v], each wholly inside
// the plane, [offsets] the window's positions from its start in PyTorch's row-major scan order (a larger value or
// a NaN takes over). Each position is taken for all the windows at once: that loop over outputs vectorises, where a
// per-window scan's data-dependent selects compile to branches that mispredict on real data. best: n scratch values.
template <typename C>
void scan_windows(const C* v, int64_t k0, int64_t n, int64_t sw, const std::vector<int64_t>& offsets, C* best,
                  int64_t* at) {
  for (int64_t o = 0; o < n; ++o) best[o] = v[k0 + o * sw], at[o] = k0 + o * sw;
  for (size_t q = 1; q < offsets.size(); ++q) {
    const int64_t off = offsets[q];
    for (int64_t o = 0; o < n; ++o) {
      const int64_t k = k0 + o * sw + off;
      const C x = v[k];
      const bool take = (x > best[o]) | (x != x);
      best[o] = take ? x : best[o];
      at[o] = take ? k : at[o];
    }
  }
}

// row[ow] for the outputs [lo, hi) of output row [oh], whose windows lie inside the plane.
template <typename C>
void inner_row(const C* v, const MaxGeo& g, int64_t oh, int64_t lo, int64_t hi, int64_t* row, std::vector<C>& best) {
  if (hi <= lo) return;
  const int64_t k0 = (oh * g.sh - g.ph) * g.W + lo * g.sw - g.pw;
  if constexpr (std::is_same_v<C, float>) {
    const bool two = g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.dh == 1 && g.dw == 1;
    if (two && g.H * g.W < (int64_t(1) << 31)) return argmax_2x2_stride2(v, g.W, k0, hi - lo, row + lo);
  }
  std::vector<int64_t> offsets;
  for (int64_t i = 0; i < g.kh; ++i)
    for (int64_t j = 0; j < g.kw; ++j) offsets.push_back(i * g.dh * g.W + j * g.dw);
  best.resize(size_t(hi - lo));
  vectorized([&] { scan_windows(v, k0, hi - lo, g.sw, offsets, best.data(), row + lo); });
}

// [plane] as compute-type values: half types convert in bulk into [buf], the others are read in place.
template <typename T> const compute_t<T>* plane_values(const T* plane, int64_t n, std::vector<compute_t<T>>& buf) {
  if constexpr (std::is_same_v<T, compute_t<T>>) {
    return plane;
  } else {
    buf.resize(size_t(n));
    if constexpr (std::is_same_v<T, BFloat16>) convert_bf16_to_float(plane, buf.data(), n);
    else convert_half_to_float(plane, buf.data(), n);
    return buf.data();
  }
}

// at[o] = window_argmax(plane, g, o / OW, o % OW) for every output o of one plane: windows inside the
// plane scan the bulk-converted values without bounds checks, border windows take window_argmax.
template <typename T> void plane_argmax(const T* plane, const MaxGeo& g, std::vector<compute_t<T>>& buf, int64_t* at) {
  thread_local std::vector<compute_t<T>> best;  // inner_row's scratch
  const compute_t<T>* v = plane_values(plane, g.H * g.W, buf);
  const auto [h_lo, h_hi] = inside(g.H, g.OH, g.kh, g.sh, g.ph, g.dh);
  const auto [w_lo, w_hi] = inside(g.W, g.OW, g.kw, g.sw, g.pw, g.dw);
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    int64_t* row = at + oh * g.OW;
    const bool mid = oh >= h_lo && oh < h_hi;
    const int64_t lo = mid ? w_lo : g.OW, hi = mid ? w_hi : g.OW;
    for (int64_t ow = 0; ow < lo; ++ow) row[ow] = window_argmax(plane, g, oh, ow);
    inner_row(v, g, oh, lo, hi, row, best);
    for (int64_t ow = hi; ow < g.OW; ++ow) row[ow] = window_argmax(plane, g, oh, ow);
  }
}

// out (and idx, when given) from the contiguous input [x].
template <typename T> void max_pool_forward(const Tensor& x, const MaxGeo& g, const Tensor& out, int64_t* idx) {
  const T* xp = x.data<T>();
  T* op = out.data<T>();
  const int64_t ohw = g.OH * g.OW;
  for_planes(g, [&](int64_t b, int64_t e) {
    std::vector<compute_t<T>> buf;
    std::vector<int64_t> at(size_t(ohw), 0);
    for (int64_t p = b; p < e; ++p) {
      const T* plane = xp + p * g.H * g.W;
      plane_argmax(plane, g, buf, at.data());
      for (int64_t o = 0; o < ohw; ++o) op[p * ohw + o] = plane[at[size_t(o)]];
      if (idx) std::copy(at.begin(), at.end(), idx + p * ohw);
    }
  });
}

// grad_input from the contiguous input [x] and grad_output [go]: each output's gradient goes to its
// window's argmax. Overlapping windows accumulate per plane in float64 and round once.
template <typename T> void max_pool_backward(const Tensor& x, const Tensor& go, const MaxGeo& g, const Tensor& gi) {
  const T *xp = x.data<T>(), *gp = go.data<T>();
  T* ip = gi.data<T>();
  const int64_t hw = g.H * g.W, ohw = g.OH * g.OW;
  const bool disjoint = g.disjoint();
  for_planes(g, [&](int64_t b, int64_t e) {
    std::vector<compute_t<T>> buf;
    std::vector<int64_t> at(size_t(ohw), 0);
    std::vector<double> acc(disjoint ? 0 : size_t(hw));
    for (int64_t p = b; p < e; ++p) {
      plane_argmax(xp + p * hw, g, buf, at.data());
      T* dst = ip + p * hw;
      const T* src = gp + p * ohw;
      if (disjoint) {
        std::memset(static_cast<void*>(dst), 0, size_t(hw) * sizeof(T));
        for (int64_t o = 0; o < ohw; ++o) dst[at[size_t(o)]] = src[o];
        continue;
      }
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int64_t o = 0; o < ohw; ++o) acc[size_t(at[size_t(o)])] += double(src[o]);
      for (int64_t i = 0; i < hw; ++i) dst[i] = T(acc[size_t(i)]);
    }
  });
}

Tensors max_pool(const ArgReader& a, const KernelContext& kc, bool want_indices) {
  Pool pl = read_pool(a, true);
  Dims shape = common::pool_out_shape(a.op(), pl);
  Tensor x = contiguous(pl.input), out = Tensor::empty(shape, x.dtype(), kc.device);
  Tensor idx = want_indices ? Tensor::empty(shape, DType::int64, kc.device) : Tensor();
  const MaxGeo g = max_geo(pl, x, shape);
  if (out.numel() > 0)
    AMPS_DISPATCH_FLOAT(x.dtype(), "max_pool2d", T, [&] {
      max_pool_forward<T>(x, g, out, want_indices ? idx.data<int64_t>() : nullptr);
    });
  return want_indices ? Tensors{out, idx} : Tensors{out};
}

Tensors k_max_pool2d(const ArgReader& a, const KernelContext& kc) { return max_pool(a, kc, false); }
Tensors k_max_pool2d_with_indices(const ArgReader& a, const KernelContext& kc) { return max_pool(a, kc, true); }

// max_pool2d_backward(grad_output, input, kernel_size, stride, padding, dilation, ceil_mode)
Tensors k_max_pool2d_backward(const ArgReader& a, const KernelContext& kc) {
  Pool pl = read_pool(a, true, 1);
  Dims shape = common::pool_out_shape(a.op(), pl);
  Tensor go = a.tensor(0);
  AMPS_CHECK(go.sizes() == shape, "max_pool2d_backward: grad_output has shape {}, expected {}",
             format_shape(go.sizes()), format_shape(shape));
  go = contiguous(go);
  Tensor x = contiguous(cast(pl.input, go.dtype())), gi = Tensor::empty(x.sizes(), go.dtype(), kc.device);
  const MaxGeo g = max_geo(pl, x, shape);
  if (gi.numel() > 0)
    AMPS_DISPATCH_FLOAT(gi.dtype(), "max_pool2d_backward", T, [&] { max_pool_backward<T>(x, go, g, gi); });
  return one_tensor(gi);
}

Tensors k_avg_pool2d(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(run_avg_pool(a.op(), read_pool(a, false), kc.device));
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
  return one_tensor(x.dim() == 3 ? native::squeeze(out, {0}) : out);
}

}  // namespace

void register_pool_kernels(KernelTable& t) {
  const uint32_t types = kFloatDTypes;
  t.add(OpId::max_pool2d, k_max_pool2d, types);
  t.add(OpId::max_pool2d_with_indices, k_max_pool2d_with_indices, types);
  t.add(OpId::max_pool2d_backward, k_max_pool2d_backward, types);
  t.add(OpId::avg_pool2d, k_avg_pool2d, types);
  t.add(OpId::adaptive_avg_pool2d, k_adaptive_avg_pool2d, kFloatDTypes);
}

}  // namespace amps::rt::cpu
