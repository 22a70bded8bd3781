// oneDNN batch norm and layer norm (forward training/inference, backward), and group norm on top.
#include "runtime/backend/cpu/dnnl_norm.hpp"

#include <cmath>
#include <cstring>
#include <vector>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/backend/cpu/dnnl_staging.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

using Flags = dnnl::normalization_flags;

// The two oneDNN families; their desc constructors share one signature. Stats: per channel for
// batch norm of [N, C, *], per row for layer norm of the 2-D view [M, N].
struct BnormTypes {
  using Fwd = dnnl::batch_normalization_forward;
  using Bwd = dnnl::batch_normalization_backward;
  static constexpr int id = 0;
  static Dims stat_dims(const Dims& d) { return {d[1]}; }
};
struct LnormTypes {
  using Fwd = dnnl::layer_normalization_forward;
  using Bwd = dnnl::layer_normalization_backward;
  static constexpr int id = 1;
  static Dims stat_dims(const Dims& d) { return {d[0]}; }
};

// What one call normalizes, after staging: dense views in the compute io type ('x', 'y' = dst or
// diff_src, 'dy'), dense f32 [C] or [N] affine parameters (data null when absent), f32 stats.
struct Io {
  DnnlArg x, y, dy, scale, shift, dscale, dshift;
  float* mean = nullptr;
  float* var = nullptr;
};

Flags flags_of(bool scale, bool shift, bool global) {
  Flags f = Flags::none;
  if (scale) f |= Flags::use_scale;
  if (shift) f |= Flags::use_shift;
  if (global) f |= Flags::use_global_stats;
  return f;
}

template <class T>
typename T::Fwd::primitive_desc fwd_pd(const Dims& d, DnnlType user, DnnlType ct, float eps,
                                       Flags f, bool stats_out) {
  const auto prop = stats_out ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  typename T::Fwd::desc desc(prop, md_of(d, io_type(user, ct)), eps, f);
  return typename T::Fwd::primitive_desc(desc, ctx().engine);
}

int64_t bits_of(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

template <class Pd, class Prim>
struct Entry {
  Pd pd;
  Prim prim;
  DnnlType compute;
};

template <class T>
using FwdEntry = Entry<typename T::Fwd::primitive_desc, typename T::Fwd>;
template <class T>
using BwdEntry = Entry<typename T::Bwd::primitive_desc, typename T::Bwd>;

// 'stats_out': training forward (writes mean/var); otherwise inference (reads them, or none).
template <class T>
FwdEntry<T>& fwd_entry(const Dims& d, DnnlType user, DnnlType want, float eps, Flags f, bool stats_out) {
  thread_local PrimCache<FwdEntry<T>> cache;
  Key k;
  k.add(d).add(static_cast<int64_t>(user)).add(static_cast<int64_t>(want)).add(bits_of(eps));
  return cache.get(k.add(static_cast<int64_t>(f)).add(stats_out), [&] {
    auto [pd, ct] = pick_pd(want, [&](DnnlType t) { return fwd_pd<T>(d, user, t, eps, f, stats_out); });
    return FwdEntry<T>{pd, typename T::Fwd(pd), ct};
  });
}

template <class T>
BwdEntry<T>& bwd_entry(const Dims& d, DnnlType user, DnnlType want, float eps, Flags f) {
  thread_local PrimCache<BwdEntry<T>> cache;
  Key k;
  k.add(d).add(static_cast<int64_t>(user)).add(static_cast<int64_t>(want)).add(bits_of(eps));
  return cache.get(k.add(static_cast<int64_t>(f)), [&] {
    const bool affine = (f & (Flags::use_scale | Flags::use_shift)) != Flags::none;
    const auto prop = affine ? dnnl::prop_kind::backward : dnnl::prop_kind::backward_data;
    auto [pd, ct] = pick_pd(want, [&](DnnlType t) {
      auto hint = fwd_pd<T>(d, user, t, eps, f, true);
      Md md = md_of(d, io_type(user, t));
      typename T::Bwd::desc desc(prop, md, md, eps, f);
      return typename T::Bwd::primitive_desc(desc, ctx().engine, hint);
    });
    return BwdEntry<T>{pd, typename T::Bwd(pd), ct};
  });
}

void bind_stats(Exec& ex, const Dims& sd, float* mean, float* var) {
  if (!mean) return;
  ex.raw(DNNL_ARG_MEAN, md_of(sd, DnnlType::f32), mean);
  ex.raw(DNNL_ARG_VARIANCE, md_of(sd, DnnlType::f32), var);
}

template <class T>
void run_fwd(const FwdEntry<T>& e, const Io& io) {
  Exec ex;
  ex.in(DNNL_ARG_SRC, io.x, e.pd.src_desc());
  ex.out(DNNL_ARG_DST, io.y, e.pd.dst_desc());
  if (io.scale.data) ex.in(DNNL_ARG_SCALE, io.scale, md_of(io.scale));
  if (io.shift.data) ex.in(DNNL_ARG_SHIFT, io.shift, md_of(io.shift));
  bind_stats(ex, T::stat_dims(io.x.dims), io.mean, io.var);
  ex.run(e.prim);
}

template <class T>
void run_bwd(const BwdEntry<T>& e, const Io& io) {
  Exec ex;
  ex.in(DNNL_ARG_SRC, io.x, e.pd.src_desc());
  ex.in(DNNL_ARG_DIFF_DST, io.dy, e.pd.diff_dst_desc());
  ex.out(DNNL_ARG_DIFF_SRC, io.y, e.pd.diff_src_desc());
  if (io.scale.data) ex.in(DNNL_ARG_SCALE, io.scale, md_of(io.scale));
  if (io.dshift.data) ex.scratch(DNNL_ARG_SHIFT, md_of(io.dshift));  // required, never read
  if (io.dscale.data) ex.out(DNNL_ARG_DIFF_SCALE, io.dscale, md_of(io.dscale));
  if (io.dshift.data) ex.out(DNNL_ARG_DIFF_SHIFT, io.dshift, md_of(io.dshift));
  bind_stats(ex, T::stat_dims(io.x.dims), io.mean, io.var);
  ex.run(e.prim);
}

// A dense view with new dims (same element count): the flattening that layer norm needs.
DnnlArg reshaped(DnnlArg a, const Dims& dims) {
  a.dims = dims, a.strides = dense_strides(dims);
  return a;
}

// Affine parameters as dense f32 [n]; a null 'a' gives an empty view.
DnnlArg param_in(Staging& st, const DnnlArg* a, int64_t n) {
  if (!a) return DnnlArg{};
  check(numel(a->dims) == n, "norm", "weight/bias size does not match the normalized size");
  return reshaped(st.in(*a, DnnlType::f32, true), {n});
}

DnnlArg param_out(Staging& st, const DnnlArg* a, int64_t n) {
  if (!a) return DnnlArg{};
  check(numel(a->dims) == n, "norm", "weight/bias grad size does not match the normalized size");
  return reshaped(st.out(*a, DnnlType::f32, true), {n});
}

void check_pair(const char* op, const DnnlArg& a, const DnnlArg& b) {
  check(a.dims == b.dims, op, "tensor dims differ");
  check(a.dt == b.dt, op, "dst dtype must equal src dtype");
}

// ---- batch norm ----

void bnorm_fwd(const DnnlArg& src, const DnnlArg* w, const DnnlArg* b, const DnnlArg& dst,
               float* mean, float* var, float eps, bool training) {
  check_pair("batch_norm", src, dst);
  check(src.dims.size() >= 2 && mean && var, "batch_norm", "needs [N, C, *] and mean/var");
  const Flags f = flags_of(w, b, !training);
  auto& e = fwd_entry<BnormTypes>(src.dims, src.dt, src.dt, eps, f, training);
  const DnnlType t = io_type(src.dt, e.compute);
  Staging st;
  Io io;
  io.x = st.in(src, t, true), io.y = st.out(dst, t, true);
  io.scale = param_in(st, w, src.dims[1]), io.shift = param_in(st, b, src.dims[1]);
  io.mean = mean, io.var = var;
  run_fwd<BnormTypes>(e, io);
  st.finish();
}

void bnorm_bwd(const DnnlArg& src, const DnnlArg& dy, const float* mean, const float* var,
               const DnnlArg* w, const DnnlArg& dx, const DnnlArg* dw, const DnnlArg* db,
               float eps, bool training) {
  check_pair("batch_norm_backward", src, dy), check_pair("batch_norm_backward", src, dx);
  check(src.dims.size() >= 2 && mean && var, "batch_norm_backward", "needs [N, C, *] and mean/var");
  check(w || !dw, "batch_norm_backward", "diff_weight needs weight");
  const int64_t c = src.dims[1];
  const Flags f = flags_of(w, db, !training);
  auto& e = bwd_entry<BnormTypes>(src.dims, src.dt, src.dt, eps, f);
  const DnnlType t = io_type(src.dt, e.compute);
  Staging st;
  Io io;
  io.x = st.in(src, t, true), io.dy = st.in(dy, t, true), io.y = st.out(dx, t, true);
  io.scale = param_in(st, w, c);
  io.dscale = w && !dw ? st.temp({c}, DnnlType::f32) : param_out(st, dw, c);  // oneDNN writes it
  io.dshift = param_out(st, db, c);
  io.mean = const_cast<float*>(mean), io.var = const_cast<float*>(var);
  run_bwd<BnormTypes>(e, io);
  st.finish();
}

// ---- layer norm: the last 'k' dims of src flatten to the rows of a 2-D [M, N] view ----

Dims rows_view(const DnnlArg& src, int k) {
  check(k >= 1 && static_cast<size_t>(k) <= src.dims.size(), "layer_norm", "norm_dims out of range");
  const Dims inner(src.dims.end() - k, src.dims.end());
  const int64_t n = numel(inner);
  return {n ? numel(src.dims) / n : 0, n};
}

void lnorm_fwd(const DnnlArg& src, int k, const DnnlArg* w, const DnnlArg* b, const DnnlArg& dst,
               float* mean, float* var, float eps) {
  check_pair("layer_norm", src, dst);
  check(!mean == !var, "layer_norm", "mean and var come together");
  const Dims d2 = rows_view(src, k);
  auto& e = fwd_entry<LnormTypes>(d2, src.dt, src.dt, eps, flags_of(w, b, false), mean != nullptr);
  const DnnlType t = io_type(src.dt, e.compute);
  Staging st;
  Io io;
  io.x = reshaped(st.in(src, t, true), d2), io.y = reshaped(st.out(dst, t, true), d2);
  io.scale = param_in(st, w, d2[1]), io.shift = param_in(st, b, d2[1]);
  io.mean = mean, io.var = var;
  run_fwd<LnormTypes>(e, io);
  st.finish();
}

void lnorm_bwd(const DnnlArg& src, const DnnlArg& dy, const float* mean, const float* var, int k,
               const DnnlArg* w, const DnnlArg& dx, const DnnlArg* dw, const DnnlArg* db, float eps) {
  check_pair("layer_norm_backward", src, dy), check_pair("layer_norm_backward", src, dx);
  check(mean && var && (w || !dw), "layer_norm_backward", "needs mean/var (and weight for its grad)");
  const Dims d2 = rows_view(src, k);
  auto& e = bwd_entry<LnormTypes>(d2, src.dt, src.dt, eps, flags_of(w, db, false));
  const DnnlType t = io_type(src.dt, e.compute);
  Staging st;
  Io io;
  io.x = reshaped(st.in(src, t, true), d2), io.dy = reshaped(st.in(dy, t, true), d2);
  io.y = reshaped(st.out(dx, t, true), d2);
  io.scale = param_in(st, w, d2[1]);
  io.dscale = w && !dw ? st.temp({d2[1]}, DnnlType::f32) : param_out(st, dw, d2[1]);
  io.dshift = param_out(st, db, d2[1]);
  io.mean = const_cast<float*>(mean), io.var = const_cast<float*>(var);
  run_bwd<LnormTypes>(e, io);
  st.finish();
}

// ---- group norm: a layer norm of [N*G, C/G*spatial] in f32, per-channel affine done here ----

struct Groups {
  int64_t n, c, g, sp;  // batch, channels, groups, spatial size
  Dims rows() const { return {n * g, c / g * sp}; }
  int64_t channel(int64_t i) const { return (i / sp) % c; }
  int64_t row(int64_t i) const { return i / (c / g * sp); }
};

Groups groups_of(const DnnlArg& src, int64_t g) {
  check(src.dims.size() >= 2 && g >= 1 && src.dims[1] % g == 0, "group_norm",
        "needs [N, C, *] with groups dividing C");
  return Groups{src.dims[0], src.dims[1], g, numel(src.dims) / (src.dims[0] * src.dims[1])};
}

void gnorm_fwd(const DnnlArg& src, int64_t g, const DnnlArg* w, const DnnlArg* b, const DnnlArg& dst,
               float* mean, float* var, float eps) {
  check_pair("group_norm", src, dst);
  check(!mean == !var, "group_norm", "mean and var come together");
  const Groups gr = groups_of(src, g);
  auto& e = fwd_entry<LnormTypes>(gr.rows(), DnnlType::f32, DnnlType::f32, eps, Flags::none, mean != nullptr);
  Staging st;
  Io io;
  const DnnlArg y = st.out(dst, DnnlType::f32, true);
  io.x = reshaped(st.in(src, DnnlType::f32, true), gr.rows()), io.y = reshaped(y, gr.rows());
  io.mean = mean, io.var = var;
  run_fwd<LnormTypes>(e, io);
  const DnnlArg ws = param_in(st, w, gr.c), bs = param_in(st, b, gr.c);
  float* out = static_cast<float*>(y.data);
  for (int64_t i = 0; i < numel(y.dims) && (w || b); ++i) {
    const int64_t c = gr.channel(i);
    out[i] = out[i] * (w ? static_cast<float*>(ws.data)[c] : 1.f) + (b ? static_cast<float*>(bs.data)[c] : 0.f);
  }
  st.finish();
}

// diff_weight[c] = sum dy * xhat and diff_bias[c] = sum dy, over n and spatial (double sums).
void gnorm_param_grads(const Groups& gr, const float* x, const float* dy, const float* mean,
                       const float* var, float eps, const DnnlArg& dw, const DnnlArg& db) {
  std::vector<double> sw(gr.c), sb(gr.c);
  for (int64_t i = 0; i < gr.n * gr.c * gr.sp; ++i) {
    const int64_t c = gr.channel(i), r = gr.row(i);
    sw[c] += dy[i] * (x[i] - mean[r]) / std::sqrt(static_cast<double>(var[r]) + eps);
    sb[c] += dy[i];
  }
  for (int64_t c = 0; c < gr.c; ++c) {
    if (dw.data) static_cast<float*>(dw.data)[c] = static_cast<float>(sw[c]);
    if (db.data) static_cast<float*>(db.data)[c] = static_cast<float>(sb[c]);
  }
}

void gnorm_bwd(const DnnlArg& src, const DnnlArg& dy, const float* mean, const float* var,
               int64_t g, const DnnlArg* w, const DnnlArg& dx, const DnnlArg* dw, const DnnlArg* db,
               float eps) {
  check_pair("group_norm_backward", src, dy), check_pair("group_norm_backward", src, dx);
  check(mean && var, "group_norm_backward", "needs the forward's mean/var");
  const Groups gr = groups_of(src, g);
  auto& e = bwd_entry<LnormTypes>(gr.rows(), DnnlType::f32, DnnlType::f32, eps, Flags::none);
  Staging st;
  const DnnlArg x = st.in(src, DnnlType::f32, true), d = st.in(dy, DnnlType::f32, true);
  const float* dyp = static_cast<const float*>(d.data);
  gnorm_param_grads(gr, static_cast<const float*>(x.data), dyp, mean, var, eps,
                    param_out(st, dw, gr.c), param_out(st, db, gr.c));
  Io io;
  io.x = reshaped(x, gr.rows()), io.dy = reshaped(d, gr.rows());
  if (w) {  // the layer norm sees d(loss)/d(xhat) = dy * weight[c]
    const DnnlArg ws = param_in(st, w, gr.c), scaled = st.temp(gr.rows(), DnnlType::f32);
    float* s = static_cast<float*>(scaled.data);
    for (int64_t i = 0; i < numel(scaled.dims); ++i) s[i] = dyp[i] * static_cast<float*>(ws.data)[gr.channel(i)];
    io.dy = scaled;
  }
  io.y = reshaped(st.out(dx, DnnlType::f32, true), gr.rows());
  io.mean = const_cast<float*>(mean), io.var = const_cast<float*>(var);
  run_bwd<LnormTypes>(e, io);
  st.finish();
}

}  // namespace

void batch_norm_forward(const DnnlArg& src, const DnnlArg* weight, const DnnlArg* bias,
                        const DnnlArg& dst, float* mean, float* var, float eps, bool training) {
  guard("batch_norm", [&] { bnorm_fwd(src, weight, bias, dst, mean, var, eps, training); });
}

void batch_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, const DnnlArg* weight, const DnnlArg& diff_src,
                         const DnnlArg* diff_weight, const DnnlArg* diff_bias, float eps,
                         bool training) {
  guard("batch_norm_backward", [&] {
    bnorm_bwd(src, diff_dst, mean, var, weight, diff_src, diff_weight, diff_bias, eps, training);
  });
}

void layer_norm_forward(const DnnlArg& src, int norm_dims, const DnnlArg* weight,
                        const DnnlArg* bias, const DnnlArg& dst, float* mean, float* var,
                        float eps) {
  guard("layer_norm", [&] { lnorm_fwd(src, norm_dims, weight, bias, dst, mean, var, eps); });
}

void layer_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, int norm_dims, const DnnlArg* weight,
                         const DnnlArg& diff_src, const DnnlArg* diff_weight,
                         const DnnlArg* diff_bias, float eps) {
  guard("layer_norm_backward", [&] {
    lnorm_bwd(src, diff_dst, mean, var, norm_dims, weight, diff_src, diff_weight, diff_bias, eps);
  });
}

void group_norm_forward(const DnnlArg& src, int64_t groups, const DnnlArg* weight,
                        const DnnlArg* bias, const DnnlArg& dst, float* mean, float* var,
                        float eps) {
  guard("group_norm", [&] { gnorm_fwd(src, groups, weight, bias, dst, mean, var, eps); });
}

void group_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, int64_t groups, const DnnlArg* weight,
                         const DnnlArg& diff_src, const DnnlArg* diff_weight,
                         const DnnlArg* diff_bias, float eps) {
  guard("group_norm_backward", [&] {
    gnorm_bwd(src, diff_dst, mean, var, groups, weight, diff_src, diff_weight, diff_bias, eps);
  });
}

}  // namespace amps::rt::dnnl_cpu
