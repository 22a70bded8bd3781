// VecMath's AVX-512 build (compiled with -mavx512f; called only when cpu_isa() is avx512). This file includes
// nothing but SLEEF and intrinsics: an inline C++ library template instantiated here would be compiled for
// AVX-512 and could be the copy the linker keeps for every caller.
#include <sleef.h>

#include "runtime/backend/cpu/simd_math.hpp"
#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu::simd_math_detail {
namespace {

using Fn = __m512 (*)(__m512);

// 1 / (1 + exp(-x)) and x / (1 + exp(-x)): PyTorch's vectorised sigmoid and silu (negation flips the sign bit).
__m512 one_plus_exp_neg(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 neg = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN)));
  return _mm512_add_ps(one, Sleef_expf16_u10avx512f(neg));
}
__m512 sigmoid(__m512 x) { return _mm512_div_ps(_mm512_set1_ps(1.0f), one_plus_exp_neg(x)); }
__m512 silu(__m512 x) { return _mm512_div_ps(x, one_plus_exp_neg(x)); }

Fn pick(VecMath f) {
  switch (f) {
#define AMPS_CASE(name, stem, acc) \
  case VecMath::name: return [](__m512 v) -> __m512 { return Sleef_##stem##f16_##acc##avx512f(v); };
    AMPS_SLEEF_F32_FUNCS(AMPS_CASE)
#undef AMPS_CASE
    case VecMath::sigmoid: return sigmoid;
    case VecMath::silu: return silu;
  }
  return nullptr;
}

}  // namespace

void vec_math_f32_avx512(VecMath f, const float* in, float* out, int64_t n) {
  const Fn fn = pick(f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, fn(_mm512_loadu_ps(in + i)));
  if (i < n) {  // the masked-off lanes compute on zeros
    const __mmask16 m = __mmask16((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(out + i, m, fn(_mm512_maskz_loadu_ps(m, in + i)));
  }
}

}  // namespace amps::rt::cpu::simd_math_detail
