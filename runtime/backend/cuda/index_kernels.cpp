// CUDA kernels for index_select, embedding, index_add (the gradient of both), gather, scatter(_) and scatter_add(_)
// (gather's gradient), with the CPU backend's checks (common/index_layout.hpp). Index values
// are never read on the host: an index out of range gives NaN (0 for integer and bool types) in
// index_select/embedding/gather and is skipped by index_add, scatter and scatter_add, where the CPU raises.
#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/functions.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

// The type index_add and scatter_add sum in: double for float64, float for the other float types, int64 for
// integers and bool (exact: the atomics wrap as integer adds do, and the cast back wraps as the CPU's adds).
DType add_acc(DType t) {
  if (!is_floating(t)) return DType::int64;
  return t == DType::float64 ? DType::float64 : DType::float32;
}

const int64_t* int64_index(const Tensor& index, Tensor& keep) {
  keep = contiguous(cast(index, DType::int64));
  return static_cast<const int64_t*>(device_data(keep));
}

Tensor index_select_impl(const Tensor& x, int64_t dim, const Tensor& index, Device dev) {
  const common::IndexSelectLayout l = common::index_select_layout(x, dim, index);
  Tensor out = Tensor::empty(l.out_shape, x.dtype(), dev);
  if (x.dim() == 0) {
    copy_into(out, x);
    return out;
  }
  Tensor xc = contiguous(x), idx;
  check(launch_index_select(stream(dev), elem(x.dtype()), device_data(xc), int64_index(index, idx), l.n,
                            device_data(out), l.l.outer, l.l.size, l.l.inner), "index_select");
  return out;
}

Tensors k_index_select(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(index_select_impl(a.tensor(0), a.i64(1), a.tensor(2), kc.device));
}

Tensors k_embedding(const ArgReader& a, const KernelContext& kc) {
  Tensor input = a.tensor(0), weight = a.tensor(1);
  common::check_embedding(input, weight);
  Tensor flat = index_select_impl(weight, 0, reshape(input, {-1}), kc.device);
  return one_tensor(native::view(flat, common::embedding_shape(input, weight)));
}

// out = input; out[..., index[i], ...] += source[..., i, ...] along dim, summed in add_acc's type and rounded
// (or wrapped) once into input's dtype; repeated indices accumulate in an unspecified order (atomics).
Tensors k_index_add(const ArgReader& a, const KernelContext& kc) {
  const Tensor& input = a.tensor(0);
  const common::IndexAddLayout l = common::index_add_layout(input, a.i64(1), a.tensor(2), a.tensor(3));
  const DType acc = add_acc(input.dtype());
  Tensor res = Tensor::empty(input.sizes(), acc, kc.device), idx;
  copy_into(res, input);
  Tensor src = contiguous(cast(a.tensor(3), acc));
  if (a.scalar(4).to_double() != 1.0) src = contiguous(cast(mul(src, wrap_number(a.scalar(4)).to(kc.device)), acc));
  check(launch_index_add(stream(kc.device), elem(acc), device_data(res), int64_index(a.tensor(2), idx), l.n,
                         device_data(src), l.l.outer, l.l.size, l.l.inner), "index_add");
  return one_tensor(cast(res, input.dtype()));
}

// [sizes] as a launch Shape (no merging: the kernels replace one coordinate).
Shape shape_of(const Dims& sizes, const char* op) {
  AMPS_CHECK(sizes.size() <= size_t(kMaxDims), "{}: tensors of more than {} dims are not supported on cuda, got {}",
             op, kMaxDims, sizes.size());
  Shape sh;
  sh.ndim = int(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) sh.sizes[d] = sizes[d], sh.numel *= sizes[d];
  return sh;
}

DimStrides strides_of(const Tensor& t) {
  DimStrides st;
  for (int64_t d = 0; d < t.dim() && d < kMaxDims; ++d) st.s[d] = t.stride(d);
  return st;
}

// gather(input, dim, index): input read in place through its strides.
Tensors k_gather(const ArgReader& a, const KernelContext& kc) {
  const Tensor& x = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const int64_t dim = common::check_gather(x, a.i64(1), index);
  Tensor out = Tensor::empty(index.sizes(), x.dtype(), kc.device), idx;
  check(launch_gather(stream(kc.device), elem(x.dtype()), shape_of(index.sizes(), "gather"), int(dim), device_data(x),
                      strides_of(x), x.dim() == 0 ? 1 : x.size(dim), int64_index(index, idx), device_data(out)),
        "gather");
  return one_tensor(out);
}

// src's leading index-shaped block, or the value (a host scalar, or a 0-dim device tensor) broadcast to index's
// shape, row-major in [dt] on [dev].
Tensor source_block(const Tensor& src, bool value, const Tensor& index, DType dt, Device dev) {
  if (!value) return contiguous(cast(native::as_strided(src, index.sizes(), src.strides(), src.storage_offset()), dt));
  Tensor block = Tensor::empty(index.sizes(), dt, dev);
  copy_into(block, src);
  return block;
}

// scatter_add(input, dim, index, src): out = input with src's elements (its leading index-shaped block) added where
// index points along dim, summed in add_acc's type with atomics and rounded (or wrapped) once into input's dtype.
Tensor scatter_added(const ArgReader& a, Device dev) {
  const Tensor& input = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const common::ScatterArgs s = common::scatter_args("scatter_add", input, a.i64(1), index, a.tensor(3));
  const DType acc = add_acc(input.dtype());
  Tensor res = Tensor::empty(input.sizes(), acc, dev), idx;
  copy_into(res, input);
  Tensor block = source_block(a.tensor(3), s.value, index, acc, dev);
  check(launch_scatter_add(stream(dev), elem(acc), shape_of(index.sizes(), "scatter_add"), int(s.dim),
                           device_data(res), strides_of(res), input.dim() == 0 ? 1 : input.size(s.dim),
                           int64_index(index, idx), device_data(block)),
        "scatter_add");
  return cast(res, input.dtype());
}

// scatter(input, dim, index, src): out = input with src's elements written where index points along dim.
Tensor scattered(const ArgReader& a, Device dev) {
  const Tensor& input = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const common::ScatterArgs s = common::scatter_args("scatter", input, a.i64(1), index, a.tensor(3));
  Tensor res = Tensor::empty(input.sizes(), input.dtype(), dev), idx;
  copy_into(res, input);
  Tensor block = source_block(a.tensor(3), s.value, index, input.dtype(), dev);
  check(launch_scatter(stream(dev), elem(input.dtype()), shape_of(index.sizes(), "scatter"), int(s.dim),
                       device_data(res), strides_of(res), input.dim() == 0 ? 1 : input.size(s.dim),
                       int64_index(index, idx), device_data(block)),
        "scatter");
  return res;
}

Tensors k_scatter_add(const ArgReader& a, const KernelContext& kc) { return one_tensor(scatter_added(a, kc.device)); }
Tensors k_scatter(const ArgReader& a, const KernelContext& kc) { return one_tensor(scattered(a, kc.device)); }

Tensors k_scatter_add_(const ArgReader& a, const KernelContext& kc) {
  copy_into(a.tensor(0), scatter_added(a, kc.device));
  return one_tensor(a.tensor(0));
}

Tensors k_scatter_(const ArgReader& a, const KernelContext& kc) {
  copy_into(a.tensor(0), scattered(a, kc.device));
  return one_tensor(a.tensor(0));
}

}  // namespace

void register_index_kernels(KernelTable& t) {
  t.add(OpId::index_select, k_index_select);
  t.add(OpId::embedding, k_embedding, dtype_bit(DType::int64) | dtype_bit(DType::int32));
  t.add(OpId::index_add, k_index_add);
  t.add(OpId::gather, k_gather);
  t.add(OpId::scatter_add, k_scatter_add);
  t.add(OpId::scatter_add_, k_scatter_add_);
  t.add(OpId::scatter, k_scatter);
  t.add(OpId::scatter_, k_scatter_);
}

}  // namespace amps::rt::cuda
