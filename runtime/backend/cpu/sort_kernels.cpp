// CPU kernels for sort, argsort and topk: each row (runtime/backend/common/sort_layout.hpp) is ordered through
// an index permutation, a stable sort for whole rows and a partial sort with the index as tie-break for topk (the
// same first k as the stable sort). NaN orders as the largest value, as PyTorch.
#include <algorithm>
#include <numeric>

#include "runtime/backend/common/sort_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"

namespace amps::rt::cpu {
namespace {

// a < b with NaN after every number.
template <typename C> bool nan_last_less(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return a < b || (b != b && a == a);
  else return a < b;
}

template <typename T> void sort_rows_of(const common::SortLayout& l, bool largest, const Tensor& values,
                                        const Tensor& indices) {
  using C = compute_t<T>;
  const T* in = l.rows.data<T>();
  T* vo = values.data<T>();
  int64_t* io = indices.data<int64_t>();
  const int64_t n = l.n, k = l.k;
  parallel_for(l.outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
    std::vector<int64_t> order(size_t(n), 0);
    for (int64_t r = b; r < e; ++r) {
      const T* p = in + r * n;
      std::iota(order.begin(), order.end(), int64_t(0));
      auto before = [&](int64_t i, int64_t j) {
        return largest ? nan_last_less(C(p[j]), C(p[i])) : nan_last_less(C(p[i]), C(p[j]));
      };
      if (k == n) {
        std::stable_sort(order.begin(), order.end(), before);
      } else {
        std::partial_sort(order.begin(), order.begin() + k, order.end(),
                          [&](int64_t i, int64_t j) { return before(i, j) || (!before(j, i) && i < j); });
      }
      for (int64_t j = 0; j < k; ++j) {
        vo[r * k + j] = p[order[size_t(j)]];
        io[r * k + j] = order[size_t(j)];
      }
    }
  });
}

void sort_rows(const common::SortLayout& l, bool largest, const Tensor& values, const Tensor& indices) {
  AMPS_DISPATCH_ALL(l.rows.dtype(), T, [&] { sort_rows_of<T>(l, largest, values, indices); });
}

}  // namespace

void register_sort_kernels(KernelTable& t) { common::register_sort_kernels<sort_rows>(t); }

}  // namespace amps::rt::cpu
