// PyTorch's argument checks of the arithmetic ops that do not depend on the device, shared by the CPU and CUDA
// kernels so both refuse the same calls with the same messages.
#pragma once

#include "runtime/arg_reader.hpp"

namespace amps::rt::common {

// Both read only the arguments' kinds and dtypes (no wrapped tensor is made): they run on every add/sub.
// add/sub: an alpha that is a float with integral operands (the result would silently drop its fraction).
void check_alpha(const ArgReader& a, const Scalar& alpha);
// sub: a bool tensor on either side (PyTorch refuses it: `1 - mask` is meant as `~mask`).
void check_bool_sub(const ArgReader& a);
// pow: an integral base raised to a negative Python integer ("Integers to negative integer powers are not
// allowed."); a tensor exponent follows the elementwise rule instead (1 ** n = 1, (-1) ** n = +-1, else 0).
void check_integer_pow(const ArgReader& a);

}  // namespace amps::rt::common
