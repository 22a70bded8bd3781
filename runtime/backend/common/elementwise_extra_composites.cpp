#include "runtime/backend/common/elementwise_extra_composites.hpp"

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

// fmax/fmin: [a] where it wins the comparison or [b] is NaN, else [b] (NaN only where both are); the gradient
// goes wholly to the chosen operand (a on ties), as PyTorch's fmax/fmin backward.
Tensors nan_ignoring_extremum(OpId op, Args& args, bool max) {
  ArgReader a(op, args);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  broadcast_shapes(x.sizes(), y.sizes(), op_name(op));
  const Tensor wins = max ? ge(x, y) : le(x, y);
  return {where(call_op(O::logical_or, wins, call_op(O::isnan, y)), x, y)};
}

// isneginf/isposinf: input == -inf / +inf (false throughout for integer and bool inputs).
Tensor is_inf_of_sign(const Tensor& x, double inf) { return eq(x, Scalar(inf)); }

}  // namespace

Tensors fmax_math(Args& args) { return nan_ignoring_extremum(O::fmax, args, true); }
Tensors fmin_math(Args& args) { return nan_ignoring_extremum(O::fmin, args, false); }

// copysign(input, other): |input| with other's sign bit (-0.0 and negative NaN count as negative), in the
// promoted floating dtype (integers and bools give float32). The gradient of input is sign(input) times the sign
// taken, 0 at input == 0 (PyTorch's result / input with the zeros masked); other gets none.
Tensors copysign_math(Args& args) {
  ArgReader a(O::copysign, args);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  broadcast_shapes(x.sizes(), y.sizes(), "copysign");
  const DType common = cpu::result_type({&x, &y});
  const Tensor m = abs(x.to(is_floating(common) ? common : default_dtype()));
  return {where(call_op(O::signbit, y), neg(m), m)};
}

// ldexp(input, other): input * 2 ** other, as PyTorch's composite (pow(2.0, other) makes integers float32).
Tensors ldexp_math(Args& args) {
  ArgReader a(O::ldexp, args);
  broadcast_shapes(a.tensor(0).sizes(), a.tensor(1).sizes(), "ldexp");
  return {mul(a.tensor(0), call_op(O::pow, 2.0, a.tensor(1)))};
}

Tensors isneginf_math(Args& args) { return {is_inf_of_sign(ArgReader(O::isneginf, args).tensor(0), -INFINITY)}; }
Tensors isposinf_math(Args& args) { return {is_inf_of_sign(ArgReader(O::isposinf, args).tensor(0), INFINITY)}; }

// isreal: true throughout (amps has no complex dtypes).
Tensors isreal_math(Args& args) {
  const Tensor x = ArgReader(O::isreal, args).tensor(0);
  return {ones(x.sizes(), DType::bool_, x.device())};
}

// positive(input): input itself; PyTorch refuses bool.
Tensors positive_math(Args& args) {
  const Tensor x = ArgReader(O::positive, args).tensor(0);
  AMPS_CHECK(x.dtype() != DType::bool_, "The `+` operator, on a bool tensor is not supported.");
  return {x};
}

// rsub(input, other, alpha): other - alpha * input.
Tensors rsub_math(Args& args) {
  ArgReader a(O::rsub, args);
  broadcast_shapes(a.tensor(0).sizes(), a.tensor(1).sizes(), "rsub");
  return {sub(a.tensor(1), a.tensor(0), a.scalar(2))};
}

// logical_xor: (input != 0) != (other != 0), as bool (NaN counts as true).
Tensors logical_xor_math(Args& args) {
  ArgReader a(O::logical_xor, args);
  broadcast_shapes(a.tensor(0).sizes(), a.tensor(1).sizes(), "logical_xor");
  return {ne(ne(a.tensor(0), Scalar(int64_t(0))), ne(a.tensor(1), Scalar(int64_t(0))))};
}

// clamp_min/clamp_max: clamp with one tensor (or number) bound, broadcasting and promoting as clamp.Tensor.
Tensors clamp_min_math(Args& args) {
  ArgReader a(O::clamp_min, args);
  return {call_op(O::clamp_tensor, a.tensor(0), a.tensor(1), IValue())};
}
Tensors clamp_max_math(Args& args) {
  ArgReader a(O::clamp_max, args);
  return {call_op(O::clamp_tensor, a.tensor(0), IValue(), a.tensor(1))};
}

// round(input, decimals=d): round(input * 10^d) / 10^d (round(input / 10^-d) * 10^-d for negative d), each step in
// input's dtype as PyTorch's; float32, float64 and bfloat16 only, as its CPU kernel.
Tensors round_decimals_math(Args& args) {
  ArgReader a(O::round_decimals, args);
  const Tensor x = a.tensor(0);
  const int64_t d = a.i64(1);
  AMPS_CHECK(is_floating(x.dtype()) && x.dtype() != DType::float16, "\"round\" not implemented for '{}'",
             dtype_name(x.dtype()));
  if (d == 0) return {call_op(O::round, x)};
  const Scalar ten_pow(std::pow(10.0, double(d < 0 ? -d : d)));
  if (d > 0) return {call_op(O::round, x * ten_pow) / ten_pow};
  return {call_op(O::round, x / ten_pow) * ten_pow};
}

// x.polygamma(n): polygamma(n, x), the tensor first as a method's.
Tensors polygamma_method_math(Args& args) {
  ArgReader a(O::polygamma_method, args);
  return {call_op(O::polygamma, a.i64(1), a.tensor(0))};
}

// fill(input, value): a new tensor like input holding value (a number or 0-dim tensor, converted to input's
// dtype); the gradient goes to value (summed), none to input.
Tensors fill_math(Args& args) {
  ArgReader a(O::fill, args);
  const Tensor x = a.tensor(0), v = a.tensor(1);
  AMPS_CHECK(v.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", v.dim());
  return {where(ones(x.sizes(), DType::bool_, x.device()), v.to(x.dtype()), x)};
}

}  // namespace amps::rt::common
