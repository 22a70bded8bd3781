// VecMath's AVX-512 build (compiled with -mavx512f; called only when cpu_isa() is avx512). It includes nothing but
// SLEEF, intrinsics and simd_math_list.hpp: an inline C++ library template instantiated here would be compiled for
// AVX-512 and could be the copy the linker keeps for every caller.
#include <sleef.h>

#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu::simd_math_detail {
namespace {

struct Avx512 {
  using V = __m512;
#define AMPS_FN(name, stem, acc) \
  static V name(V v) { return Sleef_##stem##f16_##acc##avx512f(v); }
  AMPS_SLEEF_F32_FUNCS(AMPS_FN)
#undef AMPS_FN
  static V one() { return _mm512_set1_ps(1.0f); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V neg(V a) { return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32(INT32_MIN))); }
};

}  // namespace

void vec_math_f32_avx512(VecMath f, const float* in, float* out, int64_t n) {
  const auto fn = Pick<Avx512>::of(f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, fn(_mm512_loadu_ps(in + i)));
  if (i < n) {  // the masked-off lanes compute on zeros
    const __mmask16 m = __mmask16((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(out + i, m, fn(_mm512_maskz_loadu_ps(m, in + i)));
  }
}

}  // namespace amps::rt::cpu::simd_math_detail
