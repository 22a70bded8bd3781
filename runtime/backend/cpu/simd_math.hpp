// Vectorised float32 transcendental functions for the CPU backend's unary kernels, through SLEEF (Debian's
// libsleef, the library PyTorch's CPU kernels use for the same functions): 16 lanes on AVX-512, 8 on AVX2, SLEEF's
// scalar C build elsewhere (simd.hpp's cpu_isa()). Every function is SLEEF's 1.0-ulp variant (erfc's is 1.5 ulp);
// sigmoid and silu are 1 / (1 + exp(-x)) and x / (1 + exp(-x)) over SLEEF's exp, PyTorch's formulas.
// A partial last vector is computed in a zero-padded vector, so an element's result does not depend on where it
// sits in the tensor. float64 stays on libm (correctly rounded in practice), where precision is what is asked for.
#pragma once

#include <cstdint>

namespace amps::rt::cpu {

enum class VecMath : uint8_t {
  exp, log, log2, log10, log1p, expm1, exp2, sin, cos, tan, tanh, sinh, cosh, asin, acos, atan, asinh, acosh,
  atanh, erf, erfc, sigmoid, silu
};

// out[i] = f(in[i]) for i < n (out may alias in).
void vec_math_f32(VecMath f, const float* in, float* out, int64_t n);

}  // namespace amps::rt::cpu
