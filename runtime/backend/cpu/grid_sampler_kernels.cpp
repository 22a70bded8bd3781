// CPU kernels of grid_sampler_2d / grid_sampler_3d (the spatial-transformer sampling under F.grid_sample) and their
// backward kernels, with PyTorch 1.13's arithmetic (aten/src/ATen/native/GridSampler.h and its CPU kernels): the
// coordinate maps with their clip/reflect gradient rules, bilinear (trilinear in 3-D) over the 2^K corners, nearest
// (zero grid gradient) and bicubic (cubic convolution, A = -0.75, each tap bounded by the padding). float32 and
// float64; float16/bfloat16 computed in float. Device backends run them through the host fallback
// (host_fallback_kernels.hpp).
#include <array>
#include <cmath>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

enum class Interp : int64_t { bilinear = 0, nearest = 1, bicubic = 2 };
enum class Pad : int64_t { zeros = 0, border = 1, reflection = 2 };

// The arguments every grid sampler kernel reads after its grad_output (at [first]): input and grid row-major in one
// dtype, the modes checked.
struct SamplerArgs {
  Tensor input, grid;
  Interp mode = Interp::bilinear;
  Pad pad = Pad::zeros;
  bool align = false;
};

// PyTorch's check_grid_sampler_common: batch sizes, the grid's last dim, non-empty spatial dims.
void check_common(const Tensor& input, const Tensor& grid) {
  AMPS_CHECK_INDEX(input.dim() > 0 && grid.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  AMPS_CHECK(input.size(0) == grid.size(0), "grid_sampler(): expected grid and input to have same batch size, but "
             "got input with sizes {} and grid with sizes {}", common::list_shape(input.sizes()),
             common::list_shape(grid.sizes()));
  AMPS_CHECK(grid.size(-1) == input.dim() - 2, "grid_sampler(): expected grid to have size {} in last dimension, "
             "but got grid with sizes {}", input.dim() - 2, common::list_shape(grid.sizes()));
  for (int64_t i = 2; i < input.dim(); ++i)
    AMPS_CHECK(input.size(i) > 0, "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
               "has sizes {} with dimension {} being empty", common::list_shape(input.sizes()), i);
}

// PyTorch's check_grid_sampler_2d / _3d, then the modes (PyTorch leaves other numbers unchecked; amps rejects them).
void check_dims(const Tensor& input, const Tensor& grid, int64_t k, int64_t mode, int64_t pad) {
  AMPS_CHECK(input.dim() == k + 2 && input.dim() == grid.dim(), "grid_sampler(): expected {}D input and grid with "
             "same number of dimensions, but got input with sizes {} and grid with sizes {}", k + 2,
             common::list_shape(input.sizes()), common::list_shape(grid.sizes()));
  AMPS_CHECK(!(k == 3 && mode == int64_t(Interp::bicubic)), "grid_sampler(): bicubic interpolation only supports "
             "4D input");
  AMPS_CHECK(mode >= 0 && mode <= 2, "grid_sampler(): expected interpolation_mode 0 (bilinear), 1 (nearest) or 2 "
             "(bicubic), but got {}", mode);
  AMPS_CHECK(pad >= 0 && pad <= 2, "grid_sampler(): expected padding_mode 0 (zeros), 1 (border) or 2 (reflection), "
             "but got {}", pad);
}

// The checks in PyTorch's order, then its dtype errors: the 2-D kernel's own message, the 3-D kernel's dispatch
// message, and the grid read in the input's dtype.
SamplerArgs sampler_args(const ArgReader& a, size_t first, int64_t k) {
  const Tensor input = a.tensor(first), grid = a.tensor(first + 1);
  const int64_t mode = a.i64(first + 2), pad = a.i64(first + 3);
  check_common(input, grid);
  check_dims(input, grid, k, mode, pad);
  const DType dt = input.dtype();
  const std::string_view name = common::torch_type_name(dt);
  AMPS_CHECK(k != 2 || is_floating(dt), "grid_sampler_2d_cpu not implemented for {}", name);
  AMPS_CHECK(k != 3 || is_floating(dt), "\"grid_sampler3d_cpu\" not implemented for '{}'", name);
  AMPS_CHECK(grid.dtype() == dt, "expected scalar type {} but found {}", name, common::torch_type_name(grid.dtype()));
  return {contiguous(input), contiguous(grid), Interp(mode), Pad(pad), a.boolean(first + 4)};
}

// Far outside every axis: where a NaN or huge coordinate lands (a plain cast would be undefined), leaving room for
// the +-2 tap offsets.
constexpr int64_t kFar = -(int64_t(1) << 50);
template <typename C> int64_t index_of(C v) { return v > C(-1e15) && v < C(1e15) ? int64_t(v) : kFar; }

// One grid component's map onto an input axis of [size] elements (GridSampler.h): unnormalized from [-1, 1] (to the
// corner pixels' centres when align, else to their outer edges), then bounded by the padding (border: clipped;
// reflection: reflected about the edges, then clipped). Each step also gives d(result)/d(argument) in [g]: the
// clip's is 0 on and outside the borders, the reflection's -1 on mirrored stretches.
template <typename C> struct Axis {
  int64_t size = 1;
  Pad pad = Pad::zeros;
  bool align = false;

  C unnormalize(C v) const { return align ? (v + 1) / 2 * C(size - 1) : ((v + 1) * C(size) - 1) / 2; }
  C scale() const { return align ? C(size - 1) / 2 : C(size) / 2; }

  C clip(C x, C& g) const {
    const C hi = C(size - 1);
    g = x > 0 && x < hi ? C(1) : C(0);
    return x > 0 ? (x < hi ? x : hi) : C(0);  // NaN goes to 0, as PyTorch's vectorised clip
  }
  C reflect(C x, C& g) const {
    const int64_t lo2 = align ? 0 : -1, hi2 = align ? 2 * (size - 1) : 2 * size - 1;
    g = 0;
    if (lo2 == hi2) return C(0);
    const C min = C(lo2) / 2, span = C(hi2 - lo2) / 2;
    C in = x - min, sign = 1;
    if (in < 0) sign = -1, in = -in;
    const C extra = std::fmod(in, span);
    const bool odd = std::fmod(std::floor(in / span), C(2)) != 0;  // the flip count's parity, without an int cast
    g = odd ? -sign : sign;
    return odd ? span - extra + min : extra + min;
  }
  // The padding's bound of an unnormalized coordinate (PyTorch's compute_coordinates), [g] its derivative.
  C bound(C x, C& g) const {
    g = 1;
    if (pad == Pad::zeros) return x;
    C gr = 1, gc = 1;
    if (pad == Pad::reflection) x = reflect(x, gr);
    x = clip(x, gc);
    g = gr * gc;
    return x;
  }
  // The source coordinate of grid value [v] and d(source)/d(v) in [g].
  C source(C v, C& g) const {
    C gb;
    const C x = bound(unnormalize(v), gb);
    g = scale() * gb;
    return x;
  }
};

// The sampled volume of one kernel call: sizes, the axes (grid component a: x, y, z = the input's last, second last,
// third last dim) with their element strides, and the grid points per batch.
template <int K> struct Volume {
  int64_t N = 0, C = 0, plane = 1, points = 1;
  std::array<int64_t, K> stride{};
  std::array<int64_t, K> size{};
};

template <int K> Volume<K> volume_of(const SamplerArgs& s) {
  Volume<K> v;
  v.N = s.input.size(0), v.C = s.input.size(1);
  for (int a = 0; a < K; ++a) {
    v.size[size_t(a)] = s.input.size(-1 - a);
    v.stride[size_t(a)] = v.plane;
    v.plane *= v.size[size_t(a)];
    v.points *= s.grid.size(1 + a);
  }
  return v;
}

template <typename C, int K> std::array<Axis<C>, K> axes_of(const SamplerArgs& s, const Volume<K>& v) {
  std::array<Axis<C>, K> ax;
  for (int a = 0; a < K; ++a) ax[size_t(a)] = {v.size[size_t(a)], s.pad, s.align};
  return ax;
}

// The flat offset of integer position [i] in one channel, or -1 outside the input.
template <int K> int64_t offset_of(const Volume<K>& v, const std::array<int64_t, size_t(K)>& i) {
  int64_t off = 0;
  for (int a = 0; a < K; ++a) {
    if (i[size_t(a)] < 0 || i[size_t(a)] >= v.size[size_t(a)]) return -1;
    off += i[size_t(a)] * v.stride[size_t(a)];
  }
  return off;
}

// The 2^K corners around a source point (corner bit a: the upper neighbour along component a, PyTorch's order
// nw, ne, sw, se, then the bottom layer): each one's offset (-1 outside), weight (the product of the distances to the
// opposite sides) and the weight's derivative along each component.
template <typename C, int K> struct Corners {
  static constexpr int n = 1 << K;
  std::array<int64_t, n> offset{};
  std::array<C, n> weight{};
  std::array<std::array<C, K>, n> dweight{};
};

template <typename C, int K> Corners<C, K> corners_of(const Volume<K>& v, const std::array<C, K>& src) {
  std::array<int64_t, K> lo{};
  std::array<C, K> to_lo{}, to_hi{};  // src - lo (the upper corner's factor) and lo + 1 - src (the lower one's)
  for (int a = 0; a < K; ++a) {
    lo[size_t(a)] = index_of(std::floor(src[size_t(a)]));
    to_lo[size_t(a)] = src[size_t(a)] - C(lo[size_t(a)]);
    to_hi[size_t(a)] = C(lo[size_t(a)] + 1) - src[size_t(a)];
  }
  Corners<C, K> r;
  for (int c = 0; c < r.n; ++c) {
    std::array<int64_t, K> at = lo;
    C w = 1;
    for (int a = 0; a < K; ++a) {
      const bool up = (c >> a) & 1;
      at[size_t(a)] += up;
      w *= up ? to_lo[size_t(a)] : to_hi[size_t(a)];
    }
    for (int a = 0; a < K; ++a) {
      C d = (c >> a) & 1 ? C(1) : C(-1);
      for (int b = 0; b < K; ++b)
        if (b != a) d *= (c >> b) & 1 ? to_lo[size_t(b)] : to_hi[size_t(b)];
      r.dweight[size_t(c)][size_t(a)] = d;
    }
    r.offset[size_t(c)] = offset_of(v, at);
    r.weight[size_t(c)] = w;
  }
  return r;
}

// The nearest input position to a source point, -1 outside. Ties round as PyTorch 1.13's kernels do: to even in 2-D
// (its vectorised round), away from zero in 3-D (std::round).
template <typename C, int K> int64_t nearest_of(const Volume<K>& v, const std::array<C, K>& src) {
  std::array<int64_t, K> at{};
  for (int a = 0; a < K; ++a)
    at[size_t(a)] = index_of(K == 2 ? std::nearbyint(src[size_t(a)]) : std::round(src[size_t(a)]));
  return offset_of(v, at);
}

// The cubic convolution weights of the taps at -1, 0, 1, 2 around fractional position [t], and their derivatives
// (PyTorch's get_cubic_coefficients / _grad with A = -0.75).
template <typename C> std::array<C, 4> cubic_weights(C t) {
  const C A = C(-0.75);
  auto far = [&](C x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };  // 1 < |x| < 2
  auto near = [&](C x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };      // |x| <= 1
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}
template <typename C> std::array<C, 4> cubic_slopes(C t) {
  const C A = C(-0.75);
  C x = -1 - t;
  const C c0 = (-3 * A * x - 10 * A) * x - 8 * A;
  x = -t;
  const C c1 = (-3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 1 - t;
  const C c2 = (3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 2 - t;
  return {c0, c1, c2, (3 * A * x - 10 * A) * x + 8 * A};
}

// The offset of bicubic tap (x, y) after the padding's bound of each coordinate (PyTorch's get_value_bounded), -1
// outside.
template <typename C> int64_t tap_offset(const std::array<Axis<C>, 2>& ax, const Volume<2>& v, C x, C y) {
  C g;
  return offset_of(v, {index_of(ax[0].bound(x, g)), index_of(ax[1].bound(y, g))});
}

// One grid point's bicubic neighbourhood: the 4 x 4 tap offsets (row j: y tap, column i: x tap), their weights along
// x and y and those weights' slopes.
template <typename C> struct Bicubic {
  std::array<std::array<int64_t, 4>, 4> offset{};
  std::array<C, 4> wx{}, wy{}, sx{}, sy{};
};

template <typename C> Bicubic<C> bicubic_of(const std::array<Axis<C>, 2>& ax, const Volume<2>& v, C gx, C gy) {
  const C x = ax[0].unnormalize(gx), y = ax[1].unnormalize(gy);
  const C x0 = std::floor(x), y0 = std::floor(y);
  Bicubic<C> b{{}, cubic_weights(x - x0), cubic_weights(y - y0), cubic_slopes(x - x0), cubic_slopes(y - y0)};
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) b.offset[size_t(j)][size_t(i)] = tap_offset(ax, v, x0 - 1 + C(i), y0 - 1 + C(j));
  return b;
}

template <typename T> using Val = compute_t<T>;

// Grid point [p] of batch [n]: its K components.
template <typename T, int K> std::array<Val<T>, K> grid_point(const T* grid, int64_t n, int64_t p, int64_t points) {
  std::array<Val<T>, K> g{};
  const T* at = grid + (n * points + p) * K;
  for (int a = 0; a < K; ++a) g[size_t(a)] = Val<T>(at[a]);
  return g;
}

// ---- forward ----

// The sampled output's shape: [N, C, the grid's K spatial dims].
template <int K> Dims output_shape(const SamplerArgs& s) {
  Dims shape{s.input.size(0), s.input.size(1)};
  for (int d = 1; d <= K; ++d) shape.push_back(s.grid.size(d));
  return shape;
}

// The source coordinates of grid point [g] (the padding applied).
template <typename C, int K> std::array<C, K> sources_of(const std::array<Axis<C>, K>& ax, const std::array<C, K>& g) {
  std::array<C, K> at{};
  for (int a = 0; a < K; ++a) {
    C unused;
    at[size_t(a)] = ax[size_t(a)].source(g[size_t(a)], unused);
  }
  return at;
}

// One output point of every channel: [src] the batch's input, [dst] its output at the point (channel stride
// v.points). Bicubic: each row of 4 x taps blended along x, the 4 rows along y (PyTorch's order).
template <typename T> void bicubic_point(const Bicubic<Val<T>>& bc, const Volume<2>& v, const T* src, T* dst) {
  using C = Val<T>;
  for (int64_t c = 0; c < v.C; ++c, src += v.plane) {
    C acc = 0;
    for (int j = 0; j < 4; ++j) {
      C row = 0;
      for (int i = 0; i < 4; ++i) {
        const int64_t off = bc.offset[size_t(j)][size_t(i)];
        row += bc.wx[size_t(i)] * (off < 0 ? C(0) : C(src[off]));
      }
      acc += bc.wy[size_t(j)] * row;
    }
    dst[c * v.points] = T(acc);
  }
}

// Bilinear/trilinear: the in-bound corners' values times their weights, summed in corner order.
template <typename T, int K> void linear_point(const Corners<Val<T>, K>& cr, const Volume<K>& v, const T* src,
                                               T* dst) {
  using C = Val<T>;
  for (int64_t c = 0; c < v.C; ++c, src += v.plane) {
    C acc = 0;
    for (int k = 0; k < cr.n; ++k)
      if (cr.offset[size_t(k)] >= 0) acc += C(src[cr.offset[size_t(k)]]) * cr.weight[size_t(k)];
    dst[c * v.points] = T(acc);
  }
}

// Writes out[n, :, p] for output points [b, e) of the flattened (batch, point) range.
template <typename T, int K> void forward_points(const SamplerArgs& s, const Volume<K>& v, T* out, int64_t b,
                                                 int64_t e) {
  using C = Val<T>;
  const std::array<Axis<C>, K> ax = axes_of<C>(s, v);
  for (int64_t q = b; q < e; ++q) {
    const int64_t n = q / v.points, p = q % v.points;
    const std::array<C, K> g = grid_point<T, K>(s.grid.data<T>(), n, p, v.points);
    const T* src = s.input.data<T>() + n * v.C * v.plane;
    T* dst = out + n * v.C * v.points + p;
    if constexpr (K == 2)
      if (s.mode == Interp::bicubic) {
        bicubic_point<T>(bicubic_of(ax, v, g[0], g[1]), v, src, dst);
        continue;
      }
    const std::array<C, K> at = sources_of<C, K>(ax, g);
    if (s.mode == Interp::bilinear) {
      linear_point<T, K>(corners_of<C, K>(v, at), v, src, dst);
      continue;
    }
    const int64_t off = nearest_of<C, K>(v, at);
    for (int64_t c = 0; c < v.C; ++c) dst[c * v.points] = off < 0 ? T(0) : src[c * v.plane + off];
  }
}

// grid_sampler_2d / grid_sampler_3d (input, grid, interpolation_mode, padding_mode, align_corners): [N, C, *grid's
// spatial dims], one parallel range over every (batch, output point).
template <int K> Tensors k_grid_sampler(const ArgReader& a, const KernelContext& kc) {
  const SamplerArgs s = sampler_args(a, 0, K);
  const Volume<K> v = volume_of<K>(s);
  Tensor out = Tensor::empty(output_shape<K>(s), s.input.dtype(), kc.device);
  if (out.numel() == 0) return {out};
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(v.C << K, 1));
  AMPS_DISPATCH_FLOAT(s.input.dtype(), "grid_sampler", T, [&] {
    parallel_for(v.N * v.points, grain, [&](int64_t b, int64_t e) { forward_points<T, K>(s, v, out.data<T>(), b, e); });
  });
  return {out};
}

// ---- backward ----

// The gradient buffers of one backward call: grad_input in the compute type (float for the half types, so the
// scattered sums do not round at every add; null when not wanted), grad_grid in the grid's dtype.
template <typename T> struct Grads {
  Val<T>* gin = nullptr;
  T* ggrid = nullptr;
  const T* gout = nullptr;
};

// Bicubic gradients of one point (PyTorch's vectorised backward): each tap takes gout * wx * wy; the grid's
// components collect -value * gout * slope * the other weight, times the unnormalization scale.
template <typename T> void bicubic_backward(const SamplerArgs& s, const Volume<2>& v, const Grads<T>& gr, int64_t n,
                                            int64_t p, const std::array<Axis<Val<T>>, 2>& ax) {
  using C = Val<T>;
  const std::array<C, 2> g = grid_point<T, 2>(s.grid.data<T>(), n, p, v.points);
  const Bicubic<C> bc = bicubic_of(ax, v, g[0], g[1]);
  const T* src = s.input.data<T>() + n * v.C * v.plane;
  C gx = 0, gy = 0;
  for (int64_t c = 0; c < v.C; ++c, src += v.plane) {
    const C go = C(gr.gout[(n * v.C + c) * v.points + p]);
    C* gin = gr.gin ? gr.gin + (n * v.C + c) * v.plane : nullptr;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int64_t off = bc.offset[size_t(j)][size_t(i)];
        if (off < 0) continue;
        if (gin) gin[off] += go * bc.wx[size_t(i)] * bc.wy[size_t(j)];
        const C val = C(src[off]);
        gx -= val * go * bc.sx[size_t(i)] * bc.wy[size_t(j)];
        gy -= val * go * bc.sy[size_t(j)] * bc.wx[size_t(i)];
      }
  }
  T* out = gr.ggrid + (n * v.points + p) * 2;
  out[0] = T(gx * ax[0].scale());
  out[1] = T(gy * ax[1].scale());
}

// Bilinear/trilinear and nearest gradients of one point: grad_input takes gout at each in-bound corner times its
// weight (nearest: at the nearest position); the grid's components collect value * gout * d(weight), times
// d(source)/d(grid). Nearest's grid gradient is zero.
template <typename T, int K> void point_backward(const SamplerArgs& s, const Volume<K>& v, const Grads<T>& gr,
                                                 int64_t n, int64_t p, const std::array<Axis<Val<T>>, K>& ax) {
  using C = Val<T>;
  const std::array<C, K> g = grid_point<T, K>(s.grid.data<T>(), n, p, v.points);
  std::array<C, K> src_at{}, mult{}, acc{};
  for (int a = 0; a < K; ++a) src_at[size_t(a)] = ax[size_t(a)].source(g[size_t(a)], mult[size_t(a)]);
  T* out = gr.ggrid + (n * v.points + p) * K;
  if (s.mode == Interp::nearest) {
    const int64_t off = nearest_of<C, K>(v, src_at);
    for (int64_t c = 0; gr.gin && off >= 0 && c < v.C; ++c)
      gr.gin[(n * v.C + c) * v.plane + off] += C(gr.gout[(n * v.C + c) * v.points + p]);
    for (int a = 0; a < K; ++a) out[a] = T(0);
    return;
  }
  const Corners<C, K> cr = corners_of<C, K>(v, src_at);
  const T* src = s.input.data<T>() + n * v.C * v.plane;
  for (int64_t c = 0; c < v.C; ++c, src += v.plane) {
    const C go = C(gr.gout[(n * v.C + c) * v.points + p]);
    for (int k = 0; k < cr.n; ++k) {
      const int64_t off = cr.offset[size_t(k)];
      if (off < 0) continue;
      if (gr.gin) gr.gin[(n * v.C + c) * v.plane + off] += cr.weight[size_t(k)] * go;
      const C val = C(src[off]);
      for (int a = 0; a < K; ++a) acc[size_t(a)] += val * cr.dweight[size_t(k)][size_t(a)] * go;
    }
  }
  for (int a = 0; a < K; ++a) out[a] = T(mult[size_t(a)] * acc[size_t(a)]);
}

// Every point's gradients for batches [b, e).
template <typename T, int K> void backward_batches(const SamplerArgs& s, const Volume<K>& v, const Grads<T>& gr,
                                                   int64_t b, int64_t e) {
  const std::array<Axis<Val<T>>, K> ax = axes_of<Val<T>>(s, v);
  for (int64_t n = b; n < e; ++n)
    for (int64_t p = 0; p < v.points; ++p) {
      if constexpr (K == 2)
        if (s.mode == Interp::bicubic) {
          bicubic_backward<T>(s, v, gr, n, p, ax);
          continue;
        }
      point_backward<T, K>(s, v, gr, n, p, ax);
    }
}

Tensor zeroed(const Dims& sizes, DType dt, Device dev) {
  Tensor t = Tensor::empty(sizes, dt, dev);
  if (t.numel()) fill(t, Scalar(0.0));
  return t;
}

// grid_sampler_{2,3}d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
// input_grad): (grad_input or undefined, grad_grid). Parallel over the batch, as PyTorch's: the points of one batch
// scatter into the same grad_input slice.
template <int K> Tensors k_grid_sampler_backward(const ArgReader& a, const KernelContext& kc) {
  const SamplerArgs s = sampler_args(a, 1, K);
  const Volume<K> v = volume_of<K>(s);
  const DType dt = s.input.dtype();
  const Tensor gout = contiguous(cast(a.tensor(0), dt));
  AMPS_CHECK(gout.sizes() == output_shape<K>(s), "grid_sampler backward: grad_output of sizes {} for an output of "
             "sizes {}", common::list_shape(gout.sizes()), common::list_shape(output_shape<K>(s)));
  Tensor gin = a.boolean(6) ? zeroed(s.input.sizes(), dt == DType::float64 ? dt : DType::float32, kc.device) : Tensor();
  Tensor ggrid = zeroed(s.grid.sizes(), dt, kc.device);
  AMPS_DISPATCH_FLOAT(dt, "grid_sampler_backward", T, [&] {
    const Grads<T> gr{gin.defined() ? gin.data<Val<T>>() : nullptr, ggrid.data<T>(), gout.data<T>()};
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(v.points * v.C << K, 1));
    parallel_for(v.N, grain, [&](int64_t b, int64_t e) { backward_batches<T, K>(s, v, gr, b, e); });
  });
  return {gin.defined() ? cast(gin, dt) : gin, ggrid};
}

}  // namespace

void register_grid_sampler_kernels(KernelTable& t) {
  // every dtype: the kernels raise PyTorch's not-implemented errors for the others themselves
  t.add(OpId::grid_sampler_2d, k_grid_sampler<2>);
  t.add(OpId::grid_sampler_3d, k_grid_sampler<3>);
  t.add(OpId::grid_sampler_2d_backward, k_grid_sampler_backward<2>);
  t.add(OpId::grid_sampler_3d_backward, k_grid_sampler_backward<3>);
}

}  // namespace amps::rt::cpu
