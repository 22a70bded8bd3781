// CUDA kernels for layer_norm and var/std (which layer_norm's gradient rule runs), with the CPU backend's checks
// and arithmetic (common/nn_args.hpp, common/reduce_layout.hpp): statistics in float (double for float64) for
// layer_norm, in double for var/std.
#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/common/reduce_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

DType acc_dtype(DType t) { return t == DType::float64 ? DType::float64 : DType::float32; }

// [p] (weight or bias, may be undefined) as n contiguous elements of [acc] on the device.
const void* affine_param(const Tensor& p, int64_t n, DType acc, Tensor& keep, const char* what) {
  if (!p.defined()) return nullptr;
  AMPS_CHECK(p.numel() == n, "layer_norm: {} has {} elements, expected {} (normalized_shape)", what, p.numel(), n);
  keep = contiguous(cast(p, acc));
  return device_data(keep);
}

Tensors k_layer_norm(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  const int64_t n = common::layer_norm_width(x, a.ints(1));
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (out.numel() == 0) return {out};
  const DType acc = acc_dtype(x.dtype());
  Tensor xc = contiguous(x), wc, bc;
  const void* w = affine_param(a.opt_tensor(2), n, acc, wc, "weight");
  const void* b = affine_param(a.opt_tensor(3), n, acc, bc, "bias");
  check(launch_layer_norm(stream(kc.device), elem(x.dtype()), device_data(xc), w, b, device_data(out), x.numel() / n,
                          n, a.f64(4)), "layer_norm");
  return {out};
}

// var/std over the reduced dims permuted innermost (one row-major copy unless already so).
Tensor var_like(const ArgReader& a, Device dev, bool take_sqrt) {
  Tensor x = a.tensor(0);
  const double correction = a.opt_scalar(2).value_or(Scalar(int64_t(1))).to_double();
  const common::ReducedLayout l = common::reduced_layout(x, a.opt_ints(1), a.boolean(3));
  Tensor rows = contiguous(native::permute(x, l.perm)), out = Tensor::empty(l.out_shape, x.dtype(), dev);
  check(launch_var_rows(stream(dev), elem(x.dtype()), device_data(rows), device_data(out), l.outer, l.inner,
                        correction, take_sqrt), take_sqrt ? "std" : "var");
  return out;
}
Tensors k_var(const ArgReader& a, const KernelContext& kc) { return {var_like(a, kc.device, false)}; }
Tensors k_std(const ArgReader& a, const KernelContext& kc) { return {var_like(a, kc.device, true)}; }

}  // namespace

void register_norm_kernels(KernelTable& t) {
  t.add(OpId::layer_norm, k_layer_norm, kFloatDTypes);
  t.add(OpId::var, k_var, kFloatDTypes);
  t.add(OpId::std, k_std, kFloatDTypes);
}

}  // namespace amps::rt::cuda
