// Reference convolution (plain and transposed, 1 to 3 spatial dims) and 2-D pooling in float64 loops.
#include "runtime/backend/cpu/conv_pool_ref.hpp"

#include <array>
#include <cmath>

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

// Max over one dilated window (NaN wins, as PyTorch's); returns the value and its flat plane index.
std::pair<double, int64_t> max_window(const double* x, int64_t H, int64_t W, int64_t h0, int64_t w0,
                                      const dnnl_cpu::PoolParams& p) {
  double best = -INFINITY;
  int64_t at = -1;
  for (int64_t kh = 0; kh < p.kernel[0]; ++kh)
    for (int64_t kw = 0; kw < p.kernel[1]; ++kw) {
      const int64_t h = h0 + kh * p.dilation[0], w = w0 + kw * p.dilation[1];
      if (h < 0 || h >= H || w < 0 || w >= W) continue;
      const double v = x[h * W + w];
      if (at < 0 || v > best || std::isnan(v)) best = v, at = h * W + w;
    }
  return {best, at};
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

void pool2d(const dnnl_cpu::PoolParams& p, std::optional<int64_t> divisor_override, const Tensor& x,
            const Tensor& out, const Tensor& indices) {
  const int64_t H = x.size(2), W = x.size(3), OH = out.size(2), OW = out.size(3);
  const double* xp = x.data<double>();
  double* op = out.data<double>();
  int64_t* ip = indices.defined() ? indices.data<int64_t>() : nullptr;
  const int64_t work = std::max<int64_t>(1, OH * OW * p.kernel[0] * p.kernel[1]);
  parallel_for(x.size(0) * x.size(1), std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t i = 0; i < OH * OW; ++i) {
        const int64_t h0 = i / OW * p.stride[0] - p.padding[0], w0 = i % OW * p.stride[1] - p.padding[1];
        const double* xs = xp + plane * H * W;
        if (!p.max) {
          op[plane * OH * OW + i] = avg_window(xs, H, W, h0, w0, p, divisor_override);
          continue;
        }
        auto [v, at] = max_window(xs, H, W, h0, w0, p);
        op[plane * OH * OW + i] = v;
        if (ip) ip[plane * OH * OW + i] = at;
      }
  });
}

}  // namespace amps::rt::cpu::ref
