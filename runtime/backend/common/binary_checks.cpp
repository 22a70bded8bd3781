// Device-independent argument checks of the arithmetic ops (see binary_checks.hpp).
#include "runtime/backend/common/binary_checks.hpp"

#include "runtime/error.hpp"

namespace amps::rt::common {

namespace {

// The dtype argument [i] has (a Python number's: its wrapped tensor's).
DType dtype_at(const ArgReader& a, size_t i) {
  const IValue& v = a.at(i);
  if (v.is_tensor() && v.tensor().defined()) return v.tensor().dtype();
  if (v.kind() == IValue::Kind::bool_) return DType::bool_;
  return v.kind() == IValue::Kind::float_ ? DType::float64 : DType::int64;
}

}  // namespace

void check_alpha(const ArgReader& a, const Scalar& alpha) {
  if (!alpha.is_floating()) return;
  AMPS_CHECK(is_floating(dtype_at(a, 0)) || is_floating(dtype_at(a, 1)),
             "For integral input tensors, argument alpha must not be a floating point number.");
}

void check_bool_sub(const ArgReader& a) {
  const bool bx = dtype_at(a, 0) == DType::bool_, by = dtype_at(a, 1) == DType::bool_;
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
