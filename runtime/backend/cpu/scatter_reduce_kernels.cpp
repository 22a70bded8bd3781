// CPU kernel of scatter_reduce(input, dim, index, src, reduce, include_self): every index element, in row-major
// order, folds its src element into the input position it points to with sum, prod, mean, amax or amin (NaN
// propagating), in float64 for floats and int64 otherwise, rounded once into input's dtype. include_self=False
// starts each position that some index points to from its first src element instead of input's value; mean
// divides by the number of values folded in (floor division for integers, as PyTorch's). Devices run it through
// the host fallback (runtime/backend/common/host_fallback_kernels.hpp).
#include <cmath>
#include <string>

#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cpu/scatter_targets.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

enum class Reduce { sum, prod, mean, amax, amin };

Reduce reduce_of(const std::string& r) {
  if (r == "sum") return Reduce::sum;
  if (r == "prod") return Reduce::prod;
  if (r == "mean") return Reduce::mean;
  if (r == "amax") return Reduce::amax;
  AMPS_CHECK(r == "amin", "reduce argument must be either sum, prod, mean, amax or amin.");
  return Reduce::amin;
}

template <typename T> T fold(Reduce r, T acc, T v) {
  switch (r) {
    case Reduce::sum:
    case Reduce::mean: return acc + v;
    case Reduce::prod: return acc * v;
    case Reduce::amax:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(v) || std::isnan(acc)) return std::isnan(v) ? v : acc;
      return v > acc ? v : acc;
    case Reduce::amin:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(v) || std::isnan(acc)) return std::isnan(v) ? v : acc;
      return v < acc ? v : acc;
  }
  return acc;
}

template <typename T> T mean_of(T sum, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) return sum / T(n);
  else {  // floor division
    T q = sum / T(n);
    return (sum % T(n) != 0 && ((sum < 0) != (n < 0))) ? q - 1 : q;
  }
}

// res (row-major, work dtype T) folded with the index-shaped block v of src along dim.
template <typename T> void fold_into(Tensor& res, const Tensor& idx, const Tensor& v, int64_t dim, Reduce r,
                                     bool include_self) {
  T* o = res.data<T>();
  const T* sv = v.data<T>();
  std::vector<int64_t> count(size_t(res.numel()), include_self ? 1 : 0);
  common::for_each_target(idx, res.sizes(), dim, [&](int64_t e, int64_t off) {
    int64_t& n = count[size_t(off)];
    o[off] = n == 0 ? sv[e] : fold(r, o[off], sv[e]);
    ++n;
  });
  if (r != Reduce::mean) return;
  for (int64_t p = 0; p < res.numel(); ++p)
    if (count[size_t(p)] > 1) o[p] = mean_of(o[p], count[size_t(p)]);
}

Tensors k_scatter_reduce(const ArgReader& a, const KernelContext&) {
  const Tensor& input = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const Tensor& src = a.tensor(3);
  const Reduce r = reduce_of(a.str(4));
  AMPS_CHECK(index.dtype() == DType::int64, "scatter(): Expected dtype int64 for index");
  AMPS_CHECK(src.dtype() == input.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
  const int64_t dim = common::check_scatter_add(input, a.i64(1), index, src, "scatter_reduce");
  const Tensor idx = contiguous(index);
  const Tensor block = native::as_strided(src, idx.sizes(), src.strides(), src.storage_offset());
  const DType work = is_floating(input.dtype()) ? DType::float64 : DType::int64;
  Tensor res = Tensor::empty(input.sizes(), work, input.device());
  copy_into(res, input);
  const Tensor v = contiguous(cast(block, work));
  if (work == DType::float64) fold_into<double>(res, idx, v, dim, r, a.boolean(5));
  else fold_into<int64_t>(res, idx, v, dim, r, a.boolean(5));
  return one_tensor(work == input.dtype() ? res : cast(res, input.dtype()));
}

}  // namespace

void register_scatter_reduce_kernels(KernelTable& t) { t.add(OpId::scatter_reduce, k_scatter_reduce); }

}  // namespace amps::rt::cpu
