// IValue's Python type names and Scalar conversion.
#include "runtime/ivalue.hpp"

#include "runtime/error.hpp"

namespace amps::rt {

IValue::IValue(Scalar s) {
  if (s.is_floating()) v_ = s.to_double();
  else if (s.is_bool()) v_ = s.to_bool();
  else v_ = s.to_int();
}

std::string_view IValue::type_name() const {
  static constexpr std::string_view kNames[] = {"NoneType", "Tensor", "list", "int", "float",
                                                "bool",     "list",   "dtype", "device", "str"};
  return kNames[v_.index()];
}

Scalar IValue::scalar() const {
  switch (kind()) {
    case Kind::int_: return Scalar(i64());
    case Kind::float_: return Scalar(f64());
    case Kind::bool_: return Scalar(boolean());
    default: AMPS_ASSERT(false, "IValue::scalar() on a {}", type_name());
  }
}

}  // namespace amps::rt
