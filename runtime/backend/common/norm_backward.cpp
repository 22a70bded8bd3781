// layer_norm_backward's math (see norm_backward.hpp): d/dx of (x - mean) * rstd * w + b over the normalized dims.
#include "runtime/backend/common/norm_backward.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {

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

}  // namespace amps::rt::common
