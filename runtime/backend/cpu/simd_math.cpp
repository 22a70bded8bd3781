// VecMath dispatch: the widest build this CPU runs (simd.hpp's cpu_isa()); the baseline build is SLEEF's scalar C.
#include "runtime/backend/cpu/simd_math.hpp"

#include <sleef.h>

#include "runtime/backend/cpu/simd.hpp"
#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu {
namespace simd_math_detail {
void vec_math_f32_avx512(VecMath f, const float* in, float* out, int64_t n);
void vec_math_f32_avx2(VecMath f, const float* in, float* out, int64_t n);
}  // namespace simd_math_detail

namespace {

float sigmoid(float x) { return 1.0f / (1.0f + Sleef_expf1_u10purec(-x)); }
float silu(float x) { return x / (1.0f + Sleef_expf1_u10purec(-x)); }

using Fn = float (*)(float);

Fn pick_scalar(VecMath f) {
  switch (f) {
#define AMPS_CASE(name, stem, acc) \
  case VecMath::name: return [](float v) -> float { return Sleef_##stem##f1_##acc##purec(v); };
    AMPS_SLEEF_F32_FUNCS(AMPS_CASE)
#undef AMPS_CASE
    case VecMath::sigmoid: return sigmoid;
    case VecMath::silu: return silu;
  }
  return nullptr;
}

}  // namespace

void vec_math_f32(VecMath f, const float* in, float* out, int64_t n) {
  switch (cpu_isa()) {
    case Isa::avx512: return simd_math_detail::vec_math_f32_avx512(f, in, out, n);
    case Isa::avx2: return simd_math_detail::vec_math_f32_avx2(f, in, out, n);
    case Isa::base: break;
  }
  const Fn fn = pick_scalar(f);
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
}

}  // namespace amps::rt::cpu
