// CUDA kernels for unary elementwise ops (and gelu's gradient), with the CPU backend's dtype rules: integers keep
// their dtype for neg/abs/rounding/relu/clamp, go to the default dtype for float math; predicates give bool.
#include <limits>

#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cuda {
namespace {

bool keeps_integers(UnOp op) { return op <= UnOp::relu || op == UnOp::clamp || op == UnOp::nan_to_num; }
bool bool_result(UnOp op) { return op >= UnOp::isfinite; }

Tensor unary_of(UnOp op, const Tensor& x, const ArgReader& a, const KernelContext& kc, bool inplace, UnaryParams p) {
  DType dt = (keeps_integers(op) || bool_result(op) || is_floating(x.dtype())) ? x.dtype() : default_dtype();
  if (op == UnOp::square && dt == DType::bool_) dt = DType::int64;  // square(bool) is int64, as PyTorch's
  const DType out_dt = bool_result(op) ? DType::bool_ : dt;
  AMPS_CHECK(!inplace || out_dt == x.dtype(), "{}: result type {} can't be cast to the desired output type {}",
             op_name(a.op()), dtype_name(out_dt), dtype_name(x.dtype()));
  AMPS_CHECK(!(op == UnOp::neg && dt == DType::bool_), "Negation, the `-` operator, on a bool tensor is not "
             "supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  Tensor out = inplace ? x : Tensor::empty(x.sizes(), out_dt, kc.device);
  Tensor xc = cast(x, dt);
  Launch l = make_launch(out.sizes(), {&out, &xc});
  check(launch_unary(stream(kc.device), op, elem(dt), l.shape, l.ops[0], l.ops[1], p), "unary op");
  return out;
}

Tensor unary(UnOp op, const ArgReader& a, const KernelContext& kc, bool inplace, UnaryParams p = {}) {
  return unary_of(op, a.tensor(0), a, kc, inplace, p);
}

#define AMPS_CUDA_UNARY(name, kind) \
  Tensors k_##name(const ArgReader& a, const KernelContext& kc) { return one_tensor(unary(kind, a, kc, false)); }
#define AMPS_CUDA_UNARY_(name, kind) \
  Tensors k_##name##_(const ArgReader& a, const KernelContext& kc) { return one_tensor(unary(kind, a, kc, true)); }
AMPS_CUDA_UNARY(neg, UnOp::neg) AMPS_CUDA_UNARY_(neg, UnOp::neg)
AMPS_CUDA_UNARY(abs, UnOp::abs) AMPS_CUDA_UNARY_(abs, UnOp::abs)
AMPS_CUDA_UNARY(square, UnOp::square)
AMPS_CUDA_UNARY(sqrt, UnOp::sqrt) AMPS_CUDA_UNARY_(sqrt, UnOp::sqrt)
AMPS_CUDA_UNARY(rsqrt, UnOp::rsqrt)
AMPS_CUDA_UNARY(exp, UnOp::exp) AMPS_CUDA_UNARY_(exp, UnOp::exp)
AMPS_CUDA_UNARY(log, UnOp::log) AMPS_CUDA_UNARY_(log, UnOp::log)
AMPS_CUDA_UNARY(log2, UnOp::log2)
AMPS_CUDA_UNARY(log1p, UnOp::log1p)
AMPS_CUDA_UNARY(expm1, UnOp::expm1)
AMPS_CUDA_UNARY(sin, UnOp::sin)
AMPS_CUDA_UNARY(cos, UnOp::cos)
AMPS_CUDA_UNARY(tanh, UnOp::tanh) AMPS_CUDA_UNARY_(tanh, UnOp::tanh)
AMPS_CUDA_UNARY(sigmoid, UnOp::sigmoid) AMPS_CUDA_UNARY_(sigmoid, UnOp::sigmoid)
AMPS_CUDA_UNARY(relu, UnOp::relu) AMPS_CUDA_UNARY_(relu, UnOp::relu)
AMPS_CUDA_UNARY(silu, UnOp::silu) AMPS_CUDA_UNARY_(silu, UnOp::silu)
AMPS_CUDA_UNARY(erf, UnOp::erf)
AMPS_CUDA_UNARY(tan, UnOp::tan)
AMPS_CUDA_UNARY(sinh, UnOp::sinh)
AMPS_CUDA_UNARY(cosh, UnOp::cosh)
AMPS_CUDA_UNARY(asin, UnOp::asin)
AMPS_CUDA_UNARY(acos, UnOp::acos)
AMPS_CUDA_UNARY(atan, UnOp::atan)
AMPS_CUDA_UNARY(log10, UnOp::log10)
AMPS_CUDA_UNARY(erfinv, UnOp::erfinv)
AMPS_CUDA_UNARY(asinh, UnOp::asinh)
AMPS_CUDA_UNARY(acosh, UnOp::acosh)
AMPS_CUDA_UNARY(atanh, UnOp::atanh)
AMPS_CUDA_UNARY(erfc, UnOp::erfc)
AMPS_CUDA_UNARY(exp2, UnOp::exp2)
AMPS_CUDA_UNARY(lgamma, UnOp::lgamma)
AMPS_CUDA_UNARY(digamma, UnOp::digamma)
AMPS_CUDA_UNARY(floor, UnOp::floor)
AMPS_CUDA_UNARY(ceil, UnOp::ceil)
AMPS_CUDA_UNARY(round, UnOp::round)
AMPS_CUDA_UNARY(trunc, UnOp::trunc)
AMPS_CUDA_UNARY(sign, UnOp::sign)
AMPS_CUDA_UNARY(reciprocal, UnOp::reciprocal)
AMPS_CUDA_UNARY(isfinite, UnOp::isfinite)
AMPS_CUDA_UNARY(isnan, UnOp::isnan)
AMPS_CUDA_UNARY(isinf, UnOp::isinf)
AMPS_CUDA_UNARY(logical_not, UnOp::logical_not)
#undef AMPS_CUDA_UNARY
#undef AMPS_CUDA_UNARY_

// Whether gelu's approximate argument [i] picks the tanh form.
bool gelu_tanh_form(const ArgReader& a, size_t i) {
  const std::string mode = a.str(i);
  AMPS_CHECK(mode == "none" || mode == "tanh", "approximate argument must be either none or tanh.");
  return mode == "tanh";
}

Tensors k_gelu(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(gelu_tanh_form(a, 1) ? UnOp::gelu_tanh : UnOp::gelu, a, kc, false));
}

// gelu_backward(grad_output, self, approximate): grad_output * gelu'(self) in one pass, with the CPU kernel's
// promotion and broadcasting.
Tensors k_gelu_backward(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  for (const Tensor* t : {&g, &x})
    AMPS_CHECK(!t->device().is_host(), "gelu_backward: Expected all tensors to be on the same device, but found at "
               "least two devices, cuda and {}!", device_str(t->device()));
  const bool tanh_form = gelu_tanh_form(a, 2);
  const DType dt = cpu::result_type({&g, &x});
  Tensor out = Tensor::empty(cpu::broadcast_pair(g, x, "gelu_backward"), dt, kc.device);
  Tensor gc = cast(g, dt), xc = cast(x, dt);
  Launch l = make_launch(out.sizes(), {&out, &gc, &xc});
  check(launch_gelu_backward(stream(kc.device), elem(dt), l.shape, l.ops[0], l.ops[1], l.ops[2], tanh_form),
        "gelu_backward");
  return one_tensor(out);
}

UnaryParams leaky_params(const ArgReader& a) { return UnaryParams{a.scalar(1).to_double()}; }
Tensors k_leaky_relu(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::leaky_relu, a, kc, false, leaky_params(a)));
}
Tensors k_leaky_relu_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::leaky_relu, a, kc, true, leaky_params(a)));
}

// polygamma(n, input): the order first, as PyTorch's schema.
Tensors k_polygamma(const ArgReader& a, const KernelContext& kc) {
  const int64_t n = a.i64(0);
  AMPS_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  return one_tensor(unary_of(UnOp::polygamma, a.tensor(1), a, kc, false, UnaryParams{double(n)}));
}

Tensors k_softplus(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::softplus, a, kc, false, UnaryParams{a.scalar(1).to_double(), a.scalar(2).to_double()}));
}

UnaryParams clamp_params(const ArgReader& a) {
  std::optional<Scalar> lo = a.opt_scalar(1), hi = a.opt_scalar(2);
  AMPS_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  for (const std::optional<Scalar>& b : {lo, hi})  // integer bounds must fit the tensor's dtype, as the CPU kernel
    if (b && !b->is_floating()) common::check_fill_value(*b, a.tensor(0).dtype());
  return UnaryParams{lo ? lo->to_double() : 0.0, hi ? hi->to_double() : 0.0, 0.0, bool(lo), bool(hi)};
}

// clamp of an integer tensor with float bounds computes in the default dtype, like PyTorch's result_type.
Tensors k_clamp(const ArgReader& a, const KernelContext& kc) {
  UnaryParams p = clamp_params(a);
  bool float_bounds = (a.opt_scalar(1) && a.opt_scalar(1)->is_floating()) || (a.opt_scalar(2) && a.opt_scalar(2)->is_floating());
  if (float_bounds && !is_floating(a.tensor(0).dtype())) a.args()[0] = cast(a.tensor(0), default_dtype());
  return one_tensor(unary(UnOp::clamp, a, kc, false, p));
}
Tensors k_clamp_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::clamp, a, kc, true, clamp_params(a)));
}

double finite_max(DType t) {
  switch (t) {
    case DType::float16: return 65504.0;
    case DType::bfloat16: return double(float(BFloat16::from_bits(0x7f7f)));
    case DType::float32: return double(std::numeric_limits<float>::max());
    case DType::float64: return std::numeric_limits<double>::max();
    default: return 0.0;
  }
}

UnaryParams nan_params(const ArgReader& a) {
  double big = finite_max(a.tensor(0).dtype());
  return UnaryParams{a.opt_f64(1).value_or(0.0), a.opt_f64(2).value_or(big), a.opt_f64(3).value_or(-big)};
}
Tensors k_nan_to_num(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::nan_to_num, a, kc, false, nan_params(a)));
}
Tensors k_nan_to_num_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(UnOp::nan_to_num, a, kc, true, nan_params(a)));
}

}  // namespace

void register_unary_kernels(KernelTable& t) {
#define AMPS_UNARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#define AMPS_GELU_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_UNARY_OP
#undef AMPS_GELU_OP
}

}  // namespace amps::rt::cuda
