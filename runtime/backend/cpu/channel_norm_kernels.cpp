// CPU kernels for the norms with a per-channel affine, batch_norm and group_norm, and their gradients, every float
// dtype: the input viewed as [N, C, S] (row-major), sums in double over vectorised lanes, the elementwise transforms
// in the compute type.
#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cpu {
namespace {

// [N, C, S] of a contiguous [N, C, *] tensor.
struct Ncs {
  int64_t n, c, s;
  int64_t count() const { return n * s; }  // values per channel
};
Ncs ncs_of(const Tensor& x) {
  int64_t s = 1;
  for (int64_t d = 2; d < x.dim(); ++d) s *= x.size(d);
  return {x.size(0), x.size(1), s};
}

// Σ over channel [c]'s blocks of f(a, b) (a and b of one [N, C, S] layout).
template <typename T, typename F> double channel_sum(const T* a, const T* b, const Ncs& d, int64_t c, F f) {
  double total = 0;
  for (int64_t n = 0; n < d.n; ++n) total += lane_sum(a + (n * d.c + c) * d.s, b + (n * d.c + c) * d.s, d.s, f);
  return total;
}

// Each channel's mean and biased variance (two passes, so no cancellation), channels split over threads.
template <typename T> void batch_stats(const T* x, const Ncs& d, std::vector<double>& mean, std::vector<double>& var) {
  parallel_for(d.c, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const double m = channel_sum(x, x, d, c, [](double v, double) { return v; }) / double(d.count());
      mean[size_t(c)] = m;
      var[size_t(c)] = channel_sum(x, x, d, c, [m](double v, double) { return (v - m) * (v - m); }) / double(d.count());
    }
  });
}

// The per-element loops, on plain values (a lambda's captures would be re-read after every store through [o]).
template <typename T, typename C> void affine_loop(const T* x, T* o, int64_t n, C a, C b) {
  for (int64_t i = 0; i < n; ++i) o[i] = T(C(x[i]) * a + b);
}
template <typename T, typename C> void grad_input_loop(const T* g, const T* x, T* o, int64_t n, C gm, C m, C k, C s) {
  for (int64_t i = 0; i < n; ++i) o[i] = T((C(g[i]) - gm - (C(x[i]) - m) * k) * s);
}

// Runs body(block, channel) for every [S] block of an [N, C, S] layout, blocks split over threads.
template <typename F> void for_blocks(const Ncs& d, F&& body) {
  parallel_for(d.n * d.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(d.s, 1)), [&](int64_t b0, int64_t b1) {
    for (int64_t blk = b0; blk < b1; ++blk) body(blk, size_t(blk % d.c));
  });
}

// out[n, c, s] = x * alpha + beta in the compute type, (alpha, beta) = coef(block n * C + c).
template <typename T, typename Coef> void block_affine(const T* x, T* out, const Ncs& d, Coef&& coef) {
  using C = compute_t<T>;
  for_blocks(d, [&](int64_t blk, size_t) {
    const auto [alpha, beta] = coef(blk);
    vectorized([&] { affine_loop(x + blk * d.s, out + blk * d.s, d.s, C(alpha), C(beta)); });
  });
}

// dx[n, c, s] = (g - gm[c] - (x - mean[c]) * k[c]) * scale[c] in the compute type (PyTorch's form: x's mean taken
// off first).
template <typename T>
void grad_input(const T* g, const T* x, T* dx, const Ncs& d, const std::vector<double>& gm,
                const std::vector<double>& mean, const std::vector<double>& k, const std::vector<double>& scale) {
  using C = compute_t<T>;
  for_blocks(d, [&](int64_t blk, size_t c) {
    vectorized([&] {
      grad_input_loop(g + blk * d.s, x + blk * d.s, dx + blk * d.s, d.s, C(gm[c]), C(mean[c]), C(k[c]), C(scale[c]));
    });
  });
}

// A norm gradient's grad_output must have its input's shape and dtype.
void check_grad_output(const Tensor& g, const Tensor& x, const char* op) {
  AMPS_CHECK(g.sizes() == x.sizes() && g.dtype() == x.dtype(), "{}: grad_output {} {} does not match input {} {}", op,
             format_shape(g.sizes()), dtype_name(g.dtype()), format_shape(x.sizes()), dtype_name(x.dtype()));
}

std::vector<double> doubles_or(const Tensor& t, int64_t n, double fill) {
  return t.defined() ? t.to_doubles() : std::vector<double>(size_t(n), fill);
}

// Training-mode running-stat update: r = (1 - m) * r + m * stat (unbiased variance for running_var), in place.
void update_running(const Tensor& running, std::vector<double> stat, double momentum, double unbias) {
  if (!running.defined()) return;
  const std::vector<double> old = running.to_doubles();
  for (size_t i = 0; i < stat.size(); ++i) stat[i] = (1 - momentum) * old[i] + momentum * stat[i] * unbias;
  copy_into(running, Tensor::from_doubles(stat, running.sizes(), DType::float64));
}

// The statistics a batch_norm normalises with: the batch's (training, or no running stats), else the running ones.
// inv = 1 / sqrt(var + eps).
template <typename T>
void norm_stats(const T* x, const Ncs& d, const Tensor& rm, const Tensor& rv, bool batch, double eps,
                std::vector<double>& mean, std::vector<double>& var, std::vector<double>& inv) {
  if (batch) {
    batch_stats(x, d, mean, var);
  } else {
    mean = rm.to_doubles();
    var = rv.to_doubles();
  }
  for (size_t c = 0; c < inv.size(); ++c) inv[c] = 1.0 / std::sqrt(var[c] + eps);
}

// batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps).
Tensors k_batch_norm(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = contiguous(a.tensor(0)), rm = a.opt_tensor(1), rv = a.opt_tensor(2), w = a.opt_tensor(3),
               b = a.opt_tensor(4);
  const bool training = a.boolean(5);
  const common::BatchNormLayout l = common::batch_norm_layout(x, rm, rv, w, b, training);
  const Ncs d = ncs_of(x);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (x.numel() == 0) return one_tensor(out);
  const size_t C = size_t(l.channels);
  std::vector<double> mean(C), var(C), inv(C), alpha(C), beta(C);
  AMPS_DISPATCH_FLOAT(x.dtype(), "batch_norm", T, [&] {
    norm_stats(x.data<T>(), d, rm, rv, training || !rm.defined(), a.f64(7), mean, var, inv);
    const std::vector<double> wv = doubles_or(w, l.channels, 1.0), bv = doubles_or(b, l.channels, 0.0);
    for (size_t c = 0; c < C; ++c) alpha[c] = wv[c] * inv[c], beta[c] = bv[c] - mean[c] * alpha[c];
    block_affine(x.data<T>(), out.data<T>(), d, [&](int64_t blk) {
      return std::pair{alpha[size_t(blk % d.c)], beta[size_t(blk % d.c)]};
    });
  });
  if (training) {
    update_running(rm, mean, a.f64(6), 1.0);
    update_running(rv, var, a.f64(6), double(d.count()) / double(d.count() - 1));
  }
  return one_tensor(out);
}

// batch_norm_backward(grad_output, input, running_mean, running_var, weight, training, eps, bias_grad): with xhat =
// (x - mean) * inv, dweight = Σ g xhat and dbias = Σ g per channel; dinput = w inv (g - Σg/M - xhat Σ(g xhat)/M)
// with the batch's statistics, w inv g with running ones (constants then). The input gradient has the input's dtype,
// the others the weight's.
Tensors k_batch_norm_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor g = contiguous(a.tensor(0)), x = contiguous(a.tensor(1)), rm = a.opt_tensor(2), rv = a.opt_tensor(3),
               w = a.opt_tensor(4);
  const bool training = a.boolean(5), batch = training || !rm.defined();
  check_grad_output(g, x, "batch_norm_backward");
  const common::BatchNormLayout l = common::batch_norm_layout(x, rm, rv, w, Tensor(), training);
  const Ncs d = ncs_of(x);
  const size_t C = size_t(l.channels);
  std::vector<double> mean(C), var(C), inv(C), sg(C), sgx(C), gm(C), k(C), scale(C);
  Tensor dx = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  AMPS_DISPATCH_FLOAT(x.dtype(), "batch_norm_backward", T, [&] {
    const T *gp = g.data<T>(), *xp = x.data<T>();
    if (x.numel() > 0) norm_stats(xp, d, rm, rv, batch, a.f64(6), mean, var, inv);
    parallel_for(d.c, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        const double m = mean[size_t(c)];
        sg[size_t(c)] = channel_sum(gp, gp, d, c, [](double v, double) { return v; });
        sgx[size_t(c)] = channel_sum(gp, xp, d, c, [m](double gv, double xv) { return gv * (xv - m); });
      }
    });
    const std::vector<double> wv = doubles_or(w, l.channels, 1.0);
    const double M = double(d.count());
    for (size_t c = 0; c < C; ++c) {
      scale[c] = wv[c] * inv[c];
      gm[c] = batch ? sg[c] / M : 0.0;
      k[c] = batch ? inv[c] * inv[c] * sgx[c] / M : 0.0;
    }
    if (x.numel() > 0) grad_input<T>(gp, xp, dx.data<T>(), d, gm, mean, k, scale);
  });
  std::vector<double> dw(C);
  for (size_t c = 0; c < C; ++c) dw[c] = sgx[c] * inv[c];
  const Dims cs{l.channels};
  return {dx, w.defined() ? Tensor::from_doubles(dw, cs, w.dtype(), kc.device) : Tensor(),
          a.boolean(7) ? Tensor::from_doubles(sg, cs, w.defined() ? w.dtype() : x.dtype(), kc.device) : Tensor()};
}

// ---- group_norm: statistics per (sample, group of C/G channels), each group one contiguous run of C/G * S ----

struct Groups {
  Ncs d;
  int64_t g, per;  // groups; channels per group
  int64_t run() const { return per * d.s; }
  size_t group_of(int64_t block) const { return size_t(block / d.c * g + block % d.c / per); }  // of block n * C + c
};

// group_norm's argument checks (the cuda kernel's messages, common/composite_kernels.cpp); the layout.
Groups group_layout(const Tensor& x, int64_t G, const Tensor& w, const Tensor& b) {
  AMPS_CHECK(x.dim() >= 2, "group_norm: expected at least 2D input, got {}D", x.dim());
  const int64_t C = x.size(1);
  AMPS_CHECK(G > 0 && C % G == 0, "Expected number of channels in input to be divisible by num_groups, but got "
             "input of shape {} and num_groups={}", format_shape(x.sizes()), G);
  for (const auto& [t, name] : {std::pair{&w, "weight"}, std::pair{&b, "bias"}})
    AMPS_CHECK(!t->defined() || t->numel() == C, "group_norm: {} should contain {} elements not {}", name, C,
               t->numel());
  return {ncs_of(x), G, C / G};
}

// Each (sample, group)'s mean and 1 / sqrt(biased variance + eps), two passes over its run, runs split over threads.
template <typename T>
void group_stats(const T* x, const Groups& gr, double eps, std::vector<double>& mean, std::vector<double>& inv) {
  parallel_for(gr.d.n * gr.g, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const T* p = x + r * gr.run();
      const double m = lane_sum(p, p, gr.run(), [](double v, double) { return v; }) / double(gr.run());
      const double v = lane_sum(p, p, gr.run(), [m](double u, double) { return (u - m) * (u - m); }) / double(gr.run());
      mean[size_t(r)] = m;
      inv[size_t(r)] = 1.0 / std::sqrt(v + eps);
    }
  });
}

// group_norm(input, num_groups, weight, bias, eps).
Tensors k_group_norm(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = contiguous(a.tensor(0)), w = a.opt_tensor(2), b = a.opt_tensor(3);
  const Groups gr = group_layout(x, a.i64(1), w, b);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (x.numel() == 0) return one_tensor(out);
  const std::vector<double> wv = doubles_or(w, gr.d.c, 1.0), bv = doubles_or(b, gr.d.c, 0.0);
  std::vector<double> mean(size_t(gr.d.n * gr.g)), inv(mean.size());
  AMPS_DISPATCH_FLOAT(x.dtype(), "group_norm", T, [&] {
    group_stats(x.data<T>(), gr, a.f64(4), mean, inv);
    block_affine(x.data<T>(), out.data<T>(), gr.d, [&](int64_t blk) {
      const size_t c = size_t(blk % gr.d.c), r = gr.group_of(blk);
      const double alpha = wv[c] * inv[r];
      return std::pair{alpha, bv[c] - mean[r] * alpha};
    });
  });
  return one_tensor(out);
}

// dx = g * a + (x - m) * k + c0 over one block, on plain values (see affine_loop).
template <typename T, typename C> void group_grad_loop(const T* g, const T* x, T* o, int64_t n, C a, C m, C k, C c0) {
  for (int64_t i = 0; i < n; ++i) o[i] = T(C(g[i]) * a + (C(x[i]) - m) * k + c0);
}

// group_norm_backward(grad_output, input, num_groups, weight, eps, bias_grad): per (n, c) block Σg and Σg(x - m);
// per (sample, group) S1 = Σ w Σg and S2 = inv Σ w Σg(x - m); dx = inv w g - inv S1 / M - (x - m) inv² S2 / M over
// the group's M values, dweight = Σ_n inv Σg(x - m), dbias = Σ_n Σg.
Tensors k_group_norm_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor g = contiguous(a.tensor(0)), x = contiguous(a.tensor(1)), w = a.opt_tensor(3);
  check_grad_output(g, x, "group_norm_backward");
  const Groups gr = group_layout(x, a.i64(2), w, Tensor());
  const Ncs& d = gr.d;
  const std::vector<double> wv = doubles_or(w, d.c, 1.0);
  std::vector<double> mean(size_t(d.n * gr.g)), inv(mean.size()), sg(size_t(d.n * d.c)), sgx(sg.size());
  Tensor dx = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  AMPS_DISPATCH_FLOAT(x.dtype(), "group_norm_backward", T, [&] {
    const T *gp = g.data<T>(), *xp = x.data<T>();
    if (x.numel() == 0) return;
    group_stats(xp, gr, a.f64(4), mean, inv);
    for_blocks(d, [&](int64_t blk, size_t) {
      const double m = mean[gr.group_of(blk)];
      const T *gs = gp + blk * d.s, *xs = xp + blk * d.s;
      sg[size_t(blk)] = lane_sum(gs, gs, d.s, [](double v, double) { return v; });
      sgx[size_t(blk)] = lane_sum(gs, xs, d.s, [m](double gv, double xv) { return gv * (xv - m); });
    });
    std::vector<double> s1(mean.size()), s2(mean.size());
    for (int64_t blk = 0; blk < d.n * d.c; ++blk) {
      const size_t r = gr.group_of(blk), c = size_t(blk % d.c);
      s1[r] += wv[c] * sg[size_t(blk)];
      s2[r] += wv[c] * sgx[size_t(blk)];
    }
    const double M = double(gr.run());
    using C = compute_t<T>;
    for_blocks(d, [&](int64_t blk, size_t c) {
      const size_t r = gr.group_of(blk);
      const double iv = inv[r];
      const C ga = C(iv * wv[c]), m = C(mean[r]), k = C(-iv * iv * iv * s2[r] / M), c0 = C(-iv * s1[r] / M);
      vectorized([&] { group_grad_loop(gp + blk * d.s, xp + blk * d.s, dx.data<T>() + blk * d.s, d.s, ga, m, k, c0); });
    });
  });
  std::vector<double> dw(size_t(d.c)), db(size_t(d.c));
  for (int64_t blk = 0; blk < d.n * d.c; ++blk) {
    const size_t c = size_t(blk % d.c), r = gr.group_of(blk);
    dw[c] += inv[r] * sgx[size_t(blk)];
    db[c] += sg[size_t(blk)];
  }
  const Dims cs{d.c};
  return {dx, w.defined() ? Tensor::from_doubles(dw, cs, w.dtype(), kc.device) : Tensor(),
          a.boolean(5) ? Tensor::from_doubles(db, cs, w.defined() ? w.dtype() : x.dtype(), kc.device) : Tensor()};
}

}  // namespace

void register_channel_norm_kernels(KernelTable& t) {
  t.add(OpId::batch_norm, k_batch_norm, kFloatDTypes);
  t.add(OpId::batch_norm_backward, k_batch_norm_backward, kFloatDTypes);
  t.add(OpId::group_norm, k_group_norm, kFloatDTypes);
  t.add(OpId::group_norm_backward, k_group_norm_backward, kFloatDTypes);
}

}  // namespace amps::rt::cpu
