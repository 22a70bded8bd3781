// CUDA kernels for broadcasting ternary ops: addcmul(_), addcdiv(_), lerp(_), where, masked_fill(_) and
// threshold_backward, with the CPU backend's type promotion and checks (runtime/backend/cpu/binary_kernels.cpp).
// The conditions of where/masked_fill stay bool on the device; the sync-free optimizers (stdlib
// optim.syncfree) skip a step with where(found_inf > 0, old, new), so none of this reads a device value on
// the host.
#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/common/mask_checks.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cuda {
namespace {

// [t] in [dt]: host scalars are converted on the host, device tensors on the device.
Tensor as_dtype(const Tensor& t, DType dt) { return t.device().is_host() ? cpu::cast(t, dt) : cast(t, dt); }

void check_devices(OpId id, std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts)
    AMPS_CHECK(!t->device().is_host() || is_host_scalar(*t), "{}: Expected all tensors to be on the same device, but "
               "found at least two devices, cuda and {}!", op_name(id), device_str(t->device()));
}

void check_inplace(OpId id, const Tensor& self, DType dt, const Dims& shape) {
  AMPS_CHECK(shape == self.sizes(), "{}: output with shape {} doesn't match the broadcast shape {}", op_name(id),
             format_shape(self.sizes()), format_shape(shape));
  bool ok = !(is_floating(dt) && !is_floating(self.dtype())) && !(dt != DType::bool_ && self.dtype() == DType::bool_);
  AMPS_CHECK(ok, "{}: result type {} can't be cast to the desired output type {}", op_name(id), dtype_name(dt),
             dtype_name(self.dtype()));
}

void launch(TernOp op, DType dt, const Tensor& out, const Tensor& x, const Tensor& y, const Tensor& z, double value) {
  Launch l = make_launch(out.sizes(), {&out, &x, &y, &z});
  check(launch_ternary(stream(out.device()), op, elem(dt), l.shape, l.ops[0], l.ops[1], l.ops[2], l.ops[3], value),
        "ternary op");
}

// out = op(x, y, z) broadcasting all three; [x] is the in-place target when [inplace].
Tensor ternary(TernOp op, const ArgReader& a, const KernelContext& kc, bool inplace, double value) {
  Tensor x = a.tensor(0), y = a.tensor(1), z = a.tensor(2);
  check_devices(a.op(), {&x, &y, &z});
  DType dt = cpu::result_type({&x, &y, &z});
  AMPS_CHECK(!(op == TernOp::addcdiv && !is_floating(dt)), "Integer division with addcdiv is no longer supported, "
             "and in a future release addcdiv will perform a true division of tensor1 and tensor2.");
  AMPS_CHECK(op != TernOp::lerp || is_floating(dt), "lerp: expected floating point tensors, got {}", dtype_name(dt));
  Dims shape = broadcast_shapes(cpu::broadcast_pair(x, y, op_name(a.op())), z.sizes(), op_name(a.op()));
  if (inplace) check_inplace(a.op(), x, dt, shape);
  const bool direct = inplace && dt == x.dtype();
  Tensor out = direct ? x : Tensor::empty(shape, dt, kc.device);
  launch(op, dt, out, as_dtype(x, dt), as_dtype(y, dt), as_dtype(z, dt), value);
  if (inplace && !direct) copy_into(x, out);
  return inplace ? x : out;
}

Tensors k_addcmul(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::addcmul, a, kc, false, a.scalar(3).to_double()));
}
Tensors k_addcmul_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::addcmul, a, kc, true, a.scalar(3).to_double()));
}
Tensors k_addcdiv(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::addcdiv, a, kc, false, a.scalar(3).to_double()));
}
Tensors k_addcdiv_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::addcdiv, a, kc, true, a.scalar(3).to_double()));
}
Tensors k_lerp(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::lerp, a, kc, false, 1.0));
}
Tensors k_lerp_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(TernOp::lerp, a, kc, true, 1.0));
}

Tensors k_where(const ArgReader& a, const KernelContext& kc) {
  Tensor c = a.tensor(0), x = a.tensor(1), y = a.tensor(2);
  check_devices(OpId::where, {&c, &x, &y});
  // a uint8 condition is read as bool, as PyTorch 1.13 still accepts it (deprecated)
  AMPS_CHECK(c.dtype() == DType::bool_ || c.dtype() == DType::uint8, "where expected condition to be a boolean "
             "tensor, but got a tensor with dtype {}", common::torch_type_name(c.dtype()));  // 1.13's spelling: Long
  c = as_dtype(c, DType::bool_);
  DType dt = cpu::result_type({&x, &y});
  Dims shape = broadcast_shapes(cpu::broadcast_pair(c, x, "where"), y.sizes(), "where");
  Tensor out = Tensor::empty(shape, dt, kc.device);
  launch(TernOp::where, dt, out, c, as_dtype(x, dt), as_dtype(y, dt), 0.0);
  return one_tensor(out);
}

Tensor masked_fill(const ArgReader& a, const KernelContext& kc, bool inplace) {
  Tensor x = a.tensor(0), m = a.tensor(1);
  check_devices(a.op(), {&x, &m});
  common::check_fill_value(a.scalar(2), x.dtype());
  AMPS_CHECK(m.dtype() == DType::bool_ || m.dtype() == DType::uint8, "masked_fill_ only supports boolean masks, "
             "but got mask with dtype {}", dtype_name(m.dtype()));  // uint8: read as bool, as PyTorch 1.13 (deprecated)
  common::check_byte_mask(m);
  m = as_dtype(m, DType::bool_);
  Dims shape = cpu::broadcast_pair(x, m, "masked_fill");
  if (inplace) check_inplace(a.op(), x, x.dtype(), shape);
  Tensor out = inplace ? x : Tensor::empty(shape, x.dtype(), kc.device);
  launch(TernOp::where, x.dtype(), out, m, Tensor::scalar(a.scalar(2), x.dtype()), x, 0.0);
  return out;
}

Tensors k_masked_fill(const ArgReader& a, const KernelContext& kc) { return one_tensor(masked_fill(a, kc, false)); }
Tensors k_masked_fill_(const ArgReader& a, const KernelContext& kc) { return one_tensor(masked_fill(a, kc, true)); }

// threshold_backward(grad_output, self, threshold): 0 where self <= threshold, else grad_output (relu's
// gradient; a NaN self passes it, as in PyTorch), in one pass as the CPU kernel.
Tensors k_threshold_backward(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  check_devices(a.op(), {&g, &x});
  const DType dt = cpu::result_type({&g, &x});
  Tensor out = Tensor::empty(cpu::broadcast_pair(g, x, "threshold_backward"), dt, kc.device);
  Tensor gc = as_dtype(g, dt), xc = as_dtype(x, dt);
  launch(TernOp::threshold, dt, out, gc, xc, xc, a.scalar(2).to_double());
  return one_tensor(out);
}

}  // namespace

void register_ternary_kernels(KernelTable& t) {
#define AMPS_TERNARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_TERNARY_OP
}

}  // namespace amps::rt::cuda
