// CUDA kernels for max, min, amax, amin, max.dim, min.dim and argmax/argmin: the reduced dims are permuted
// innermost into a row-major block (one device copy unless already so) and each row is scanned by one block
// (extreme.cu), with the CPU backend's rules: the first extreme index wins, a NaN is the extreme.
#include "runtime/backend/common/reduce_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

// [x] as row-major [outer, inner] with the dims in [dims] (None or empty: all) innermost.
struct Rows {
  Tensor block;
  int64_t outer = 1, inner = 1;
  Dims out_shape;
};

Rows make_rows(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, OpId op) {
  const common::ReducedLayout l = common::reduced_layout(x, dims, keepdim);
  AMPS_CHECK(l.inner > 0 || l.outer == 0, "{}(): Expected reduction dim to be specified for input.numel() == 0. "
             "Specify the reduction dim with the 'dim' argument.", op_name(op));
  return Rows{contiguous(native::permute(x, l.perm)), l.outer, l.inner, l.out_shape};
}

// Values (x's dtype) and/or int64 indices of each row's extreme; an empty output is left undefined.
Tensors extremes(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, bool want_max, bool values,
                 bool indices, const ArgReader& a, Device dev) {
  Rows r = make_rows(x, dims, keepdim, a.op());
  Tensor v = values ? Tensor::empty(r.out_shape, x.dtype(), dev) : Tensor();
  Tensor i = indices ? Tensor::empty(r.out_shape, DType::int64, dev) : Tensor();
  check(launch_extreme_rows(stream(dev), elem(x.dtype()), device_data(r.block), r.outer, r.inner, want_max,
                            values ? device_data(v) : nullptr, indices ? static_cast<int64_t*>(device_data(i)) : nullptr),
        want_max ? "max" : "min");
  if (values && indices) return {v, i};
  return one_tensor(values ? v : i);
}

Tensors k_max(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), std::nullopt, false, true, true, false, a, kc.device); }
Tensors k_min(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), std::nullopt, false, false, true, false, a, kc.device); }
Tensors k_amax(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), a.ints(1), a.boolean(2), true, true, false, a, kc.device); }
Tensors k_amin(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), a.ints(1), a.boolean(2), false, true, false, a, kc.device); }
Tensors k_max_dim(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), Dims{a.i64(1)}, a.boolean(2), true, true, true, a, kc.device); }
Tensors k_min_dim(const ArgReader& a, const KernelContext& kc) { return extremes(a.tensor(0), Dims{a.i64(1)}, a.boolean(2), false, true, true, a, kc.device); }

// argmax/argmin: dim None flattens (keepdim then gives an all-ones shape, like PyTorch).
Tensors arg_kernel(const ArgReader& a, const KernelContext& kc, bool want_max) {
  Tensor x = a.tensor(0);
  if (std::optional<int64_t> d = a.opt_i64(1)) return extremes(x, Dims{*d}, a.boolean(2), want_max, false, true, a, kc.device);
  Tensor flat = extremes(reshape(x, {-1}), Dims{0}, false, want_max, false, true, a, kc.device)[0];
  return one_tensor(a.boolean(2) ? native::view(flat, Dims(size_t(x.dim()), 1)) : flat);
}
Tensors k_argmax(const ArgReader& a, const KernelContext& kc) { return arg_kernel(a, kc, true); }
Tensors k_argmin(const ArgReader& a, const KernelContext& kc) { return arg_kernel(a, kc, false); }

}  // namespace

void register_extreme_kernels(KernelTable& t) {
  t.add(OpId::max, k_max);
  t.add(OpId::min, k_min);
  t.add(OpId::amax, k_amax);
  t.add(OpId::amin, k_amin);
  t.add(OpId::max_dim, k_max_dim);
  t.add(OpId::min_dim, k_min_dim);
  t.add(OpId::argmax, k_argmax);
  t.add(OpId::argmin, k_argmin);
}

}  // namespace amps::rt::cuda
