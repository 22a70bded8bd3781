// Running and statistical composites (see shape_composites.hpp): diff, logcumsumexp, var_mean, std_mean, cov,
// corrcoef, and bucketize and isin on top of the searchsorted kernel.
#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// log(exp(a) + exp(b)) shifted by the larger of the two, held constant (detached), so the gradient
// exp(a - m) / (exp(a - m) + exp(b - m)) is exact and finite; infinite shifts are replaced by 0.
Tensor shifted_logaddexp(const Tensor& a, const Tensor& b) {
  Tensor m = maximum(a, b).detach();
  m = where(isfinite(m), m, zeros({}, m.dtype(), m.device()));
  return m + log(exp(a - m) + exp(b - m));
}

Tensor squeeze_all(const Tensor& t) { return call_op(O::squeeze, t, IValue()); }

// The weights of cov's observations: fweights times aweights (either may be absent; undefined when both are).
Tensor cov_weights(const Tensor& fw, const Tensor& aw, int64_t observations) {
  if (fw.defined()) {
    AMPS_CHECK(fw.dim() <= 1, "cov(): expected fweights to have one or fewer dimensions but got fweights with {} "
               "dimensions", fw.dim());
    AMPS_CHECK(is_integral(fw.dtype(), false), "cov(): expected fweights to have integral dtype but got fweights "
               "with {} dtype", torch_type_name(fw.dtype()));
    AMPS_CHECK(fw.numel() == observations, "cov(): expected fweights to have the same numel as there are "
               "observations in the input but got {} != {}", fw.numel(), observations);
    AMPS_CHECK(observations == 0 || min(fw).item<int64_t>() >= 0, "cov(): fweights cannot be negative");
  }
  if (aw.defined()) {
    AMPS_CHECK(aw.dim() <= 1, "cov(): expected aweights to have one or fewer dimensions but got aweights with {} "
               "dimensions", aw.dim());
    AMPS_CHECK(aw.is_floating_point(), "cov(): expected aweights to have floating point dtype but got aweights with "
               "{} dtype", torch_type_name(aw.dtype()));
    AMPS_CHECK(aw.numel() == observations, "cov(): expected aweights to have the same numel as there are "
               "observations in the input but got {} != {}", aw.numel(), observations);
    AMPS_CHECK(observations == 0 || min(aw).item<double>() >= 0, "cov(): aweights cannot be negative");
  }
  if (fw.defined() && aw.defined()) return fw * aw;
  return fw.defined() ? fw : aw;
}

// cov of [x] (rows: variables, columns: observations): PyTorch's at::cov.
Tensor covariance(const Tensor& x, int64_t correction, const Tensor& fw, const Tensor& aw) {
  AMPS_CHECK(x.dim() <= 2, "cov(): expected input to have two or fewer dimensions but got an input with {} "
             "dimensions", x.dim());
  AMPS_CHECK(x.dtype() != DType::bool_, "cov(): bool dtype is not supported for input");
  Tensor in = x.dim() < 2 ? x.reshape({1, -1}) : x;
  const int64_t n = in.size(1);
  const Tensor w = cov_weights(fw, aw, n);
  const Tensor w_sum = w.defined() ? sum(w) : Tensor::scalar(Scalar(n), DType::int64).to(in.device());
  AMPS_CHECK(!w.defined() || w_sum.item<double>() != 0, "cov(): weights sum to zero, can't be normalized");
  const Tensor avg = sum(w.defined() ? in * w : in, Dims{1}) / w_sum;
  Tensor norm = w.defined() && aw.defined() && correction != 0
                    ? w_sum - sum(w * aw) * Scalar(correction) / w_sum
                    : w_sum - Scalar(correction);
  norm = where(le(norm, Scalar(int64_t(0))), zeros({}, norm.dtype(), norm.device()), norm);  // no dof: inf/NaN
  in = in - avg.unsqueeze(1);
  return squeeze_all(div(mm(in, (w.defined() ? in * w : in).t()), norm));
}

}  // namespace

// diff(input, n, dim, prepend, append): prepend and append joined along dim, then n differences of neighbours
// (xor for bool); an order past the length leaves an empty dim and a negative one none, as PyTorch 1.13's.
Tensors diff_math(Args& args) {
  ArgReader a(O::diff, args);
  Tensor x = a.tensor(0);
  const int64_t n = a.i64(1);
  AMPS_CHECK(x.dim() >= 1, "diff expects input to be at least one-dimensional");
  const int64_t d = wrap_dim(a.i64(2), x.dim());
  std::vector<Tensor> parts;
  for (const Tensor& t : {a.opt_tensor(3), x, a.opt_tensor(4)}) {
    if (!t.defined()) continue;
    AMPS_CHECK(t.dim() == x.dim(), "diff expects prepend or append to be the same dimension as input");
    parts.push_back(t);
  }
  if (parts.size() > 1) x = cat(parts, d);
  for (int64_t i = 0; i < n && x.size(d) > 0; ++i) {
    const int64_t len = x.size(d) - 1;
    const Tensor hi = x.narrow(d, 1, len), lo = x.narrow(d, 0, len);
    x = x.dtype() == DType::bool_ ? ne(hi, lo) : hi - lo;
  }
  return {x.is_same(a.tensor(0)) ? x.clone() : x};
}

// logcumsumexp(input, dim): the inclusive prefix log-sum-exp by doubling (Hillis-Steele: step s combines each
// element with the one s before it, -inf before the start), log2(n) shifted logaddexps.
Tensors logcumsumexp_math(Args& args) {
  ArgReader a(O::logcumsumexp, args);
  Tensor y = a.tensor(0);
  AMPS_CHECK(y.is_floating_point(), "\"logcumsumexp_out_cpu\" not implemented for '{}'", torch_type_name(y.dtype()));
  const int64_t d = wrap_dim(a.i64(1), y.dim());
  if (y.dim() == 0) return {y.clone()};
  const int64_t n = y.size(d);
  for (int64_t s = 1; s < n; s *= 2) {
    Dims pad = y.sizes();
    pad[size_t(d)] = s;
    const Tensor before = cat({full(pad, -INFINITY, y.dtype(), y.device()), y.narrow(d, 0, n - s)}, d);
    y = shifted_logaddexp(y, before);
  }
  return {y.is_same(a.tensor(0)) ? y.clone() : y};
}

// var_mean / std_mean(input, dim, *, correction, keepdim): (var or std, mean) over the same dims.
template <bool Std> Tensors var_mean_math(Args& args) {
  ArgReader a(Std ? O::std_mean : O::var_mean, args);
  const Tensor x = a.tensor(0);
  AMPS_CHECK(x.is_floating_point(), "{} only support floating point and complex dtypes", Std ? "std_mean" : "var_mean");
  return {call_op(Std ? O::std : O::var, x, args[1], args[2], args[3]), call_op(O::mean, x, args[1], args[3])};
}
template Tensors var_mean_math<false>(Args&);
template Tensors var_mean_math<true>(Args&);

Tensors cov_math(Args& args) {
  ArgReader a(O::cov, args);
  return {covariance(a.tensor(0), a.i64(1), a.opt_tensor(2), a.opt_tensor(3))};
}

// corrcoef(input): cov divided by the outer product of the standard deviations, clipped to [-1, 1].
Tensors corrcoef_math(Args& args) {
  ArgReader a(O::corrcoef, args);
  const Tensor x = a.tensor(0);
  AMPS_CHECK(x.dim() <= 2, "corrcoef(): expected input to have two or fewer dimensions but got an input with {} "
             "dimensions", x.dim());
  Tensor c = covariance(x, 1, Tensor(), Tensor());
  if (c.dim() == 0) return {c / c};
  const Tensor sd = sqrt(call_op(O::diagonal, c, int64_t(0), int64_t(0), int64_t(1)));
  c = c / sd.reshape({-1, 1}) / sd.reshape({1, -1});
  return {clamp(c, Scalar(-1.0), Scalar(1.0))};
}

// bucketize(input, boundaries, *, out_int32, right): searchsorted of input in the 1-D boundaries.
Tensors bucketize_math(Args& args) {
  ArgReader a(O::bucketize, args);
  const Tensor b = a.tensor(1);
  AMPS_CHECK(b.dim() == 1, "boundaries tensor must be 1 dimension, but got dim({})", b.dim());
  return {call_op(O::searchsorted, b, a.tensor(0), a.boolean(2), a.boolean(3), IValue(), IValue())};
}

// isin(elements, test_elements, *, assume_unique, invert): each element looked up by binary search in the sorted
// test elements (memory O(elements + test_elements)); NaN is in nothing.
Tensors isin_math(Args& args) {
  ArgReader a(O::isin, args);
  const Tensor x = a.tensor(0), test = a.tensor(1).reshape({-1});
  const bool invert = a.boolean(3);
  if (test.numel() == 0) return {full(x.sizes(), Scalar(invert), DType::bool_, x.device())};
  const Tensor sorted = dispatch(O::sort, Args{test.detach(), int64_t(0), false, false})[0];
  // NaNs sort last and would derail the search: searched as +inf, the first inf position still holds a real inf
  // when there is one (infs sort before NaNs), and the comparison below with the real value decides.
  const Tensor searched = sorted.is_floating_point() ? call_op(O::nan_to_num, sorted, INFINITY, INFINITY, -INFINITY)
                                                     : sorted;
  Tensor pos = call_op(O::searchsorted, searched, x.detach(), false, false, IValue(), IValue());
  pos = clamp(pos, std::nullopt, Scalar(test.numel() - 1));
  const Tensor found = eq(index_select(sorted, 0, pos.reshape({-1})).reshape(x.sizes()), x.detach());
  return {invert ? call_op(O::logical_not, found) : found};
}

}  // namespace amps::rt::common
