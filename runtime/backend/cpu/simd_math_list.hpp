// What the per-instruction-set builds of VecMath (simd_math.hpp) share: the list of SLEEF functions and the choice of
// one from a VecMath. Each build includes this in its own translation unit with its own lane type, so every
// instantiation below is local to that build (nothing compiled for AVX-512 can be picked by the linker for a
// baseline caller).
#pragma once

#include "runtime/backend/cpu/simd_math.hpp"

// X(VecMath name, SLEEF stem, accuracy suffix) for each function SLEEF computes directly.
#define AMPS_SLEEF_F32_FUNCS(X)                                                                                 \
  X(exp, exp, u10) X(log, log, u10) X(log2, log2, u10) X(log10, log10, u10) X(log1p, log1p, u10)            \
  X(expm1, expm1, u10) X(exp2, exp2, u10) X(sin, sin, u10) X(cos, cos, u10) X(tan, tan, u10)                \
  X(tanh, tanh, u10) X(sinh, sinh, u10) X(cosh, cosh, u10) X(asin, asin, u10) X(acos, acos, u10)            \
  X(atan, atan, u10) X(asinh, asinh, u10) X(acosh, acosh, u10) X(atanh, atanh, u10) X(erf, erf, u10)        \
  X(erfc, erfc, u15)

namespace amps::rt::cpu::simd_math_detail {

// [B] is a build: its lane type V, one static function per AMPS_SLEEF_F32_FUNCS name, and one(), add(a, b),
// div(a, b), neg(a) (a sign flip). sigmoid and silu are PyTorch's vectorised formulas, 1 / (1 + exp(-x)) and
// x / (1 + exp(-x)).
template <typename B> struct Pick {
  using V = typename B::V;
  using Fn = V (*)(V);
  static V one_plus_exp_neg(V x) { return B::add(B::one(), B::exp(B::neg(x))); }
  static V sigmoid(V x) { return B::div(B::one(), one_plus_exp_neg(x)); }
  static V silu(V x) { return B::div(x, one_plus_exp_neg(x)); }
  static Fn of(VecMath f) {
    switch (f) {
#define AMPS_CASE(name, stem, acc) \
  case VecMath::name: return B::name;
      AMPS_SLEEF_F32_FUNCS(AMPS_CASE)
#undef AMPS_CASE
      case VecMath::sigmoid: return sigmoid;
      case VecMath::silu: return silu;
    }
    return nullptr;
  }
};

}  // namespace amps::rt::cpu::simd_math_detail
