#include "runtime/backend/common/activation_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// x > 0 ? x : alpha * expm1(x * input_scale) (PyTorch's elu family; the gradient at 0 is the lower branch's, alpha *
// input_scale, as PyTorch's elu_backward).
Tensor elu_of(const Tensor& x, double alpha, double scale, double input_scale) {
  Tensor low = call_op(O::expm1, input_scale == 1.0 ? x : x * input_scale) * (alpha * scale);
  return where(gt(x, 0.0), scale == 1.0 ? x : x * scale, low);
}

// min_val where x <= min_val, max_val where x >= max_val, x strictly between (gradient 1 there, 0 at the bounds).
Tensor hardtanh_of(const Tensor& x, double lo, double hi) {
  return where(le(x, lo), full_like(x, lo), where(ge(x, hi), full_like(x, hi), x));
}

}  // namespace

Tensors elu_math(Args& args) {
  ArgReader a(O::elu, args);
  return {elu_of(a.tensor(0), a.f64(1), 1.0, 1.0)};
}

// SELU's fixed alpha and scale (Klambauer et al.), as PyTorch's.
Tensors selu_math(Args& args) {
  ArgReader a(O::selu, args);
  return {elu_of(a.tensor(0), 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1.0)};
}

Tensors celu_math(Args& args) {
  ArgReader a(O::celu, args);
  const double alpha = a.f64(1);
  AMPS_CHECK(alpha != 0, "ZeroDivisionError");
  return {elu_of(a.tensor(0), alpha, 1.0, 1.0 / alpha)};
}

Tensors hardtanh_math(Args& args) {
  ArgReader a(O::hardtanh, args);
  const double lo = a.f64(1), hi = a.f64(2);
  AMPS_CHECK(lo <= hi, "min_val cannot be greater than max_val");
  return {hardtanh_of(a.tensor(0), lo, hi)};
}

Tensors relu6_math(Args& args) {
  ArgReader a(O::relu6, args);
  return {hardtanh_of(a.tensor(0), 0.0, 6.0)};
}

// (x + 3) / 6 strictly inside (-3, 3), 0 and 1 outside (gradient 1/6 inside only, as PyTorch's).
Tensors hardsigmoid_math(Args& args) {
  ArgReader a(O::hardsigmoid, args);
  const Tensor& x = a.tensor(0);
  return {where(le(x, -3.0), zeros_like(x), where(ge(x, 3.0), ones_like(x), (x + 3.0) / 6.0))};
}

// x * (x + 3) / 6 on [-3, 3], x * 0 below (-0, as PyTorch's x * 0 / 6), x above: PyTorch's hardswish_backward
// branches (x / 3 + 0.5 on [-3, 3]).
Tensors hardswish_math(Args& args) {
  ArgReader a(O::hardswish, args);
  const Tensor& x = a.tensor(0);
  return {where(lt(x, -3.0), x * 0.0, where(le(x, 3.0), x * (x + 3.0) / 6.0, x))};
}

// x * tanh(softplus(x)).
Tensors mish_math(Args& args) {
  ArgReader a(O::mish, args);
  const Tensor& x = a.tensor(0);
  return {x * tanh(call_op(O::softplus, x, 1.0, 20.0))};
}

// log(sigmoid(x)) = -softplus(-x): no overflow for large |x|, gradient sigmoid(-x).
Tensors logsigmoid_math(Args& args) {
  ArgReader a(O::logsigmoid, args);
  return {neg(call_op(O::softplus, neg(a.tensor(0)), 1.0, 20.0))};
}

Tensors softsign_math(Args& args) {
  ArgReader a(O::softsign, args);
  const Tensor& x = a.tensor(0);
  return {x / (abs(x) + 1.0)};
}

// F.normalize: x / max(||x||_p along dim, eps).
Tensors normalize_math(Args& args) {
  ArgReader a(O::normalize, args);
  const Tensor& x = a.tensor(0);
  const Tensor n = call_op(O::norm, x, Scalar(a.f64(1)), Dims{a.i64(2)}, true);
  return {x / clamp(n, Scalar(a.f64(3)), std::nullopt)};
}

}  // namespace amps::rt::common
