// Scalar: a Python number (float, int or bool) as ops receive it for alpha=, value=, fill values and item().
#pragma once

#include <cstdint>
#include <string>

#include "runtime/dtype.hpp"

namespace amps::rt {

class Scalar {
 public:
  enum class Kind : uint8_t { floating, integral, boolean };

  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : kind_(Kind::floating), d_(v) {}
  Scalar(float v) : Scalar(double(v)) {}
  Scalar(int64_t v) : kind_(Kind::integral), i_(v) {}
  Scalar(int v) : Scalar(int64_t(v)) {}
  Scalar(bool v) : kind_(Kind::boolean), i_(v) {}

  Kind kind() const { return kind_; }
  bool is_floating() const { return kind_ == Kind::floating; }
  bool is_integral() const { return kind_ == Kind::integral; }
  bool is_bool() const { return kind_ == Kind::boolean; }
  double to_double() const { return is_floating() ? d_ : double(i_); }
  int64_t to_int() const { return is_floating() ? int64_t(d_) : i_; }
  bool to_bool() const { return is_floating() ? d_ != 0.0 : i_ != 0; }
  template <typename T> T to() const {
    if constexpr (std::is_same_v<T, bool>) return to_bool();
    else if constexpr (std::is_integral_v<T>) return T(to_int());
    else return T(to_double());
  }
  // The dtype a tensor made from this number gets: the current context's default dtype, int64 or bool.
  DType default_dtype() const;
  // Python's repr: "1.5", "2", "True".
  std::string repr() const;

 private:
  Kind kind_;
  union {
    double d_;
    int64_t i_;
  };
};

}  // namespace amps::rt
