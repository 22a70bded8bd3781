#include "runtime/backend/common/sort_layout.hpp"

#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {
namespace {

// [t] with [dim] and the last dim swapped, row-major, on [t]'s backend (below autograd).
Tensor swap_last(const Tensor& t, int64_t dim) {
  Args args{native::transpose(t, dim, -1)};
  return dispatch_backend(OpId::contiguous, args)[0];
}

}  // namespace

SortLayout sort_layout(const Tensor& x, int64_t dim, int64_t k) {
  SortLayout l;
  l.scalar = x.dim() == 0;
  l.dim = wrap_dim(dim, x.dim());
  l.rows = l.scalar ? native::view(x, {1}) : swap_last(x, l.dim);
  l.n = l.rows.size(-1);
  l.outer = numel_of(Dims(l.rows.sizes().begin(), l.rows.sizes().end() - 1));
  AMPS_CHECK(k <= l.n, "selected index k out of range");
  l.k = k < 0 ? l.n : k;
  l.out_rows = l.rows.sizes();
  l.out_rows.back() = l.k;
  return l;
}

Tensors finish_sort(const SortLayout& l, const Tensor& values, const Tensor& indices) {
  if (l.scalar) return {native::view(values, {}), native::view(indices, {})};
  return {swap_last(values, l.dim), swap_last(indices, l.dim)};
}

namespace {

Tensors run_sort(const Tensor& x, int64_t dim, int64_t k, bool largest, const KernelContext& kc,
                 SortRowsFn sort_rows) {
  SortLayout l = sort_layout(x, dim, k);
  Tensor values = Tensor::empty(l.out_rows, x.dtype(), kc.device);
  Tensor indices = Tensor::empty(l.out_rows, DType::int64, kc.device);
  if (l.outer && l.k) sort_rows(l, largest, values, indices);
  return finish_sort(l, values, indices);
}

}  // namespace

Tensors sort_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows) {
  return run_sort(a.tensor(0), a.i64(1), -1, a.boolean(2), kc, sort_rows);
}

Tensors argsort_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows) {
  return {run_sort(a.tensor(0), a.i64(1), -1, a.boolean(2), kc, sort_rows)[1]};
}

// topk's `sorted=False` may return the k elements in any order (PyTorch); they come sorted here.
Tensors topk_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows) {
  const Tensor& x = a.tensor(0);
  const int64_t k = a.i64(1);
  AMPS_CHECK(k >= 0, "selected index k out of range");
  return run_sort(x, a.i64(2), k, a.boolean(3), kc, sort_rows);
}

}  // namespace amps::rt::common
