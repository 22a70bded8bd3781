// CPU kernels of the elementwise extras PyTorch computes natively: signbit, nextafter, gcd/lcm, the Bessel
// functions i0 and special.i1, the regularized incomplete gamma functions igamma/igammac, frexp, and the bitwise
// ops (and/or/xor/not and the shifts). Other device backends run them on host copies
// (register_elementwise_extra_host_fallbacks).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- special functions (double precision; float inputs are computed in double and rounded) ----

// I0(x) = sum_k (x^2/4)^k / (k!)^2 and I1(x) = x/2 sum_k (x^2/4)^k / (k! (k+1)!): every term has one sign, so the
// sum is accurate for every x (about |x| terms for large |x|). Infinite x gives NaN, as PyTorch's (its Chebyshev
// form computes inf / inf there); finite x beyond the dtype's range gives +-inf.
double bessel_i(double x, int order) {
  if (!std::isfinite(x)) return kNaN;
  const double q = x * x / 4;
  double term = order == 0 ? 1.0 : x / 2, sum = term;
  for (int k = 1; k < 100000; ++k) {
    term *= q / (double(k) * double(k + order));
    sum += term;
    if (std::fabs(term) <= std::fabs(sum) * 1e-17 || std::isinf(sum)) break;
  }
  return sum;
}

// P(a, x) by its series, for x < a + 1.
double gamma_p_series(double a, double x) {
  double ap = a, term = 1.0 / a, sum = term;
  for (int n = 0; n < 100000 && std::fabs(term) > std::fabs(sum) * 1e-17; ++n) {
    ap += 1;
    term *= x / ap;
    sum += term;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
double gamma_q_fraction(double a, double x) {
  constexpr double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::fabs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < 1e-16) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// The regularized lower (upper = false) or upper incomplete gamma function with PyTorch's edge values: NaN for a
// negative argument, for a = x = 0 and for a = x = inf; P(0, x > 0) = 1, P(a, 0) = 0, P(inf, x) = 0, P(a, inf) = 1.
double incomplete_gamma(double a, double x, bool upper) {
  const double one = upper ? 0.0 : 1.0, zero = upper ? 1.0 : 0.0;
  if (x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? one : kNaN;
  if (x == 0) return zero;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : zero;
  if (std::isinf(x)) return one;
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  if (x < a + 1) {
    const double p = gamma_p_series(a, x);
    return upper ? 1 - p : p;
  }
  const double q = gamma_q_fraction(a, x);
  return upper ? q : 1 - q;
}

// The bfloat16 after [a] towards [b] (both bfloat16 values, held in float): one step of the 16-bit pattern.
float bf16_nextafter(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  if (a == b) return b;
  uint32_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  uint32_t h = bits >> 16;
  if (a == 0) h = (std::signbit(b) ? 0x8000u : 0u) | 1u;
  else h = ((a < b) == (a > 0)) ? h + 1 : h - 1;
  bits = h << 16;
  float r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

template <typename I> I gcd_of(I a, I b) {
  if constexpr (std::is_signed_v<I>) {
    a = a < 0 ? I(-a) : a;
    b = b < 0 ? I(-b) : b;
  }
  while (a != 0) {
    const I c = a;
    a = I(b % a);
    b = c;
  }
  return b;
}

template <typename I> I lcm_of(I a, I b) {
  const I g = gcd_of(a, b);
  if (g == 0) return 0;
  const I r = I(a / g * b);
  if constexpr (std::is_signed_v<I>) return r < 0 ? I(-r) : r;
  else return r;
}

// Shifts as PyTorch 1.13 computes them on x86: the amount taken modulo the bit width, where uint8/int8/int16 shift
// as C++'s promoted 32-bit ints (uint8 3 << 9 is 0, 5 << 33 is 10; the result keeps the low bits).
template <typename I> I shift_left(I a, I b) {
  using W = std::conditional_t<(sizeof(I) < 4), int32_t, I>;
  using U = std::make_unsigned_t<W>;
  return I(U(W(a)) << (U(W(b)) & U(sizeof(W) * 8 - 1)));
}
template <typename I> I shift_right(I a, I b) {
  using W = std::conditional_t<(sizeof(I) < 4), int32_t, I>;
  using U = std::make_unsigned_t<W>;
  return I(W(a) >> (U(W(b)) & U(sizeof(W) * 8 - 1)));
}

// ---- kernels ----

enum class Bit { and_, or_, xor_, lshift, rshift };

// The two operands promoted to their common dtype and the broadcast output, for a binary kernel.
struct BinaryOperands {
  Tensor x, y, out;
  DType dt;
};
BinaryOperands binary_operands(const ArgReader& a, const KernelContext& kc, bool bool_out = false) {
  Tensor x = a.tensor(0), y = a.tensor(1);
  const DType dt = result_type({&x, &y});
  Dims shape = broadcast_pair(x, y, op_name(a.op()));
  return {cast(x, dt), cast(y, dt), Tensor::empty(shape, bool_out ? DType::bool_ : dt, kc.device), dt};
}

[[noreturn]] void not_implemented(OpId op, DType dt) {
  AMPS_FAIL("\"{}\" not implemented for '{}'", op_name(op), dtype_name(dt));
}

template <typename T> void bitwise_typed(Bit op, const BinaryOperands& b) {
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case Bit::and_: return map2<T, T>(b.out, b.x, b.y, [](T p, T q) { return T(p & q); });
      case Bit::or_: return map2<T, T>(b.out, b.x, b.y, [](T p, T q) { return T(p | q); });
      case Bit::xor_: return map2<T, T>(b.out, b.x, b.y, [](T p, T q) { return T(p ^ q); });
      case Bit::lshift:
        if constexpr (!std::is_same_v<T, bool>) return map2<T, T>(b.out, b.x, b.y, shift_left<T>);
        break;
      case Bit::rshift:
        if constexpr (!std::is_same_v<T, bool>) return map2<T, T>(b.out, b.x, b.y, shift_right<T>);
        break;
    }
  }
}

Tensors bitwise(const ArgReader& a, const KernelContext& kc, Bit op) {
  BinaryOperands b = binary_operands(a, kc);
  const bool shift = op == Bit::lshift || op == Bit::rshift;
  if (is_floating(b.dt) || (shift && b.dt == DType::bool_)) not_implemented(a.op(), b.dt);
  AMPS_DISPATCH_ALL(b.dt, T, [&] { bitwise_typed<T>(op, b); });
  return {b.out};
}

Tensors k_bitwise_and(const ArgReader& a, const KernelContext& kc) { return bitwise(a, kc, Bit::and_); }
Tensors k_bitwise_or(const ArgReader& a, const KernelContext& kc) { return bitwise(a, kc, Bit::or_); }
Tensors k_bitwise_xor(const ArgReader& a, const KernelContext& kc) { return bitwise(a, kc, Bit::xor_); }
Tensors k_bitwise_left_shift(const ArgReader& a, const KernelContext& kc) { return bitwise(a, kc, Bit::lshift); }
Tensors k_bitwise_right_shift(const ArgReader& a, const KernelContext& kc) { return bitwise(a, kc, Bit::rshift); }

template <typename T> void bitwise_not_typed(const Tensor& out, const Tensor& x) {
  if constexpr (std::is_same_v<T, bool>) map1<T, T>(out, x, [](T v) { return !v; });
  else if constexpr (std::is_integral_v<T>) map1<T, T>(out, x, [](T v) { return T(~v); });
}

Tensors k_bitwise_not(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  if (is_floating(x.dtype())) not_implemented(a.op(), x.dtype());
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  AMPS_DISPATCH_ALL(x.dtype(), T, [&] { bitwise_not_typed<T>(out, x); });
  return {out};
}

template <typename T> void signbit_typed(const Tensor& out, const Tensor& x) {
  using C = compute_t<T>;
  if constexpr (std::is_floating_point_v<C>) map1<bool, T>(out, x, [](C v) { return bool(std::signbit(v)); });
  else if constexpr (std::is_same_v<T, bool>) map1<bool, T>(out, x, [](C) { return false; });
  else map1<bool, T>(out, x, [](C v) { return v < 0; });
}

Tensors k_signbit(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  Tensor out = Tensor::empty(x.sizes(), DType::bool_, kc.device);
  AMPS_DISPATCH_ALL(x.dtype(), T, [&] { signbit_typed<T>(out, x); });
  return {out};
}

template <typename T> void nextafter_typed(const BinaryOperands& b) {
  using C = compute_t<T>;
  if constexpr (std::is_same_v<T, BFloat16>) map2<T, T>(b.out, b.x, b.y, bf16_nextafter);
  else if constexpr (std::is_floating_point_v<T>)
    map2<T, T>(b.out, b.x, b.y, [](C p, C q) { return std::nextafter(p, q); });
}

Tensors k_nextafter(const ArgReader& a, const KernelContext& kc) {
  BinaryOperands b = binary_operands(a, kc);
  if (!is_floating(b.dt) || b.dt == DType::float16) not_implemented(a.op(), b.dt);
  AMPS_DISPATCH_ALL(b.dt, T, [&] { nextafter_typed<T>(b); });
  return {b.out};
}

template <typename T> void gcd_typed(const BinaryOperands& b, bool lcm) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (lcm) map2<T, T>(b.out, b.x, b.y, lcm_of<T>);
    else map2<T, T>(b.out, b.x, b.y, gcd_of<T>);
  }
}

Tensors gcd_or_lcm(const ArgReader& a, const KernelContext& kc, bool lcm) {
  BinaryOperands b = binary_operands(a, kc);
  if (is_floating(b.dt) || b.dt == DType::bool_) not_implemented(a.op(), b.dt);
  AMPS_DISPATCH_ALL(b.dt, T, [&] { gcd_typed<T>(b, lcm); });
  return {b.out};
}
Tensors k_gcd(const ArgReader& a, const KernelContext& kc) { return gcd_or_lcm(a, kc, false); }
Tensors k_lcm(const ArgReader& a, const KernelContext& kc) { return gcd_or_lcm(a, kc, true); }

// i0 / special.i1: integers and bools are computed in the default dtype, as PyTorch's unary float ops.
Tensors bessel(const ArgReader& a, const KernelContext& kc, int order) {
  const Tensor x = a.tensor(0);
  const DType dt = is_floating(x.dtype()) ? x.dtype() : default_dtype();
  Tensor out = Tensor::empty(x.sizes(), dt, kc.device);
  AMPS_DISPATCH_FLOAT(dt, op_name(a.op()), T, [&] {
    using C = compute_t<T>;
    map1<T, T>(out, cast(x, dt), [order](C v) { return C(bessel_i(double(v), order)); });
  });
  return {out};
}
Tensors k_i0(const ArgReader& a, const KernelContext& kc) { return bessel(a, kc, 0); }
Tensors k_special_i1(const ArgReader& a, const KernelContext& kc) { return bessel(a, kc, 1); }

Tensors igamma_of(const ArgReader& a, const KernelContext& kc, bool upper) {
  BinaryOperands b = binary_operands(a, kc);
  if (!is_floating(b.dt)) not_implemented(a.op(), b.dt);
  AMPS_DISPATCH_FLOAT(b.dt, op_name(a.op()), T, [&] {
    using C = compute_t<T>;
    map2<T, T>(b.out, b.x, b.y, [upper](C p, C q) { return C(incomplete_gamma(double(p), double(q), upper)); });
  });
  return {b.out};
}
Tensors k_igamma(const ArgReader& a, const KernelContext& kc) { return igamma_of(a, kc, false); }
Tensors k_igammac(const ArgReader& a, const KernelContext& kc) { return igamma_of(a, kc, true); }

// frexp: mantissa in input's dtype with |mantissa| in [0.5, 1) (0, inf and NaN themselves, exponent 0) and the
// exponent as int32.
Tensors k_frexp(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = contiguous(a.tensor(0));
  AMPS_CHECK(is_floating(x.dtype()), "torch.frexp() only supports floating-point dtypes");
  Tensor mant = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  Tensor expo = Tensor::empty(x.sizes(), DType::int32, kc.device);
  AMPS_DISPATCH_FLOAT(x.dtype(), "frexp", T, [&] {
    const T* in = x.data<T>();
    T* m = mant.data<T>();
    int32_t* e = expo.data<int32_t>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      const double v = double(in[i]);
      int ex = 0;
      const double mv = std::isfinite(v) ? std::frexp(v, &ex) : v;
      m[i] = T(mv);
      e[i] = int32_t(ex);
    }
  });
  return {mant, expo};
}

}  // namespace

// The ops of this file, for the device backends' host fallbacks.
const std::vector<OpId>& elementwise_extra_kernel_ops() {
  static const std::vector<OpId> ops = {
      OpId::signbit, OpId::nextafter, OpId::gcd, OpId::lcm, OpId::i0, OpId::special_i1, OpId::igamma,
      OpId::igammac, OpId::frexp, OpId::bitwise_and, OpId::bitwise_or, OpId::bitwise_xor, OpId::bitwise_not,
      OpId::bitwise_left_shift, OpId::bitwise_right_shift};
  return ops;
}

void register_elementwise_extra_kernels(KernelTable& t) {
  t.add(OpId::signbit, k_signbit);
  t.add(OpId::nextafter, k_nextafter);
  t.add(OpId::gcd, k_gcd);
  t.add(OpId::lcm, k_lcm);
  t.add(OpId::i0, k_i0);
  t.add(OpId::special_i1, k_special_i1);
  t.add(OpId::igamma, k_igamma);
  t.add(OpId::igammac, k_igammac);
  t.add(OpId::frexp, k_frexp);
  t.add(OpId::bitwise_and, k_bitwise_and);
  t.add(OpId::bitwise_or, k_bitwise_or);
  t.add(OpId::bitwise_xor, k_bitwise_xor);
  t.add(OpId::bitwise_not, k_bitwise_not);
  t.add(OpId::bitwise_left_shift, k_bitwise_left_shift);
  t.add(OpId::bitwise_right_shift, k_bitwise_right_shift);
}

}  // namespace amps::rt::cpu
