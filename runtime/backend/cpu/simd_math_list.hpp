// The SLEEF functions behind VecMath (simd_math.hpp), for the per-instruction-set files: X(VecMath name,
// SLEEF stem, accuracy suffix). sigmoid and silu are built from exp in each file.
#pragma once

#define AMPS_SLEEF_F32_FUNCS(X)                                                                                 \
  X(exp, exp, u10) X(log, log, u10) X(log2, log2, u10) X(log10, log10, u10) X(log1p, log1p, u10)            \
  X(expm1, expm1, u10) X(exp2, exp2, u10) X(sin, sin, u10) X(cos, cos, u10) X(tan, tan, u10)                \
  X(tanh, tanh, u10) X(sinh, sinh, u10) X(cosh, cosh, u10) X(asin, asin, u10) X(acos, acos, u10)            \
  X(atan, atan, u10) X(asinh, asinh, u10) X(acosh, acosh, u10) X(atanh, atanh, u10) X(erf, erf, u10)        \
  X(erfc, erfc, u15)
