#include "runtime/backend/common/statistics_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// The checked probabilities of quantile's q (a number or a 0-D/1-D tensor), read on the host.
std::vector<double> quantile_levels(const Tensor& q, const char* op) {
  AMPS_CHECK(q.dim() <= 1, "{}() q must be a scalar or 1D tensor", op);
  std::vector<double> levels = q.to_doubles();
  for (double v : levels) AMPS_CHECK(v >= 0 && v <= 1, "{}() q must be in the range [0, 1] but got {}", op, v);
  return levels;
}

// One quantile level of [x] along [d] (keepdim shape) from its stable ascending order (NaN last), with [valid] the
// count of usable elements per slice: linear interpolation between the ranks around q * (valid - 1), or the lower,
// higher, midpoint or nearest (half to even) of them. A slice with no usable element gives its last (NaN) element.
Tensor one_quantile(const Tensor& x, const Tensor& order, const Tensor& valid, int64_t d, double q,
                    const std::string& how) {
  const Tensor last = full({}, Scalar(x.size(d) - 1), DType::float64, x.device());
  Tensor rank = mul(sub(valid.to(DType::float64), ones({}, DType::float64, x.device())), full({}, Scalar(q), DType::float64, x.device()));
  rank = where(lt(valid, Scalar(int64_t(1))), last, rank);
  if (how == "nearest") rank = call_op(O::round, rank);
  auto pick = [&](const Tensor& r) {
    return call_op(O::gather, x, d, call_op(O::gather, order, d, r.to(DType::int64)));
  };
  const Tensor lo = call_op(O::floor, rank), hi = call_op(O::ceil, rank);
  if (how == "lower" || how == "nearest") return pick(lo);
  if (how == "higher") return pick(hi);
  const Tensor a = pick(lo), b = pick(hi);
  if (how == "midpoint") return div(add(a, b), full({}, Scalar(2.0), x.dtype(), x.device()));
  return add(a, mul(sub(b, a), sub(rank, lo).to(x.dtype())));
}

// quantile / nanquantile (input, q, dim=None, keepdim=False, *, interpolation='linear'). quantile gives NaN for a
// slice holding a NaN; nanquantile ranks only the non-NaN elements.
Tensor quantiles(OpId op, Args& args, bool ignore_nan) {
  ArgReader a(op, args);
  const char* name = ignore_nan ? "nanquantile" : "quantile";
  const Tensor& input = a.tensor(0);
  AMPS_CHECK(input.dtype() == DType::float32 || input.dtype() == DType::float64,
             "{}() input tensor must be either float or double dtype", name);
  AMPS_CHECK(input.numel() > 0, "{}() input tensor must be non-empty", name);
  const Tensor q = a.tensor(1);
  const std::vector<double> levels = quantile_levels(q, name);
  const std::string how = a.str(4);
  AMPS_CHECK(how == "linear" || how == "lower" || how == "higher" || how == "midpoint" || how == "nearest",
             "{}() interpolation must be one of linear, lower, higher, midpoint or nearest. Got {}", name, how);
  const std::optional<int64_t> dim = a.opt_i64(2);
  const bool keepdim = a.boolean(3);
  const Tensor x = dim ? (input.dim() == 0 ? input.reshape({1}) : input) : input.reshape({-1});
  const int64_t d = dim ? wrap_dim(*dim, x.dim()) : 0;
  const Tensor order = dispatch(O::sort, Args{x.detach(), d, false, true})[1];
  const Tensor nans = sum(call_op(O::isnan, x), Dims{d}, true, DType::int64);
  const Tensor count = full({}, Scalar(x.size(d)), DType::int64, x.device());
  const Tensor valid = ignore_nan ? sub(count, nans) : where(gt(nans, Scalar(int64_t(0))), zeros({}, DType::int64, x.device()), count);
  std::vector<Tensor> per_level;
  for (double level : levels) {
    Tensor v = one_quantile(x, order, valid, d, level, how);
    if (!keepdim) v = v.squeeze(d);
    else if (!dim) v = v.reshape(Dims(size_t(input.dim()), 1));
    per_level.push_back(v);
  }
  return q.dim() == 0 ? per_level[0] : stack(per_level, 0);
}

}  // namespace

Tensors quantile_math(Args& args) { return {quantiles(O::quantile, args, false)}; }
Tensors nanquantile_math(Args& args) { return {quantiles(O::nanquantile, args, true)}; }

// bincount(input, weights=None, minlength=0): the count (or the sum of weights) of each value of a 1-D
// non-negative integer input, max(input) + 1 or minlength long.
Tensors bincount_math(Args& args) {
  ArgReader a(O::bincount, args);
  const Tensor& x = a.tensor(0);
  const Tensor w = a.opt_tensor(1);
  const int64_t minlength = a.i64(2);
  AMPS_CHECK(minlength >= 0, "minlength should be >= 0");
  AMPS_CHECK(x.dim() == 1 && !x.is_floating_point() && x.dtype() != DType::bool_,
             "bincount only supports 1-d non-negative integral inputs.");
  AMPS_CHECK(!w.defined() || (w.dim() == 1 && w.size(0) == x.size(0)),
             "weights should be 1-d and have the same length as input");
  int64_t n = minlength;
  if (x.numel() > 0) {
    const std::vector<double> extremes = {min(x).to_doubles()[0], max(x).to_doubles()[0]};
    AMPS_CHECK(extremes[0] >= 0, "bincount only supports 1-d non-negative integral inputs.");
    n = std::max(n, int64_t(extremes[1]) + 1);
  }
  // PyTorch's result types: int64 counts; float32 or float64 weights keep their dtype, others sum in float64
  const DType out = !w.defined() ? DType::int64
                    : (w.dtype() == DType::float32 || w.dtype() == DType::float64) ? w.dtype() : DType::float64;
  const Tensor source = w.defined() ? w.to(out) : ones({x.size(0)}, DType::int64, x.device());
  const Tensor index = x.dtype() == DType::int32 ? x : x.to(DType::int64);  // uint8/int8/int16 values index as int64
  return {call_op(O::index_add, zeros({n}, out, x.device()), int64_t(0), index, source)};
}

// histc(input, bins=100, min=0, max=0): counts of input's elements in [bins] equal-width bins over [min, max] (the
// data's own extremes when both are 0), elements outside ignored, max falling in the last bin; input's dtype.
Tensors histc_math(Args& args) {
  ArgReader a(O::histc, args);
  const Tensor& x = a.tensor(0);
  const int64_t bins = a.i64(1);
  double lo = a.scalar(2).to_double(), hi = a.scalar(3).to_double();
  AMPS_CHECK(bins > 0, "torch.histogramdd(): bins must be > 0, but got {} for dimension 0", bins);
  AMPS_CHECK(x.is_floating_point(), "\"histogram_cpu\" not implemented for '{}'", dtype_name(x.dtype()));
  if (lo == hi && x.numel() > 0) lo = min(x).to_doubles()[0], hi = max(x).to_doubles()[0];
  if (lo == hi) lo -= 1, hi += 1;
  AMPS_CHECK(lo < hi, "max must be larger than min");
  AMPS_CHECK(std::isfinite(lo) && std::isfinite(hi), "range of [{}, {}] is not finite", lo, hi);
  const Tensor flat = x.reshape({-1}).to(DType::float64);
  const Tensor inside = call_op(O::logical_and, ge(flat, Scalar(lo)), le(flat, Scalar(hi)));
  Tensor bin = call_op(O::floor, mul(sub(flat, full({}, Scalar(lo), DType::float64, x.device())),
                                     full({}, Scalar(double(bins) / (hi - lo)), DType::float64, x.device())));
  bin = call_op(O::clamp, bin, Scalar(0.0), Scalar(double(bins - 1))).to(DType::int64);
  const Tensor hits = inside.to(DType::float64);
  return {call_op(O::index_add, zeros({bins}, DType::float64, x.device()), int64_t(0), bin, hits).to(x.dtype())};
}

}  // namespace amps::rt::common
