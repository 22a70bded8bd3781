// Device-independent argument handling of sort, argsort and topk: the [outer, n] rows every backend orders (the
// sorted dim moved innermost), the k kept per row, and the results moved back to the input's dim order.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

struct SortLayout {
  Tensor rows;                // the input with [dim] innermost, row-major (a 0-dim input is one row of 1)
  int64_t dim = 0;            // the sorted dim, wrapped (0 for a 0-dim input)
  int64_t outer = 0, n = 0;   // rows and their length
  int64_t k = 0;              // elements kept per row: n for sort, k for topk
  Dims out_rows;              // rows' sizes with the last one k: the shape a backend writes its results in
  bool scalar = false;        // a 0-dim input (its results are 0-dim too)
};

// The layout of sorting [x] along [dim], keeping [k] per row (k < 0: all). PyTorch's errors: a dim out of range,
// "selected index k out of range" for topk.
SortLayout sort_layout(const Tensor& x, int64_t dim, int64_t k);

// The results written in [l].out_rows order, moved back to the input's dim order (row-major).
Tensors finish_sort(const SortLayout& l, const Tensor& values, const Tensor& indices);

// sort(input, dim, descending, *, stable), argsort(...) and topk(input, k, dim, largest, sorted) read with
// [sort_rows]: a backend's kernel ordering every row of a layout (descending when [largest]) into values and
// int64 indices of shape out_rows. Ties keep their input order and NaN orders as the largest value, so every
// backend gives the same result (PyTorch's stable order).
using SortRowsFn = void (*)(const SortLayout& l, bool largest, const Tensor& values, const Tensor& indices);
Tensors sort_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows);
Tensors argsort_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows);
Tensors topk_op(const ArgReader& a, const KernelContext& kc, SortRowsFn sort_rows);

// Registers sort, argsort and topk in a backend's table [t], ordering rows with the backend's [Rows].
template <SortRowsFn Rows> void register_sort_kernels(cpu::KernelTable& t) {
  t.add(OpId::sort, [](const ArgReader& a, const KernelContext& kc) { return sort_op(a, kc, Rows); });
  t.add(OpId::argsort, [](const ArgReader& a, const KernelContext& kc) { return argsort_op(a, kc, Rows); });
  t.add(OpId::topk, [](const ArgReader& a, const KernelContext& kc) { return topk_op(a, kc, Rows); });
}

}  // namespace amps::rt::common
