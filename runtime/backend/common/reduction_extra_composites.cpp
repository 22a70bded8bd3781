// msort, mode and nanmedian defined by their math (see util_composites.hpp).
#include <algorithm>
#include <numeric>
#include <vector>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/util_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// A 0-dim input reduces as a one-element vector (PyTorch accepts dim 0 and -1 for it).
Tensor as_1d(const Tensor& x) { return x.dim() == 0 ? x.reshape({1}) : x; }

// [values, indices] selected at the keepdim-shaped [index] along [d], shaped as the op asked.
Tensors gathered(const Tensor& x, const Tensor& index, int64_t d, bool keepdim, bool zero_dim) {
  Tensor value = call_op(O::gather, x, d, index);
  if (zero_dim) return {value.reshape({}), index.reshape({})};
  if (!keepdim) return {value.squeeze(d), index.squeeze(d)};
  return {value, index};
}

// The index of one row's mode: the elements sorted by value (stable, so equal values keep their order), the longest
// run wins, the first (smallest) of equally long runs, and its last element's index (PyTorch's CPU mode kernel).
template <typename T> int64_t mode_index(const T* row, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return row[i] < row[j]; });
  int64_t best = 0, best_len = 0, run = 0;
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    const bool ends = i == n - 1 || row[order[size_t(i)]] != row[order[size_t(i + 1)]];
    if (!ends) continue;
    if (run > best_len) best = order[size_t(i)], best_len = run;
    run = 0;
  }
  return best;
}

// Per slice of [x] along [d], the index of its mode, keepdim-shaped int64 on x's device (read on the host).
Tensor mode_indices(const Tensor& x, int64_t d) {
  const int64_t last = x.dim() - 1, n = x.size(d);
  const Tensor rows = x.detach().transpose(d, last).contiguous().to(Device::cpu());
  Dims sizes = rows.sizes();
  sizes[size_t(last)] = 1;
  Tensor idx = Tensor::empty(sizes, DType::int64);
  int64_t* out = idx.data<int64_t>();
  AMPS_DISPATCH_ALL(rows.dtype(), T, [&] {
    const T* p = rows.data<T>();
    for (int64_t r = 0; r < idx.numel(); ++r) out[r] = mode_index(p + r * n, n);
  });
  return idx.transpose(d, last).to(x.device());
}

// The elements of [x] sorted ascending along [d] with NaN last, stable, and the original positions (not
// differentiated: values are gathered from x itself).
Tensor sorted_order(const Tensor& x, int64_t d) { return dispatch(O::sort, Args{x.detach(), d, false, true})[1]; }

// Per slice along [d] (keepdim-shaped): how many elements are not NaN.
Tensor count_not_nan(const Tensor& x, std::optional<Dims> dims, bool keepdim) {
  return sum(call_op(O::logical_not, call_op(O::isnan, x)), dims, keepdim, DType::int64);
}

// The sorted position of the lower median of [count] numbers (0 when there are none: the first NaN).
Tensor lower_median_position(const Tensor& count) {
  const Tensor two = Tensor::scalar(Scalar(int64_t(2)), DType::int64, count.device());
  return clamp(div(count - Scalar(int64_t(1)), two, std::string("floor")), Scalar(int64_t(0)), std::nullopt);
}

}  // namespace

Tensors msort_math(Args& args) {
  ArgReader a(O::msort, args);
  return {dispatch(O::sort, Args{a.tensor(0), int64_t(0), false, false})[0]};
}

// mode(input, dim=-1, keepdim=False): each slice's most frequent value and the index of its last occurrence; values
// are gathered from input, so the gradient goes to that index.
Tensors mode_math(Args& args) {
  ArgReader a(O::mode, args);
  const Tensor x = as_1d(a.tensor(0));
  const int64_t d = wrap_dim(a.i64(1), x.dim());
  AMPS_CHECK_INDEX(x.size(d) > 0, "mode(): Expected reduction dim {} to have non-zero size.", d);
  return gathered(x, mode_indices(x, d), d, a.boolean(2), a.tensor(0).dim() == 0);
}

// nanmedian(input): the lower median of the elements that are not NaN (NaN when none is, or input is empty). Its
// gradient is spread evenly over the elements equal to the result, as median's (PyTorch's evenly_distribute_backward).
Tensors nanmedian_math(Args& args) {
  ArgReader a(O::nanmedian, args);
  const Tensor& x = a.tensor(0);
  if (!x.is_floating_point()) return {call_op(O::median, x)};
  if (x.numel() == 0) return {full({}, Scalar(NAN), x.dtype(), x.device())};
  const Tensor flat = x.reshape({-1});
  const Tensor sorted = call_op(O::gather, flat.detach(), int64_t(0), sorted_order(flat, 0));
  const Tensor v = call_op(O::gather, sorted, int64_t(0), lower_median_position(count_not_nan(flat, Dims{0}, true)))
                       .reshape({});
  const Tensor mask = eq(flat, v);
  const Tensor picked = where(mask, sub(flat, v), zeros({}, x.dtype(), x.device()));
  const Tensor spread = div(sum(picked), sum(mask, std::nullopt, false, x.dtype()));
  return {where(call_op(O::isnan, v), v, add(v, spread))};
}

// nanmedian(input, dim, keepdim=False): each slice's lower median ignoring NaNs and its index (a slice of NaNs only
// gives NaN and the index of its first element: PyTorch's CPU kernel names an arbitrary one of them).
Tensors nanmedian_dim_math(Args& args) {
  ArgReader a(O::nanmedian_dim, args);
  const Tensor x = as_1d(a.tensor(0));
  if (!x.is_floating_point()) return dispatch(O::median_dim, Args{a.tensor(0), a.i64(1), a.boolean(2)});
  const int64_t d = wrap_dim(a.i64(1), x.dim());
  AMPS_CHECK_INDEX(x.size(d) > 0, "median(): Expected reduction dim {} to have non-zero size.", d);
  const Tensor pos = lower_median_position(count_not_nan(x, Dims{d}, true));
  const Tensor index = call_op(O::gather, sorted_order(x, d), d, pos);
  return gathered(x, index, d, a.boolean(2), a.tensor(0).dim() == 0);
}

}  // namespace amps::rt::common
