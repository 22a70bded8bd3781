// CPU kernels for unary elementwise ops (math, activations, rounding, predicates, clamp, nan_to_num, prelu);
// gelu has its own file (gelu_kernels.cpp).
#include <cmath>
#include <limits>
#include <optional>

#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/common/special_math.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cpu/simd_bf16_select.hpp"
#include "runtime/backend/cpu/simd_math.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cpu {
namespace {

enum class Un {
  neg, abs, square, sign, floor, ceil, round, trunc, relu,                                   // keep dtype
  sqrt, rsqrt, exp, log, log2, log1p, expm1, sin, cos, tanh, sigmoid, erf, reciprocal,        // float math
  tan, sinh, cosh, asin, acos, atan, log10, erfinv, asinh, acosh, atanh, erfc, exp2, lgamma, digamma,
  silu, leaky_relu, softplus, polygamma, clamp, nan_to_num,                                   // parametrised
  isfinite, isnan, isinf, logical_not                                                        // bool result
};

bool keeps_integers(Un op) { return op <= Un::relu || op == Un::clamp || op == Un::nan_to_num; }
bool bool_result(Un op) { return op >= Un::isfinite; }

struct UnParams {
  double p0 = 0, p1 = 0, p2 = 0;
  bool has_lo = false, has_hi = false;
};

// Largest finite value of storage type T, as nan_to_num's default replacement for +inf.
template <typename T> double finite_max() {
  if constexpr (std::is_same_v<T, Half>) return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return double(float(BFloat16::from_bits(0x7f7f)));
  else if constexpr (std::is_floating_point_v<T>) return double(std::numeric_limits<T>::max());
  else return 0.0;
}

template <typename T> void apply_keep(Un op, const Tensor& o, const Tensor& x) {
  using C = compute_t<T>;
  switch (op) {
    case Un::neg: return map1<T, T>(o, x, [](C v) { return C(-v); });
    case Un::abs: return map1<T, T>(o, x, [](C v) { return v <= C(0) ? C(C(0) - v) : v; });  // abs(-0.0) is 0.0
    case Un::square: return map1<T, T>(o, x, [](C v) { return C(v * v); });
    case Un::sign: return map1<T, T>(o, x, [](C v) { return C((C(0) < v) - (v < C(0))); });
    case Un::relu: return map1<T, T>(o, x, [](C v) { return v <= C(0) ? C(0) : v; });  // NaN stays NaN (PyTorch)
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case Un::floor: return map1<T, T>(o, x, [](C v) { return std::floor(v); });
      case Un::ceil: return map1<T, T>(o, x, [](C v) { return std::ceil(v); });
      case Un::round: return map1<T, T>(o, x, [](C v) { return std::nearbyint(v); });
      case Un::trunc: return map1<T, T>(o, x, [](C v) { return std::trunc(v); });
      default: break;
    }
  } else {
    return map1<T, T>(o, x, [](C v) { return v; });  // rounding integers is the identity
  }
  AMPS_ASSERT(false, "unhandled unary op");
}

// Inverse error function: Giles' single-precision approximation ("Approximating the erfinv function", GPU
// Computing Gems, 2011) refined by two Newton steps on erf, which bring it to double precision. erfinv(+-1) is
// +-inf, NaN outside [-1, 1] (PyTorch's results).
double erfinv(double y) {
  if (!(std::fabs(y) <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(y) == 1.0) return std::copysign(std::numeric_limits<double>::infinity(), y);
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      x = c + x * w;
  } else {
    w = std::sqrt(w) - 3.0;
    x = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      x = c + x * w;
  }
  x *= y;
  for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (M_2_SQRTPI * std::exp(-x * x));
  return x;
}

// The ops SLEEF computes for float32 (and the half types, computed in float32): simd_math.hpp.
std::optional<VecMath> vec_math_of(Un op) {
  switch (op) {
    case Un::exp: return VecMath::exp;
    case Un::log: return VecMath::log;
    case Un::log2: return VecMath::log2;
    case Un::log10: return VecMath::log10;
    case Un::log1p: return VecMath::log1p;
    case Un::expm1: return VecMath::expm1;
    case Un::exp2: return VecMath::exp2;
    case Un::sin: return VecMath::sin;
    case Un::cos: return VecMath::cos;
    case Un::tan: return VecMath::tan;
    case Un::tanh: return VecMath::tanh;
    case Un::sinh: return VecMath::sinh;
    case Un::cosh: return VecMath::cosh;
    case Un::asin: return VecMath::asin;
    case Un::acos: return VecMath::acos;
    case Un::atan: return VecMath::atan;
    case Un::asinh: return VecMath::asinh;
    case Un::acosh: return VecMath::acosh;
    case Un::atanh: return VecMath::atanh;
    case Un::erf: return VecMath::erf;
    case Un::erfc: return VecMath::erfc;
    case Un::sigmoid: return VecMath::sigmoid;
    case Un::silu: return VecMath::silu;
    default: return std::nullopt;
  }
}

template <typename T> void apply_float(Un op, const Tensor& o, const Tensor& x) {
  using C = compute_t<T>;
  if constexpr (std::is_same_v<C, float>) {
    if (const std::optional<VecMath> f = vec_math_of(op))
      return map1_chunked<T, T>(o, x, [f](const float* in, float* out, int64_t m) { vec_math_f32(*f, in, out, m); });
  }
  switch (op) {
    case Un::sqrt: return map1<T, T>(o, x, [](C v) { return std::sqrt(v); });
    case Un::rsqrt: return map1<T, T>(o, x, [](C v) { return C(1) / std::sqrt(v); });
    case Un::exp: return map1<T, T>(o, x, [](C v) { return std::exp(v); });
    case Un::log: return map1<T, T>(o, x, [](C v) { return std::log(v); });
    case Un::log2: return map1<T, T>(o, x, [](C v) { return std::log2(v); });
    case Un::log1p: return map1<T, T>(o, x, [](C v) { return std::log1p(v); });
    case Un::expm1: return map1<T, T>(o, x, [](C v) { return std::expm1(v); });
    case Un::sin: return map1<T, T>(o, x, [](C v) { return std::sin(v); });
    case Un::cos: return map1<T, T>(o, x, [](C v) { return std::cos(v); });
    case Un::tanh: return map1<T, T>(o, x, [](C v) { return std::tanh(v); });
    case Un::sigmoid: return map1<T, T>(o, x, [](C v) { return C(1) / (C(1) + std::exp(-v)); });
    case Un::erf: return map1<T, T>(o, x, [](C v) { return std::erf(v); });
    case Un::reciprocal: return map1<T, T>(o, x, [](C v) { return C(1) / v; });
    case Un::silu: return map1<T, T>(o, x, [](C v) { return v / (C(1) + std::exp(-v)); });
    case Un::tan: return map1<T, T>(o, x, [](C v) { return std::tan(v); });
    case Un::sinh: return map1<T, T>(o, x, [](C v) { return std::sinh(v); });
    case Un::cosh: return map1<T, T>(o, x, [](C v) { return std::cosh(v); });
    case Un::asin: return map1<T, T>(o, x, [](C v) { return std::asin(v); });
    case Un::acos: return map1<T, T>(o, x, [](C v) { return std::acos(v); });
    case Un::atan: return map1<T, T>(o, x, [](C v) { return std::atan(v); });
    case Un::log10: return map1<T, T>(o, x, [](C v) { return std::log10(v); });
    case Un::erfinv: return map1<T, T>(o, x, [](C v) { return C(erfinv(double(v))); });
    case Un::asinh: return map1<T, T>(o, x, [](C v) { return std::asinh(v); });
    case Un::acosh: return map1<T, T>(o, x, [](C v) { return std::acosh(v); });
    case Un::atanh: return map1<T, T>(o, x, [](C v) { return std::atanh(v); });
    case Un::erfc: return map1<T, T>(o, x, [](C v) { return std::erfc(v); });
    case Un::exp2: return map1<T, T>(o, x, [](C v) { return std::exp2(v); });
    case Un::lgamma: return map1<T, T>(o, x, [](C v) { int sign; return C(::lgamma_r(double(v), &sign)); });
    case Un::digamma: return map1<T, T>(o, x, [](C v) { return C(special::digamma(double(v))); });
    default: break;
  }
  AMPS_ASSERT(false, "unhandled float unary op");
}

template <typename T> void apply_param(Un op, const Tensor& o, const Tensor& x, const UnParams& p) {
  using C = compute_t<T>;
  if (op == Un::clamp) {
    // a missing bound is infinite (for floats: +-inf stays +-inf, as PyTorch; lowest()/max() would clip it)
    using L = std::numeric_limits<C>;
    const C lo = p.has_lo ? to_result<C>(p.p0) : L::has_infinity ? -L::infinity() : L::lowest();
    const C hi = p.has_hi ? to_result<C>(p.p1) : L::has_infinity ? L::infinity() : L::max();
    return map1<T, T>(o, x, [lo, hi](C v) { return v != v ? v : std::min(std::max(v, lo), hi); });
  }
  if (op == Un::nan_to_num) {
    const C nan = C(p.p0), pinf = C(p.p1), ninf = C(p.p2);
    return map1<T, T>(o, x, [=](C v) { return v != v ? nan : v == std::numeric_limits<C>::infinity() ? pinf : v == -std::numeric_limits<C>::infinity() ? ninf : v; });
  }
  if constexpr (std::is_floating_point_v<C>) {
    const C a = C(p.p0), b = C(p.p1);
    if (op == Un::leaky_relu) return map1<T, T>(o, x, [a](C v) { return v > C(0) ? v : C(v * a); });
    if (op == Un::polygamma) {
      const int64_t n = int64_t(p.p0);
      return map1<T, T>(o, x, [n](C v) { return C(special::polygamma(n, double(v))); });
    }
    if (op == Un::softplus)
      return map1<T, T>(o, x, [a, b](C v) { return v * a > b ? v : C(std::log1p(std::exp(v * a)) / a); });
  }
  AMPS_ASSERT(false, "unhandled parametrised unary op");
}

template <typename T> void apply_bool(Un op, const Tensor& o, const Tensor& x) {
  using C = compute_t<T>;
  switch (op) {
    case Un::isnan: return map1<bool, T>(o, x, [](C v) { return v != v; });
    case Un::isinf: return map1<bool, T>(o, x, [](C v) { return v - v != v - v && v == v; });
    case Un::isfinite: return map1<bool, T>(o, x, [](C v) { return v - v == v - v; });
    case Un::logical_not: return map1<bool, T>(o, x, [](C v) { return v == C(0); });
    default: break;
  }
}

void apply(Un op, const Tensor& o, const Tensor& x, const UnParams& p) {
  AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    if (bool_result(op)) apply_bool<T>(op, o, x);
    else if (op >= Un::leaky_relu) apply_param<T>(op, o, x, p);
    else if (op <= Un::relu) apply_keep<T>(op, o, x);
    else if constexpr (std::is_floating_point_v<compute_t<T>>) apply_float<T>(op, o, x);
  });
}

// relu of a dense bfloat16 tensor: one select pass over the bits (simd_bf16_select.hpp).
Tensor relu_bf16(const Tensor& out, const Tensor& x) {
  auto* o = reinterpret_cast<uint16_t*>(out.data<BFloat16>());
  const auto* xp = reinterpret_cast<const uint16_t*>(x.data<BFloat16>());
  parallel_for(x.numel(), kParallelGrain,
               [&](int64_t b, int64_t e) { bf16_zero_where_le(o + b, xp + b, xp + b, 0.0f, e - b); });
  return out;
}

Tensor unary_of(Un op, const Tensor& x, const ArgReader& a, const KernelContext& kc, bool inplace, UnParams p) {
  DType dt = (keeps_integers(op) || bool_result(op) || is_floating(x.dtype())) ? x.dtype() : default_dtype();
  if (op == Un::square && dt == DType::bool_) dt = DType::int64;  // square(bool) is pow(bool, 2): int64, as PyTorch's
  const DType out_dt = bool_result(op) ? DType::bool_ : dt;
  AMPS_CHECK(!inplace || out_dt == x.dtype(), "{}: result type {} can't be cast to the desired output type {}",
             op_name(a.op()), dtype_name(out_dt), dtype_name(x.dtype()));
  AMPS_CHECK(!(op == Un::neg && dt == DType::bool_), "Negation, the `-` operator, on a bool tensor is not "
             "supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  Tensor out = inplace ? x : Tensor::empty(x.sizes(), out_dt, kc.device);
  if (op == Un::relu && x.dtype() == DType::bfloat16 && x.is_contiguous()) return relu_bf16(out, x);
  apply(op, out, cast(x, dt), p);
  return out;
}

Tensor unary(Un op, const ArgReader& a, const KernelContext& kc, bool inplace, UnParams p = {}) {
  return unary_of(op, a.tensor(0), a, kc, inplace, p);
}

#define AMPS_UNARY(name, kind) \
  Tensors k_##name(const ArgReader& a, const KernelContext& kc) { return one_tensor(unary(kind, a, kc, false)); }
#define AMPS_UNARY_(name, kind) \
  Tensors k_##name##_(const ArgReader& a, const KernelContext& kc) { return one_tensor(unary(kind, a, kc, true)); }
AMPS_UNARY(neg, Un::neg) AMPS_UNARY_(neg, Un::neg)
AMPS_UNARY(abs, Un::abs) AMPS_UNARY_(abs, Un::abs)
AMPS_UNARY(square, Un::square)
AMPS_UNARY(sqrt, Un::sqrt) AMPS_UNARY_(sqrt, Un::sqrt)
AMPS_UNARY(rsqrt, Un::rsqrt)
AMPS_UNARY(exp, Un::exp) AMPS_UNARY_(exp, Un::exp)
AMPS_UNARY(log, Un::log) AMPS_UNARY_(log, Un::log)
AMPS_UNARY(log2, Un::log2)
AMPS_UNARY(log1p, Un::log1p)
AMPS_UNARY(expm1, Un::expm1)
AMPS_UNARY(sin, Un::sin)
AMPS_UNARY(cos, Un::cos)
AMPS_UNARY(tanh, Un::tanh) AMPS_UNARY_(tanh, Un::tanh)
AMPS_UNARY(sigmoid, Un::sigmoid) AMPS_UNARY_(sigmoid, Un::sigmoid)
AMPS_UNARY(relu, Un::relu) AMPS_UNARY_(relu, Un::relu)
AMPS_UNARY(silu, Un::silu) AMPS_UNARY_(silu, Un::silu)
AMPS_UNARY(erf, Un::erf)
AMPS_UNARY(tan, Un::tan)
AMPS_UNARY(sinh, Un::sinh)
AMPS_UNARY(cosh, Un::cosh)
AMPS_UNARY(asin, Un::asin)
AMPS_UNARY(acos, Un::acos)
AMPS_UNARY(atan, Un::atan)
AMPS_UNARY(log10, Un::log10)
AMPS_UNARY(erfinv, Un::erfinv)
AMPS_UNARY(asinh, Un::asinh)
AMPS_UNARY(acosh, Un::acosh)
AMPS_UNARY(atanh, Un::atanh)
AMPS_UNARY(erfc, Un::erfc)
AMPS_UNARY(exp2, Un::exp2)
AMPS_UNARY(lgamma, Un::lgamma)
AMPS_UNARY(digamma, Un::digamma)
AMPS_UNARY(floor, Un::floor)
AMPS_UNARY(ceil, Un::ceil)
AMPS_UNARY(round, Un::round)
AMPS_UNARY(trunc, Un::trunc)
AMPS_UNARY(sign, Un::sign)
AMPS_UNARY(reciprocal, Un::reciprocal)
AMPS_UNARY(isfinite, Un::isfinite)
AMPS_UNARY(isnan, Un::isnan)
AMPS_UNARY(isinf, Un::isinf)
AMPS_UNARY(logical_not, Un::logical_not)
#undef AMPS_UNARY
#undef AMPS_UNARY_

UnParams leaky_params(const ArgReader& a) { return UnParams{a.scalar(1).to_double()}; }
Tensors k_leaky_relu(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::leaky_relu, a, kc, false, leaky_params(a)));
}
Tensors k_leaky_relu_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::leaky_relu, a, kc, true, leaky_params(a)));
}

// polygamma(n, input): the order first, as PyTorch's schema.
Tensors k_polygamma(const ArgReader& a, const KernelContext& kc) {
  const int64_t n = a.i64(0);
  AMPS_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  return one_tensor(unary_of(Un::polygamma, a.tensor(1), a, kc, false, UnParams{double(n)}));
}

Tensors k_softplus(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::softplus, a, kc, false, UnParams{a.scalar(1).to_double(), a.scalar(2).to_double()}));
}

// An integer tensor's integer bounds must fit its dtype (PyTorch converts them checked: clamp(uint8, max=300) fails).
UnParams clamp_params(const ArgReader& a) {
  std::optional<Scalar> lo = a.opt_scalar(1), hi = a.opt_scalar(2);
  AMPS_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  for (const std::optional<Scalar>& b : {lo, hi})
    if (b && !b->is_floating()) common::check_fill_value(*b, a.tensor(0).dtype());
  return UnParams{lo ? lo->to_double() : 0.0, hi ? hi->to_double() : 0.0, 0.0, bool(lo), bool(hi)};
}

// clamp of an integer tensor with float bounds computes in the default dtype, like PyTorch's result_type.
Tensors k_clamp(const ArgReader& a, const KernelContext& kc) {
  UnParams p = clamp_params(a);
  bool float_bounds = (a.opt_scalar(1) && a.opt_scalar(1)->is_floating()) || (a.opt_scalar(2) && a.opt_scalar(2)->is_floating());
  if (float_bounds && !is_floating(a.tensor(0).dtype())) a.args()[0] = cast(a.tensor(0), default_dtype());
  return one_tensor(unary(Un::clamp, a, kc, false, p));
}
Tensors k_clamp_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::clamp, a, kc, true, clamp_params(a)));
}

UnParams nan_params(const ArgReader& a) {
  double big = AMPS_DISPATCH_ALL(a.tensor(0).dtype(), T, [&] { return finite_max<T>(); });
  return UnParams{a.opt_f64(1).value_or(0.0), a.opt_f64(2).value_or(big), a.opt_f64(3).value_or(-big)};
}
Tensors k_nan_to_num(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::nan_to_num, a, kc, false, nan_params(a)));
}
Tensors k_nan_to_num_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(unary(Un::nan_to_num, a, kc, true, nan_params(a)));
}

// prelu: one slope per channel (dim 1) or a single shared slope.
Tensors k_prelu(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), w = a.tensor(1);
  int64_t channels = x.dim() >= 2 ? x.size(1) : 1;
  AMPS_CHECK(w.numel() == 1 || w.numel() == channels, "Mismatch of parameter numbers and input channel size. Found "
             "parameter numbers = {} and channel size = {}.", w.numel(), channels);
  Dims wshape(size_t(std::max<int64_t>(x.dim() - 1, 0)), 1);
  if (!wshape.empty()) wshape[0] = w.numel();
  DType dt = result_type({&x, &w});
  Tensor wc = reshape(contiguous(cast(w, dt)), w.numel() == 1 ? Dims{} : wshape);
  Tensor out = Tensor::empty(x.sizes(), dt, kc.device);
  Tensor xc = cast(x, dt);
  AMPS_DISPATCH_FLOAT(dt, "prelu", T, [&] {
    using C = compute_t<T>;
    map2<T, T>(out, xc, wc, [](C v, C s) { return v > C(0) ? v : C(v * s); });
  });
  return one_tensor(out);
}

}  // namespace

void register_unary_kernels(KernelTable& t) {
#define AMPS_UNARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_UNARY_OP
  t.add(OpId::prelu, k_prelu, kFloatDTypes);
}

}  // namespace amps::rt::cpu
