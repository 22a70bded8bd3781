#include "runtime/backend/common/math_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [x] in a floating dtype: integral and bool inputs become the default dtype, as PyTorch's float-only unary ops
// promote them.
Tensor floating(const Tensor& x) { return is_floating(x.dtype()) ? x : x.to(default_dtype()); }

// Both operands in their PyTorch result dtype, floating as above.
std::pair<Tensor, Tensor> float_pair(const Tensor& a, const Tensor& b) {
  DType dt = cpu::result_type({&a, &b});
  if (!is_floating(dt)) dt = default_dtype();
  return {a.to(dt), b.to(dt)};
}

// The binary float composites' argument checks: a floating result type, and shapes that broadcast (checked here so
// that the error names [op], not the first inner op).
void check_floating(std::string_view op, const Tensor& a, const Tensor& b) {
  const DType dt = cpu::result_type({&a, &b});
  AMPS_CHECK(is_floating(dt), "\"{}\" not implemented for '{}'", op, dtype_name(dt));
  broadcast_shapes(a.sizes(), b.sizes(), op);
}

// max(a, b) + log1p(exp(-|a - b| * scale)) / scale: log(exp(a) + exp(b)) for scale 1, log2(2^a + 2^b) for ln 2.
// Equal infinities give themselves (their difference would be NaN; it reads 0 instead).
Tensor log_add(const Tensor& a, const Tensor& b, double scale) {
  const Tensor same_inf = call_op(O::logical_and, call_op(O::isinf, a), eq(a, b));
  const Tensor d = where(same_inf, zeros_like(a), a - b);
  return maximum(a, b) + call_op(O::log1p, exp(abs(d) * -scale)) / scale;
}

}  // namespace

Tensors logaddexp_math(Args& args) {
  ArgReader a(O::logaddexp, args);
  check_floating("logaddexp", a.tensor(0), a.tensor(1));
  return {log_add(a.tensor(0), a.tensor(1), 1.0)};
}

Tensors logaddexp2_math(Args& args) {
  ArgReader a(O::logaddexp2, args);
  check_floating("logaddexp2", a.tensor(0), a.tensor(1));
  return {log_add(a.tensor(0), a.tensor(1), M_LN2)};
}

// sqrt(a^2 + b^2), squared in float64 for the half and float32 types (no overflow of the squares).
Tensors hypot_math(Args& args) {
  ArgReader a(O::hypot, args);
  check_floating("hypot", a.tensor(0), a.tensor(1));
  const Tensor x0 = a.tensor(0), y0 = a.tensor(1);
  const DType dt = cpu::result_type({&x0, &y0});
  const Tensor x = x0.to(DType::float64), y = y0.to(DType::float64);
  return {sqrt(x * x + y * y).to(dt)};
}

// sin(pi x) / (pi x), 1 at 0 (where the quotient reads x = 1 so that its gradient, masked to 0, is not NaN).
Tensors sinc_math(Args& args) {
  ArgReader a(O::sinc, args);
  const Tensor x = floating(a.tensor(0));
  const Tensor zero = eq(x, 0.0);
  const Tensor px = masked_fill(x, zero, 1.0) * M_PI;
  return {masked_fill(call_op(O::sin, px) / px, zero, 1.0)};
}

Tensors deg2rad_math(Args& args) {
  ArgReader a(O::deg2rad, args);
  return {floating(a.tensor(0)) * (M_PI / 180.0)};
}

Tensors rad2deg_math(Args& args) {
  ArgReader a(O::rad2deg, args);
  return {floating(a.tensor(0)) * (180.0 / M_PI)};
}

// x * log(y), 0 where x is 0, NaN where y is NaN, as PyTorch's. Where x is 0 and y <= 0 the logarithm reads y = 1,
// so x's gradient there is 0 and log(y) elsewhere (PyTorch's xlogy backward).
Tensors xlogy_math(Args& args) {
  ArgReader a(O::xlogy, args);
  auto [x, y] = float_pair(a.tensor(0), a.tensor(1));
  const Dims shape = broadcast_shapes(x.sizes(), y.sizes(), "xlogy");
  const Tensor xb = x.expand(shape), yb = y.expand(shape);
  // (0 * log(inf) would be NaN: PyTorch's xlogy(0, inf) is 0)
  const Tensor bad_log = call_op(O::logical_or, le(yb, Scalar(0.0)), eq(yb, Scalar(INFINITY)));
  const Tensor undefined_log = call_op(O::logical_and, eq(xb, 0.0), bad_log);
  const Tensor prod = xb * log(masked_fill(yb, undefined_log, 1.0));
  // +0 where input is 0 (-0.0 * log(other) is -0.0; adding 0.0 keeps the gradient log(other), as PyTorch's)
  const Tensor r = where(eq(xb, 0.0), prod + 0.0, prod);
  return {masked_fill(r, call_op(O::isnan, yb), NAN)};
}

// log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given (its gradient is 0 outside, as PyTorch's).
Tensors logit_math(Args& args) {
  ArgReader a(O::logit, args);
  Tensor p = floating(a.tensor(0));
  if (std::optional<double> eps = a.opt_f64(1)) p = clamp(p, Scalar(*eps), Scalar(1.0 - *eps));
  return {log(p / sub(full_like(p, 1.0), p))};
}

// 0 below 0, 1 above, values where input is 0 (PyTorch: both the same dtype).
Tensors heaviside_math(Args& args) {
  ArgReader a(O::heaviside, args);
  const Tensor x = a.tensor(0), v = a.tensor(1);
  AMPS_CHECK(x.dtype() == v.dtype(), "heaviside is not yet implemented for tensors with different dtypes");
  const Dims shape = broadcast_shapes(x.sizes(), v.sizes(), "heaviside");
  const Tensor xb = x.expand(shape);
  return {where(eq(xb, 0.0), v.expand(shape), gt(xb, 0.0).to(x.dtype()))};
}

// pow in float64, whatever the operands' dtypes.
Tensors float_power_math(Args& args) {
  ArgReader a(O::float_power, args);
  broadcast_shapes(a.tensor(0).sizes(), a.tensor(1).sizes(), "float_power");
  return {call_op(O::pow, a.tensor(0).to(DType::float64), a.tensor(1).to(DType::float64))};
}

// log of the multivariate gamma function: sum over i < p of lgamma(x - i / 2), plus p (p - 1) / 4 log(pi). Elements
// not above (p - 1) / 2 are outside its domain; PyTorch 1.13 does not check them (lgamma's poles give inf).
Tensors mvlgamma_math(Args& args) {
  ArgReader a(O::mvlgamma, args);
  const Tensor x = floating(a.tensor(0));
  const int64_t p = a.i64(1);
  AMPS_CHECK(p >= 1, "p has to be greater than or equal to 1");
  Tensor sum = call_op(O::lgamma, x);
  for (int64_t i = 1; i < p; ++i) sum = sum + call_op(O::lgamma, x - double(i) / 2);
  return {sum + double(p) * double(p - 1) / 4 * std::log(M_PI)};
}

// -x log(x) above 0, 0 at 0, -inf below (NaN stays NaN); the logarithm reads 1 where it is not used.
Tensors special_entr_math(Args& args) {
  ArgReader a(O::special_entr, args);
  const Tensor x = floating(a.tensor(0));
  const Tensor pos = gt(x, Scalar(0.0));
  const Tensor r = neg(x * log(where(pos, x, ones_like(x))));
  const Tensor other = masked_fill(full_like(x, -INFINITY), eq(x, 0.0), 0.0);
  return {masked_fill(where(pos, r, other), call_op(O::isnan, x), NAN)};
}

Tensors special_ndtr_math(Args& args) {
  ArgReader a(O::special_ndtr, args);
  return {call_op(O::erfc, floating(a.tensor(0)) * -M_SQRT1_2) * 0.5};
}

Tensors special_ndtri_math(Args& args) {
  ArgReader a(O::special_ndtri, args);
  return {call_op(O::erfinv, floating(a.tensor(0)) * 2.0 - 1.0) * M_SQRT2};
}

// x * log1p(y), 0 where x is 0 and y <= -1 (the logarithm then reads y = 0), NaN where y is NaN, as xlogy.
Tensors special_xlog1py_math(Args& args) {
  ArgReader a(O::special_xlog1py, args);
  auto [x, y] = float_pair(a.tensor(0), a.tensor(1));
  const Dims shape = broadcast_shapes(x.sizes(), y.sizes(), "special_xlog1py");
  const Tensor xb = x.expand(shape), yb = y.expand(shape);
  const Tensor undefined_log = call_op(O::logical_and, eq(xb, 0.0), le(yb, Scalar(-1.0)));
  const Tensor r = xb * call_op(O::log1p, masked_fill(yb, undefined_log, 0.0));
  return {masked_fill(r, call_op(O::isnan, yb), NAN)};
}

// x where |x| > lambd, else 0.
Tensors hardshrink_math(Args& args) {
  ArgReader a(O::hardshrink, args);
  const Tensor x = a.tensor(0);
  const double l = a.scalar(1).to_double();
  return {masked_fill(x, le(abs(x), Scalar(l)), 0.0)};
}

// x - lambd above lambd, x + lambd below -lambd, else 0 (PyTorch: lambd must be >= 0).
Tensors softshrink_math(Args& args) {
  ArgReader a(O::softshrink, args);
  const Tensor x = a.tensor(0);
  const double l = a.scalar(1).to_double();
  AMPS_CHECK(l >= 0, "lambda must be greater or equal to 0, but found to be {}.", l);
  const Tensor shrunk = x - where(gt(x, Scalar(0.0)), full_like(x, l), full_like(x, -l));
  return {masked_fill(shrunk, le(abs(x), Scalar(l)), 0.0)};
}

// x where x > threshold, else value.
Tensors threshold_math(Args& args) {
  ArgReader a(O::threshold, args);
  const Tensor x = a.tensor(0);
  return {masked_fill(x, le(x, a.scalar(1)), a.scalar(2))};
}

}  // namespace amps::rt::common
