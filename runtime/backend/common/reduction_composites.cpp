#include "runtime/backend/common/reduction_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// input with its NaNs replaced by zero (integers have none).
Tensor nan_as_zero(const Tensor& x) {
  if (!x.is_floating_point()) return x;
  return where(call_op(O::isnan, x), zeros({}, x.dtype(), x.device()), x);
}

// A 0-dim input reduces as a one-element vector (PyTorch accepts dim 0 and -1 for it).
Tensor at_least_1d(const Tensor& x) { return x.dim() == 0 ? x.reshape({1}) : x; }

// The value at each slice's position [pos] (int64, keepdim-shaped) of [x] along [d], and that position's index in
// x, from a stable ascending sort (NaN largest); [keepdim] as the op's.
Tensors select_sorted(const Tensor& x, const Tensor& order, const Tensor& pos, int64_t d, bool keepdim,
                      bool zero_dim) {
  Tensor index = call_op(O::gather, order, d, pos);
  Tensor value = call_op(O::gather, x, d, index);
  if (zero_dim) return {value.reshape({}), index.reshape({})};
  if (!keepdim) return {value.squeeze(d), index.squeeze(d)};
  return {value, index};
}

// The values and indices of a stable ascending sort of [x] along [d] (NaN sorts last, as PyTorch's), not
// differentiated (the result is selected from x itself).
Tensors stable_sort(const Tensor& x, int64_t d) { return dispatch(O::sort, Args{x.detach(), d, false, true}); }
Tensor stable_order(const Tensor& x, int64_t d) { return stable_sort(x, d)[1]; }

}  // namespace

Tensors nansum_math(Args& args) {
  ArgReader a(O::nansum, args);
  return {call_op(O::sum, nan_as_zero(a.tensor(0)), args[1], a.boolean(2), args[3])};
}

// PyTorch's nanmean: nansum over the count of non-NaN elements (NaN where a slice has none).
Tensors nanmean_math(Args& args) {
  ArgReader a(O::nanmean, args);
  const Tensor& x = a.tensor(0);
  AMPS_CHECK(x.is_floating_point(), "nanmean(): expected input to have floating point dtype but got {}",
             dtype_name(x.dtype()));
  Tensor count = call_op(O::sum, call_op(O::logical_not, call_op(O::isnan, x)), args[1], a.boolean(2), IValue());
  Tensor total = call_op(O::sum, nan_as_zero(x), args[1], a.boolean(2), args[3]);
  return {div(total, count)};
}

Tensors count_nonzero_math(Args& args) {
  ArgReader a(O::count_nonzero, args);
  const Tensor& x = a.tensor(0);
  return {call_op(O::sum, ne(x, Scalar(int64_t(0))), args[1], false, IValue(DType::int64))};
}

// aminmax(input, *, dim=None, keepdim=False): (amin, amax) over dim, or over every element.
Tensors aminmax_math(Args& args) {
  ArgReader a(O::aminmax, args);
  const Tensor& x = a.tensor(0);
  AMPS_CHECK(x.numel() > 0, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
             "identity.");
  const std::optional<int64_t> dim = a.opt_i64(1);
  const bool keepdim = a.boolean(2);
  Dims dims = dim ? Dims{*dim} : Dims{};
  Tensor lo = call_op(O::amin, x, dims, keepdim), hi = call_op(O::amax, x, dims, keepdim);
  if (!dim && keepdim) {  // every dim kept as 1 (amin/amax with no dims keep none)
    Dims ones(size_t(x.dim()), 1);
    lo = lo.reshape(ones), hi = hi.reshape(ones);
  }
  return {lo, hi};
}

// median(input): the lower median of every element (sorted position (n - 1) / 2), NaN when any is NaN. Its gradient
// is spread evenly over the elements equal to the result (PyTorch's evenly_distribute_backward): the result is
// written as v + sum((x - v) * mask) / count with v the selected value (not differentiated), which adds an exact
// zero to v.
Tensors median_math(Args& args) {
  ArgReader a(O::median, args);
  const Tensor& x = a.tensor(0);
  AMPS_CHECK(x.numel() > 0, "median() input tensor cannot be empty");
  const Tensor flat = x.reshape({-1});
  const int64_t n = flat.numel();
  const Tensor sorted = stable_sort(flat, 0)[0];
  Tensor v = sorted.select(0, (n - 1) / 2);
  if (!x.is_floating_point()) return {v};
  const Tensor nan_seen = call_op(O::any, call_op(O::isnan, flat));
  v = where(nan_seen, full({}, Scalar(NAN), x.dtype(), x.device()), v);
  const Tensor mask = call_op(O::logical_or, eq(flat, v), call_op(O::logical_and, call_op(O::isnan, flat), nan_seen));
  const Tensor picked = where(mask, sub(flat, v), zeros({}, x.dtype(), x.device()));
  return {add(v, div(sum(picked), sum(mask, std::nullopt, false, x.dtype())))};
}

// median(input, dim, keepdim): the lower median of each slice and its index; a slice holding a NaN gives NaN and the
// index of its first NaN (PyTorch's CPU rule).
Tensors median_dim_math(Args& args) {
  ArgReader a(O::median_dim, args);
  const Tensor x = at_least_1d(a.tensor(0));
  const int64_t d = wrap_dim(a.i64(1), x.dim()), n = x.size(d);
  AMPS_CHECK(n > 0, "median(): Expected reduction dim {} to have non-zero size.", a.i64(1));
  const Tensor order = stable_order(x, d);
  Tensor pos = full({}, Scalar((n - 1) / 2), DType::int64, x.device());
  if (x.is_floating_point()) {  // the first NaN sits at n - (number of NaNs) in the stable order
    Tensor nans = sum(call_op(O::isnan, x), Dims{d}, true, DType::int64);
    pos = where(gt(nans, Scalar(int64_t(0))), sub(full({}, Scalar(n), DType::int64, x.device()), nans), pos);
  }
  Dims kept = x.sizes();
  kept[size_t(d)] = 1;
  return select_sorted(x, order, pos.expand(kept), d, a.boolean(2), a.tensor(0).dim() == 0);
}

// kthvalue(input, k, dim=-1, keepdim=False): the k-th smallest of each slice (k from 1; NaN the largest) and its index.
Tensors kthvalue_math(Args& args) {
  ArgReader a(O::kthvalue, args);
  const Tensor x = at_least_1d(a.tensor(0));
  const int64_t d = wrap_dim(a.i64(2), x.dim()), k = a.i64(1);
  AMPS_CHECK(k >= 1 && k <= x.size(d), "kthvalue(): selected number k out of range for dimension {}", a.i64(2));
  Dims kept = x.sizes();
  kept[size_t(d)] = 1;
  const Tensor pos = full(kept, Scalar(k - 1), DType::int64, x.device());
  return select_sorted(x, stable_order(x, d), pos, d, a.boolean(3), a.tensor(0).dim() == 0);
}

}  // namespace amps::rt::common
