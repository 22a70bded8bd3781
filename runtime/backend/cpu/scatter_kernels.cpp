// CPU kernels for scatter, scatter_add and their in-place forms: every index element, in row-major order, writes
// (scatter: the last write to a position wins, as PyTorch's CPU kernel) or adds (scatter_add: in float64 for floats,
// int64 otherwise, rounded once into input's dtype) its src element at the input position it points to.
#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cpu/scatter_targets.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// A row-major copy of [t] in [dt] (never [t] itself: the kernels write into it).
Tensor fresh_copy(const Tensor& t, DType dt) {
  Tensor out = Tensor::empty(t.sizes(), dt, t.device());
  copy_into(out, t);
  return out;
}

// res[target of e] += v[e] for every element e of idx.
template <typename T> void add_into(const Tensor& idx, int64_t dim, Tensor& res, const Tensor& v) {
  T* o = res.data<T>();
  const T* sv = v.data<T>();
  common::for_each_target(idx, res.sizes(), dim, [&](int64_t e, int64_t off) { o[off] += sv[e]; });
}

// The out-of-place result of scatter (add = false) or scatter_add (add = true) of a's arguments.
Tensor scattered(const ArgReader& a, bool add) {
  const Tensor& input = a.tensor(0);
  const common::ScatterArgs s = common::scatter_args(add ? "scatter_add" : "scatter", input, a.i64(1), a.tensor(2),
                                                     a.tensor(3));
  const Tensor idx = contiguous(cast(a.tensor(2), DType::int64)), src = a.tensor(3);
  // src's leading index-shaped block (src may be larger than index), or the value broadcast to index's shape
  const Tensor block = s.value ? native::expand(src, idx.sizes())
                               : native::as_strided(src, idx.sizes(), src.strides(), src.storage_offset());
  const DType work = !add ? input.dtype() : is_floating(input.dtype()) ? DType::float64 : DType::int64;
  Tensor res = fresh_copy(input, work);
  const Tensor v = contiguous(cast(block, work));
  if (add && work == DType::float64) add_into<double>(idx, s.dim, res, v);
  else if (add) add_into<int64_t>(idx, s.dim, res, v);
  else AMPS_DISPATCH_ALL(work, T, [&] {
    T* o = res.data<T>();
    const T* sv = v.data<T>();
    common::for_each_target(idx, res.sizes(), s.dim, [&](int64_t e, int64_t off) { o[off] = sv[e]; });
  });
  return work == input.dtype() ? res : cast(res, input.dtype());
}

Tensors k_scatter(const ArgReader& a, const KernelContext&) { return one_tensor(scattered(a, false)); }
Tensors k_scatter_add(const ArgReader& a, const KernelContext&) { return one_tensor(scattered(a, true)); }

Tensors k_scatter_(const ArgReader& a, const KernelContext&) {
  copy_into(a.tensor(0), scattered(a, false));
  return one_tensor(a.tensor(0));
}

Tensors k_scatter_add_(const ArgReader& a, const KernelContext&) {
  copy_into(a.tensor(0), scattered(a, true));
  return one_tensor(a.tensor(0));
}

}  // namespace

void register_scatter_kernels(KernelTable& t) {
  t.add(OpId::scatter, k_scatter);
  t.add(OpId::scatter_, k_scatter_);
  t.add(OpId::scatter_add, k_scatter_add);
  t.add(OpId::scatter_add_, k_scatter_add_);
}

}  // namespace amps::rt::cpu
