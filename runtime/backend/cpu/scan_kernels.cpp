// CPU kernels for the running extremes cummax/cummin and the binary search searchsorted (PyTorch's loops: ties
// and NaN as its CPU kernels); device backends run them through the host fallback (host_fallback_kernels.hpp).
#include <cmath>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/common/sort_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cpu {
namespace {

template <typename C> bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// Each row of [l] scanned: an element replaces the running extreme when it is NaN, or when the extreme is not NaN
// and the element ties or beats it (so ties take the later index, as PyTorch's `x >= best`).
template <typename T, bool Max> void scan_rows_of(const common::SortLayout& l, const Tensor& values,
                                                  const Tensor& indices) {
  using C = compute_t<T>;
  const T* in = l.rows.data<T>();
  T* vo = values.data<T>();
  int64_t* io = indices.data<int64_t>();
  const int64_t n = l.n;
  parallel_for(l.outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const T* p = in + r * n;
      C best = C(p[0]);
      int64_t at = 0;
      for (int64_t j = 0; j < n; ++j) {
        const C x = C(p[j]);
        if (is_nan(x) || (!is_nan(best) && (Max ? x >= best : x <= best))) best = x, at = j;
        vo[r * n + j] = T(best);
        io[r * n + j] = at;
      }
    }
  });
}

// cummax(input, dim) / cummin(input, dim): the running extreme along dim and the index it came from.
template <bool Max> Tensors k_cum_extreme(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  const common::SortLayout l = common::sort_layout(x, a.i64(1), -1);
  Tensor values = Tensor::empty(l.out_rows, x.dtype(), kc.device);
  Tensor indices = Tensor::empty(l.out_rows, DType::int64, kc.device);
  if (l.outer && l.n)
    AMPS_DISPATCH_ALL(x.dtype(), T, [&] { scan_rows_of<T, Max>(l, values, indices); });
  return common::finish_sort(l, values, indices);
}

// The searchsorted arguments: the sorted rows (the innermost dim), the values, how the rows pair with the values.
struct SearchArgs {
  Tensor seq, values, sorter;  // row-major, one common dtype; sorter int64 or undefined
  int64_t m = 0;               // row length of seq
  int64_t per_row = 0;         // values per row of seq (0: seq is 1-D, one row for all)
  bool right = false;
};

void check_search_shapes(const Tensor& seq, const Tensor& v, const Tensor& sorter) {
  AMPS_CHECK(seq.dim() > 0, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
             "dimension");
  const bool matched = seq.dim() == v.dim() &&
                       Dims(seq.sizes().begin(), seq.sizes().end() - 1) == Dims(v.sizes().begin(), v.sizes().end() - 1);
  AMPS_CHECK(seq.dim() == 1 || matched, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first "
             "N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {} "
             "and input value tensor {}", common::list_shape(seq.sizes()), common::list_shape(v.sizes()));
  if (!sorter.defined()) return;
  AMPS_CHECK(sorter.dtype() == DType::int64, "torch.searchsorted(): sorter must be a tensor of long dtype but got "
             "dtype {}", dtype_name(sorter.dtype()));
  AMPS_CHECK(sorter.sizes() == seq.sizes(), "torch.searchsorted(): boundary and sorter must have the same size, but "
             "got boundary tensor {}and got sorter tensor {}", common::list_shape(seq.sizes()),
             common::list_shape(sorter.sizes()));
}

SearchArgs search_args(const ArgReader& a) {
  Tensor seq = a.tensor(0), v = a.tensor(1), sorter = a.opt_tensor(5);
  check_search_shapes(seq, v, sorter);
  const std::optional<std::string> side = a.opt_str(4);
  AMPS_CHECK(!side || *side == "left" || *side == "right", "torch.searchsorted(): side can only be 'left' or "
             "'right' but got {}", *side);
  AMPS_CHECK(!(a.boolean(3) && side == "left"), "torch.searchsorted(): side and right "
             "can't be set to opposites, got side of {} while right was True", *side);
  const DType dt = result_type({&seq, &v});
  SearchArgs s{contiguous(cast(seq, dt)), contiguous(cast(v, dt)), sorter.defined() ? contiguous(sorter) : sorter};
  s.m = seq.size(-1);
  s.per_row = seq.dim() == 1 ? 0 : (v.dim() == 0 ? 1 : v.size(-1));
  s.right = a.boolean(3) || side == "right";
  if (s.sorter.defined()) {
    const int64_t* o = s.sorter.data<int64_t>();
    for (int64_t i = 0; i < s.sorter.numel(); ++i)
      AMPS_CHECK_INDEX(o[i] >= 0 && o[i] < s.m, "torch.searchsorted(): sorter index {} is out of bounds for the "
                       "boundary's innermost dimension of size {}", o[i], s.m);
  }
  return s;
}

// PyTorch's cus_lower_bound / cus_upper_bound over row [row] (read through the sorter when given).
template <typename T> void search_of(const SearchArgs& s, const Tensor& out) {
  using C = compute_t<T>;
  const T* seq = s.seq.data<T>();
  const T* v = s.values.data<T>();
  const int64_t* order = s.sorter.defined() ? s.sorter.data<int64_t>() : nullptr;
  const int64_t n = s.values.numel();
  auto put = [&](int64_t i, int64_t pos) {
    if (out.dtype() == DType::int32) out.data<int32_t>()[i] = int32_t(pos);
    else out.data<int64_t>()[i] = pos;
  };
  parallel_for(n, kParallelGrain / 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t base = s.per_row ? (i / s.per_row) * s.m : 0;
      const C val = C(v[i]);
      int64_t lo = 0, hi = s.m;
      while (lo < hi) {
        const int64_t mid = lo + ((hi - lo) >> 1);
        const C at = C(seq[base + (order ? order[base + mid] : mid)]);
        if (s.right ? !(at > val) : !(at >= val)) lo = mid + 1;
        else hi = mid;
      }
      put(i, lo);
    }
  });
}

// searchsorted(sorted_sequence, input, *, out_int32, right, side, sorter): each value's insertion point in its row.
Tensors k_searchsorted(const ArgReader& a, const KernelContext& kc) {
  const SearchArgs s = search_args(a);
  Tensor out = Tensor::empty(a.tensor(1).sizes(), a.boolean(2) ? DType::int32 : DType::int64, kc.device);
  if (out.numel()) AMPS_DISPATCH_ALL(s.values.dtype(), T, [&] { search_of<T>(s, out); });
  return {out};
}

}  // namespace

void register_scan_kernels(KernelTable& t) {
  t.add(OpId::cummax, k_cum_extreme<true>);
  t.add(OpId::cummin, k_cum_extreme<false>);
  t.add(OpId::searchsorted, k_searchsorted);
}

}  // namespace amps::rt::cpu
