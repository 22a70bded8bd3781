// Device-independent argument checks of the arithmetic ops (see binary_checks.hpp).
#include "runtime/backend/common/binary_checks.hpp"

#include "runtime/error.hpp"

namespace amps::rt::common {

void check_alpha(const Tensor& x, const Tensor& y, const Scalar& alpha) {
  AMPS_CHECK(!alpha.is_floating() || is_floating(x.dtype()) || is_floating(y.dtype()),
             "For integral input tensors, argument alpha must not be a floating point number.");
}

void check_bool_sub(const Tensor& x, const Tensor& y) {
  const bool bx = x.dtype() == DType::bool_, by = y.dtype() == DType::bool_;
  AMPS_CHECK(!(bx && by), "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
             "`logical_xor()` operator instead.");
  AMPS_CHECK(!(bx || by), "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
             "invert a mask, use the `~` or `logical_not()` operator instead.");
}

void check_integer_pow(const ArgReader& a) {
  const IValue& e = a.at(1);
  const bool python_int = e.kind() == IValue::Kind::int_ ||
                          (e.is_tensor() && e.tensor().defined() && e.tensor().impl()->is_wrapped_number &&
                           !is_floating(e.tensor().dtype()) && e.tensor().dtype() != DType::bool_);
  if (!python_int || !a.at(0).is_tensor() || is_floating(a.tensor(0).dtype())) return;
  AMPS_CHECK(a.scalar(1).to_double() >= 0, "Integers to negative integer powers are not allowed.");
}

}  // namespace amps::rt::common
