// CUDA kernels for broadcasting binary ops: add/sub (alpha), mul, div (rounding modes), pow, remainder, fmod,
// floor_divide, maximum/minimum, comparisons and logical and/or, with the CPU backend's type promotion.
#include "runtime/backend/common/binary_checks.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cuda {
namespace {

bool is_bool_result(BinOp op) { return op >= BinOp::eq; }

// [t] in [dt]: host scalars are converted on the host, device tensors on the device.
Tensor as_dtype(const Tensor& t, DType dt) { return t.device().is_host() ? cpu::cast(t, dt) : cast(t, dt); }

void check_inplace(OpId id, const Tensor& self, DType dt, const Dims& shape) {
  AMPS_CHECK(shape == self.sizes(), "{}: output with shape {} doesn't match the broadcast shape {}", op_name(id),
             format_shape(self.sizes()), format_shape(shape));
  bool ok = !(is_floating(dt) && !is_floating(self.dtype())) && !(dt != DType::bool_ && self.dtype() == DType::bool_);
  AMPS_CHECK(ok, "{}: result type {} can't be cast to the desired output type {}", op_name(id), dtype_name(dt),
             dtype_name(self.dtype()));
}

Tensor binary(BinOp op, const ArgReader& a, const KernelContext& kc, bool inplace, Scalar alpha = int64_t(1)) {
  if (op == BinOp::pow) common::check_integer_pow(a);
  Tensor x = a.tensor(0), y = a.tensor(1);
  if (op == BinOp::add || op == BinOp::sub) common::check_alpha(a, alpha);
  if (op == BinOp::sub) common::check_bool_sub(a);
  AMPS_CHECK(!(x.device().is_host() && !is_host_scalar(x)) && !(y.device().is_host() && !is_host_scalar(y)),
             "{}: Expected all tensors to be on the same device, but found at least two devices, {} and {}!",
             op_name(a.op()), device_str(x.device()), device_str(y.device()));
  DType dt = cpu::result_type({&x, &y});
  if ((op == BinOp::div || op == BinOp::atan2) && !is_floating(dt)) dt = default_dtype();
  AMPS_CHECK(!(op == BinOp::sub && dt == DType::bool_), "Subtraction, the `-` operator, with two bool tensors is "
             "not supported. Use the `^` or `logical_xor()` operator instead.");
  Dims shape = cpu::broadcast_pair(x, y, op_name(a.op()));
  const DType out_dt = is_bool_result(op) ? DType::bool_ : dt;
  if (inplace) check_inplace(a.op(), x, out_dt, shape);
  const bool direct = inplace && out_dt == x.dtype();
  Tensor out = direct ? x : Tensor::empty(std::move(shape), out_dt, kc.device);
  Tensor xc = as_dtype(x, dt), yc = as_dtype(y, dt);
  Launch l = make_launch(out.sizes(), {&out, &xc, &yc});
  check(launch_binary(stream(kc.device), op, elem(dt), l.shape, l.ops[0], l.ops[1], l.ops[2], alpha.to_double()),
        "binary op");
  if (inplace && !direct) copy_into(x, out);
  return inplace ? x : out;
}

BinOp div_kind(const ArgReader& a, size_t i) {
  std::optional<std::string> mode = a.opt_str(i);
  if (!mode) return BinOp::div;
  if (*mode == "trunc") return BinOp::div_trunc;
  if (*mode == "floor") return BinOp::div_floor;
  AMPS_FAIL("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode);
}

#define AMPS_CUDA_BINARY(name, kind, inplace) \
  Tensors k_##name(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(kind, a, kc, inplace)); }
AMPS_CUDA_BINARY(mul, BinOp::mul, false)
AMPS_CUDA_BINARY(mul_, BinOp::mul, true)
AMPS_CUDA_BINARY(pow, BinOp::pow, false)
AMPS_CUDA_BINARY(pow_, BinOp::pow, true)
AMPS_CUDA_BINARY(remainder, BinOp::rem, false)
AMPS_CUDA_BINARY(fmod, BinOp::fmod, false)
AMPS_CUDA_BINARY(floor_divide, BinOp::div_floor, false)
AMPS_CUDA_BINARY(maximum, BinOp::max, false)
AMPS_CUDA_BINARY(minimum, BinOp::min, false)
AMPS_CUDA_BINARY(atan2, BinOp::atan2, false)
AMPS_CUDA_BINARY(eq, BinOp::eq, false)
AMPS_CUDA_BINARY(ne, BinOp::ne, false)
AMPS_CUDA_BINARY(lt, BinOp::lt, false)
AMPS_CUDA_BINARY(le, BinOp::le, false)
AMPS_CUDA_BINARY(gt, BinOp::gt, false)
AMPS_CUDA_BINARY(ge, BinOp::ge, false)
AMPS_CUDA_BINARY(logical_and, BinOp::land, false)
AMPS_CUDA_BINARY(logical_or, BinOp::lor, false)
#undef AMPS_CUDA_BINARY

Tensors k_add(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(BinOp::add, a, kc, false, a.scalar(2)));
}
Tensors k_add_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(BinOp::add, a, kc, true, a.scalar(2)));
}
Tensors k_sub(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(BinOp::sub, a, kc, false, a.scalar(2)));
}
Tensors k_sub_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(BinOp::sub, a, kc, true, a.scalar(2)));
}
Tensors k_div(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(div_kind(a, 2), a, kc, false)); }
Tensors k_div_(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(div_kind(a, 2), a, kc, true)); }

}  // namespace

void register_binary_kernels(KernelTable& t) {
#define AMPS_BINARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_BINARY_OP
}

}  // namespace amps::rt::cuda
