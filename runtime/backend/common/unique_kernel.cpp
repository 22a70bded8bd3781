#include "runtime/backend/common/unique_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

template <typename C> bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// The R rows of length L of a contiguous host array, compared lexicographically in the compute type: NaN orders
// after every number, and is equal to nothing (each NaN element makes its row a value of its own).
template <typename T> struct Rows {
  using C = compute_t<T>;
  const T* p;
  int64_t L;
  bool less(int64_t a, int64_t b) const {
    for (int64_t k = 0; k < L; ++k) {
      const C va = C(p[a * L + k]), vb = C(p[b * L + k]);
      if (is_nan(va) || is_nan(vb)) {
        if (is_nan(va) != is_nan(vb)) return is_nan(vb);
        continue;
      }
      if (va != vb) return va < vb;
    }
    return false;
  }
  bool equal(int64_t a, int64_t b) const {
    for (int64_t k = 0; k < L; ++k)
      if (!(C(p[a * L + k]) == C(p[b * L + k]))) return false;
    return true;
  }
};

struct Groups {
  std::vector<int64_t> first, inverse, counts;  // per group: a row of it, its size; per row: its group
};

// Groups of equal rows: runs of equal neighbours in the row order, ascending when [sort] (a stable sort).
template <typename T> Groups group_rows(const Rows<T>& rows, int64_t R, bool sort) {
  std::vector<int64_t> order(static_cast<size_t>(R));
  std::iota(order.begin(), order.end(), int64_t(0));
  if (sort) std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return rows.less(a, b); });
  Groups g;
  g.inverse.resize(size_t(R));
  for (int64_t i : order) {
    if (g.first.empty() || !rows.equal(i, g.first.back())) g.first.push_back(i), g.counts.push_back(0);
    ++g.counts.back();
    g.inverse[size_t(i)] = int64_t(g.first.size()) - 1;
  }
  return g;
}

Tensor longs(const std::vector<int64_t>& v, const Dims& shape, Device dev) {
  Tensor t = Tensor::empty(shape, DType::int64, Device::cpu());
  std::copy(v.begin(), v.end(), t.data<int64_t>());
  return dev == Device::cpu() ? t : call_op(OpId::to, t, IValue(), dev);
}

// [x] with [dim] first (the slices as rows).
Tensor dim_first(const Tensor& x, int64_t dim) {
  Dims perm{dim};
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dim) perm.push_back(d);
  return x.permute(perm);
}

// unique over the slices of [x] along [dim] (every element when dim is none): the distinct slices (ascending when
// [sort], else in their order with only consecutive repeats merged), each slice's group (the input's shape without
// dim, or dim's length), and each group's size. The grouping runs on the host (a sync on a device, as PyTorch's);
// the values are index_select-ed from [x] where it lives.
Tensors unique_results(const Tensor& x, std::optional<int64_t> dim, bool sort) {
  const Tensor flat = dim ? dim_first(x, *dim) : x.reshape({-1});
  if (x.device() != Device::cpu()) current_context().count_host_sync();
  const Tensor host = call_op(OpId::contiguous, flat.device() == Device::cpu() ? flat : flat.to(Device::cpu()));
  const int64_t R = flat.size(0), L = R == 0 ? 0 : host.numel() / R;
  const Groups g = AMPS_DISPATCH_ALL(host.dtype(), T, [&] { return group_rows(Rows<T>{host.data<T>(), L}, R, sort); });
  const Device dev = x.device();
  const Tensor first = longs(g.first, {int64_t(g.first.size())}, dev);
  const Tensor values = dim ? index_select(x, *dim, first) : index_select(flat, 0, first);
  const Dims inverse_shape = dim ? Dims{R} : x.sizes();
  return {values, longs(g.inverse, inverse_shape, dev), longs(g.counts, {int64_t(g.counts.size())}, dev)};
}

// _unique2(input, sorted, return_inverse, return_counts): every result is computed (sorted or not, the values come
// ascending: PyTorch leaves the order of sorted=False unspecified); the flags only say which the caller keeps.
Tensors k_unique2(const ArgReader& a, const KernelContext&) { return unique_results(a.tensor(0), std::nullopt, true); }

// unique_dim(input, dim, sorted, return_inverse, return_counts): the distinct slices along dim, ascending.
Tensors k_unique_dim(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0);
  AMPS_CHECK_INDEX(x.dim() > 0, "unique_dim: a 0-dim tensor has no dimension {}", a.i64(1));
  const int64_t dim = wrap_dim(a.i64(1), x.dim());
  AMPS_CHECK(x.size(dim) > 0 || x.numel() == 0, "Number of zero sized dimensions is more than one, so unique cannot "
             "be applied");
  return unique_results(x, dim, true);
}

// unique_consecutive(input, return_inverse, return_counts, dim): consecutive repeats merged, order kept.
Tensors k_unique_consecutive(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0);
  std::optional<int64_t> dim = a.opt_i64(3);
  if (dim) {
    AMPS_CHECK_INDEX(x.dim() > 0, "unique_consecutive: a 0-dim tensor has no dimension {}", *dim);
    dim = wrap_dim(*dim, x.dim());
  }
  return unique_results(x, dim, false);
}

}  // namespace

void register_unique_kernel(cpu::KernelTable& t) {
  t.add(OpId::_unique2, k_unique2);
  t.add(OpId::unique_dim, k_unique_dim);
  t.add(OpId::unique_consecutive, k_unique_consecutive);
}

}  // namespace amps::rt::common
