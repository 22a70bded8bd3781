// layer_norm_backward's math (see norm_backward.hpp): d/dx of (x - mean) * rstd * w + b over the normalized dims.
#include "runtime/backend/common/norm_backward.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {

namespace {
// d/dx of (x - mean) * rstd over [dims] given d/dxhat, the statistics being the batch's over [dims].
Tensor normalize_grad(const Tensor& gxhat, const Tensor& xhat, const Tensor& rstd, const Dims& dims) {
  return rstd * (gxhat - mean(gxhat, dims, true) - xhat * mean(gxhat * xhat, dims, true));
}
}  // namespace

Dims all_but_channel(int64_t ndim) {
  Dims d{0};
  for (int64_t i = 2; i < ndim; ++i) d.push_back(i);
  return d;
}

Tensor per_channel(const Tensor& v, int64_t ndim) {
  Dims shape(size_t(ndim), 1);
  shape[1] = v.numel();
  return v.reshape(shape);
}

Tensors layer_norm_backward_math(Args& args) {
  ArgReader a(OpId::layer_norm_backward, args);
  const Tensor g = a.tensor(0), x = a.tensor(1), w = a.opt_tensor(3);
  const int64_t k = int64_t(a.ints(2).size());
  Dims dims, lead;
  for (int64_t i = 0; i < k; ++i) dims.push_back(x.dim() - 1 - i);
  for (int64_t i = 0; i + k < x.dim(); ++i) lead.push_back(i);
  const auto over_lead = [&](const Tensor& t) { return lead.empty() ? t : sum(t, lead); };
  const Tensor rstd = rsqrt(var(x, dims, 0, true) + a.f64(4));
  const Tensor xhat = (x - mean(x, dims, true)) * rstd;
  const Tensor gxhat = w.defined() ? g * w : g;
  const Tensor dx = rstd * (gxhat - mean(gxhat, dims, true) - xhat * mean(gxhat * xhat, dims, true));
  return {dx, w.defined() ? over_lead(g * xhat).to(w.dtype()) : Tensor(), a.boolean(5) ? over_lead(g) : Tensor()};
}

Tensors batch_norm_backward_math(Args& args) {
  ArgReader a(OpId::batch_norm_backward, args);
  const Tensor g = a.tensor(0), x = a.tensor(1), rm = a.opt_tensor(2), rv = a.opt_tensor(3), wt = a.opt_tensor(4);
  const Dims dims = all_but_channel(x.dim());
  const bool batch_stats = a.boolean(5) || !rm.defined();
  const Tensor w = wt.defined() ? per_channel(wt, x.dim()) : Tensor();
  const Tensor mu = batch_stats ? mean(x, dims, true) : per_channel(rm, x.dim());
  const Tensor v = batch_stats ? var(x, dims, 0, true) : per_channel(rv, x.dim());
  const Tensor rstd = rsqrt(v + a.f64(6)), xhat = (x - mu) * rstd;
  const Tensor gxhat = w.defined() ? g * w : g;
  const Tensor dx = batch_stats ? normalize_grad(gxhat, xhat, rstd, dims) : gxhat * rstd;
  return {dx, wt.defined() ? sum(g * xhat, dims).to(wt.dtype()) : Tensor(), a.boolean(7) ? sum(g, dims) : Tensor()};
}

Tensors group_norm_backward_math(Args& args) {
  ArgReader a(OpId::group_norm_backward, args);
  const Tensor g = a.tensor(0), x = a.tensor(1), wt = a.opt_tensor(3);
  const int64_t N = x.size(0), G = a.i64(2);
  const Tensor xr = x.reshape({N, G, -1});
  const Tensor rstd = rsqrt(var(xr, Dims{2}, 0, true) + a.f64(4));
  const Tensor xhat_r = (xr - mean(xr, Dims{2}, true)) * rstd, xhat = xhat_r.reshape(x.sizes());
  const Tensor gxhat = wt.defined() ? g * per_channel(wt, x.dim()) : g;
  const Dims dims = all_but_channel(x.dim());
  const Tensor dx = normalize_grad(gxhat.reshape({N, G, -1}), xhat_r, rstd, {2}).reshape(x.sizes());
  return {dx, wt.defined() ? sum(g * xhat, dims).to(wt.dtype()) : Tensor(), a.boolean(5) ? sum(g, dims) : Tensor()};
}

}  // namespace amps::rt::common
