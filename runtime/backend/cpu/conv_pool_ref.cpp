// Reference convolution (plain and transposed, 1 to 3 spatial dims) and 2-D average pooling in float64 loops.
#include "runtime/backend/cpu/conv_pool_ref.hpp"

#include <array>

#include "runtime/backend/cpu/loops.hpp"

namespace amps::rt::cpu::ref {
namespace {

using V3 = std::array<int64_t, 3>;

// Spatial geometry padded to 3 dims (missing leading dims: size 1, stride 1, no padding).
struct Geo {
  V3 in{1, 1, 1}, out{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, p{0, 0, 0}, d{1, 1, 1};
};

int64_t vol(const V3& v) { return v[0] * v[1] * v[2]; }
int64_t flat(const V3& i, const V3& size) { return (i[0] * size[1] + i[1]) * size[2] + i[2]; }

Geo geometry(const dnnl_cpu::ConvParams& cp, const Tensor& x, const Tensor& w, const Tensor& out) {
  Geo g;
  const size_t nd = cp.stride.size(), off = 3 - nd;
  for (size_t i = 0; i < nd; ++i) {
    const int64_t dim = int64_t(i) + 2;
    g.in[off + i] = x.size(dim), g.out[off + i] = out.size(dim), g.k[off + i] = w.size(dim);
    g.s[off + i] = cp.stride[i], g.p[off + i] = cp.padding[i], g.d[off + i] = cp.dilation[i];
  }
  return g;
}

// Calls f(position) for every position of the 3-D box [size], row-major.
template <typename F> void for_box(const V3& size, F&& f) {
  V3 i;
  for (i[0] = 0; i[0] < size[0]; ++i[0])
    for (i[1] = 0; i[1] < size[1]; ++i[1])
      for (i[2] = 0; i[2] < size[2]; ++i[2]) f(i);
}

// [to] = [from] * stride - padding + tap * dilation; false when it falls outside [bound].
bool tap(const Geo& g, const V3& from, const V3& k, const V3& bound, V3& to) {
  for (size_t a = 0; a < 3; ++a) {
    to[a] = from[a] * g.s[a] - g.p[a] + k[a] * g.d[a];
    if (to[a] < 0 || to[a] >= bound[a]) return false;
  }
  return true;
}

// One output plane of a convolution: [x] is the group's first input channel, [w] this channel's filter.
void conv_plane(const Geo& g, int64_t cin_g, const double* x, const double* w, double bias, double* o) {
  for_box(g.out, [&](const V3& op) {
    double acc = bias;
    for (int64_t c = 0; c < cin_g; ++c)
      for_box(g.k, [&](const V3& kp) {
        V3 ip;
        if (tap(g, op, kp, g.in, ip)) acc += x[c * vol(g.in) + flat(ip, g.in)] * w[c * vol(g.k) + flat(kp, g.k)];
      });
    o[flat(op, g.out)] = acc;
  });
}

// One output plane of a transposed convolution (each input scatters into the output): [w] points at this
// channel's filter for the group's first input channel, [wstride] apart per input channel.
void conv_t_plane(const Geo& g, int64_t cin_g, const double* x, const double* w, int64_t wstride, double bias,
                  double* o) {
  std::fill(o, o + vol(g.out), bias);
  for (int64_t c = 0; c < cin_g; ++c)
    for_box(g.in, [&](const V3& ip) {
      const double xv = x[c * vol(g.in) + flat(ip, g.in)];
      for_box(g.k, [&](const V3& kp) {
        V3 op;
        if (tap(g, ip, kp, g.out, op)) o[flat(op, g.out)] += xv * w[c * wstride + flat(kp, g.k)];
      });
    });
}

// Mean of one window with PyTorch's divisor: the override, else the window clipped to input + padding
// (count_include_pad) or to the input.
double avg_window(const double* x, int64_t H, int64_t W, int64_t h0, int64_t w0, const dnnl_cpu::PoolParams& p,
                  std::optional<int64_t> divisor_override) {
  int64_t h1 = std::min(h0 + p.kernel[0], H + p.padding[0]), w1 = std::min(w0 + p.kernel[1], W + p.padding[1]);
  const int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0), h1 = std::min(h1, H), w1 = std::min(w1, W);
  if (h0 >= h1 || w0 >= w1) return 0.0;
  double s = 0;
  for (int64_t h = h0; h < h1; ++h)
    for (int64_t w = w0; w < w1; ++w) s += x[h * W + w];
  const int64_t div = divisor_override ? *divisor_override : p.count_include_pad ? pool_size : (h1 - h0) * (w1 - w0);
  return s / double(div);
}

// out[c] = sum of [t]'s channel c over batch and space ([N, C, *] float64).
void channel_sums(const Tensor& t, const Tensor& out) {
  const int64_t C = t.size(1), sp = t.numel() / std::max<int64_t>(t.size(0) * C, 1);
  const double* tp = t.data<double>();
  double* o = out.data<double>();
  for (int64_t c = 0; c < C; ++c) {
    double s = 0;
    for (int64_t n = 0; n < t.size(0); ++n)
      for (int64_t q = 0; q < sp; ++q) s += tp[(n * C + c) * sp + q];
    o[c] = s;
  }
}

}  // namespace

void conv(const dnnl_cpu::ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& out) {
  const Geo g = geometry(p, x, w, out);
  const int64_t cout = out.size(1), cin_g = x.size(1) / p.groups, cout_g = cout / p.groups;
  const double *xp = x.data<double>(), *wp = w.data<double>(), *bp = bias.defined() ? bias.data<double>() : nullptr;
  double* op = out.data<double>();
  const int64_t work = std::max<int64_t>(1, vol(g.out) * cin_g * vol(g.k));
  parallel_for(out.size(0) * cout, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) {
      const int64_t n = plane / cout, oc = plane % cout, grp = oc / cout_g;
      const double* xg = xp + (n * x.size(1) + grp * cin_g) * vol(g.in);
      const double bv = bp ? bp[oc] : 0.0;
      double* o = op + plane * vol(g.out);
      if (!p.transposed) conv_plane(g, cin_g, xg, wp + oc * cin_g * vol(g.k), bv, o);
      else conv_t_plane(g, cin_g, xg, wp + (grp * cin_g * cout_g + oc % cout_g) * vol(g.k), cout_g * vol(g.k), bv, o);
    }
  });
}

// The input gradient of a convolution is the transposed operation with the same weight and geometry
// (and the other way round); the loops above bound every tap by the destination's shape.
void conv_backward_data(const dnnl_cpu::ConvParams& p, const Tensor& g, const Tensor& w, const Tensor& grad_input) {
  dnnl_cpu::ConvParams flipped = p;
  flipped.transposed = !p.transposed;
  conv(flipped, g, w, Tensor(), grad_input);
}

// grad_weight[i, j, k] = sum over batch and positions q of a[n, i, q] * b[n, group(i) * J + j, tap(q, k)],
// where (a, b) = (grad_output, input) for a convolution and (input, grad_output) for a transposed one: the
// side indexed by the weight's dim 0 and the side its taps land in.
void conv_backward_weights(const dnnl_cpu::ConvParams& p, const Tensor& g, const Tensor& x, const Tensor& grad_weight,
                           const Tensor& grad_bias) {
  const Tensor& a = p.transposed ? x : g;
  const Tensor& b = p.transposed ? g : x;
  const Geo geo = geometry(p, b, grad_weight, a);
  const int64_t N = a.size(0), I = grad_weight.size(0), J = grad_weight.size(1), per = I / p.groups;
  const double *ap = a.data<double>(), *bp = b.data<double>();
  double* wp = grad_weight.data<double>();
  const int64_t work = std::max<int64_t>(1, N * vol(geo.out) * vol(geo.k));
  parallel_for(I * J, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t lo, int64_t hi) {
    for (int64_t ij = lo; ij < hi; ++ij) {
      const int64_t i = ij / J, bc = i / per * J + ij % J;
      for_box(geo.k, [&](const V3& kp) {
        double acc = 0;
        for (int64_t n = 0; n < N; ++n)
          for_box(geo.out, [&](const V3& q) {
            V3 t;
            if (tap(geo, q, kp, geo.in, t))
              acc += ap[(n * I + i) * vol(geo.out) + flat(q, geo.out)] * bp[(n * b.size(1) + bc) * vol(geo.in) + flat(t, geo.in)];
          });
        wp[ij * vol(geo.k) + flat(kp, geo.k)] = acc;
      });
    }
  });
  channel_sums(g, grad_bias);
}

void pool2d(const dnnl_cpu::PoolParams& p, std::optional<int64_t> divisor_override, const Tensor& x,
            const Tensor& out) {
  const int64_t H = x.size(2), W = x.size(3), OH = out.size(2), OW = out.size(3);
  const double* xp = x.data<double>();
  double* op = out.data<double>();
  const int64_t work = std::max<int64_t>(1, OH * OW * p.kernel[0] * p.kernel[1]);
  parallel_for(x.size(0) * x.size(1), std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t i = 0; i < OH * OW; ++i) {
        const int64_t h0 = i / OW * p.stride[0] - p.padding[0], w0 = i % OW * p.stride[1] - p.padding[1];
        op[plane * OH * OW + i] = avg_window(xp + plane * H * W, H, W, h0, w0, p, divisor_override);
      }
  });
}

}  // namespace amps::rt::cpu::ref
