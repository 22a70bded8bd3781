// Device-independent argument handling of reductions: which dims are reduced, the [outer, inner] row layout
// every backend reduces over, the result dtype of sum-like ops, and the sum/mean kernels' argument reading.
#pragma once

#include <optional>
#include <vector>

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Which of [x]'s dims a reduction over [dims] reduces (None or empty: all); a dim listed twice is an error.
std::vector<bool> reduced_mask(const Tensor& x, const std::optional<Dims>& dims);

// [x] seen as rows: permuting it by [perm] puts the kept dims first and the reduced dims innermost, giving
// [outer, inner] rows; [out_shape] is the result's shape (reduced dims kept as 1 under keepdim).
struct ReducedLayout {
  Dims perm;
  size_t nkept = 0;
  int64_t outer = 1, inner = 1;
  Dims out_shape;
};
ReducedLayout reduced_layout(const Tensor& x, const std::optional<Dims>& dims, bool keepdim);

// The dtype sum, prod and cumsum produce: [requested], else the input's floating dtype, else int64.
DType sum_dtype(const Tensor& x, std::optional<DType> requested);
// mean's dtype: [requested], else the input's; a floating dtype is required.
DType mean_dtype(const Tensor& x, std::optional<DType> requested);

// A backend's sum/mean of [x] over [dims] into [out_dt] on [dev] ([mean] divides by the row length).
using SumFn = Tensor (*)(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, DType out_dt, Device dev,
                         bool mean);

// sum(input, dim, keepdim, *, dtype) and mean(input, dim, keepdim, *, dtype) computed by [Sum].
template <SumFn Sum>
void register_sum_kernels(cpu::KernelTable& t) {
  t.add(OpId::sum, [](const ArgReader& a, const KernelContext& kc) -> Tensors {
    Tensor x = a.tensor(0);
    return {Sum(x, a.opt_ints(1), a.boolean(2), sum_dtype(x, a.opt_dtype(3)), kc.device, false)};
  });
  t.add(OpId::mean, [](const ArgReader& a, const KernelContext& kc) -> Tensors {
    Tensor x = a.tensor(0);
    return {Sum(x, a.opt_ints(1), a.boolean(2), mean_dtype(x, a.opt_dtype(3)), kc.device, true)};
  });
}

}  // namespace amps::rt::common
