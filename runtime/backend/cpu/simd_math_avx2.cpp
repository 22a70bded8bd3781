// VecMath's AVX2 build (compiled with -mavx2 -mfma; called only when cpu_isa() is avx2). Like the AVX-512 file it
// includes nothing but SLEEF and intrinsics (no C++ library template compiled for AVX2 here).
#include <sleef.h>

#include "runtime/backend/cpu/simd_math.hpp"
#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu::simd_math_detail {
namespace {

using Fn = __m256 (*)(__m256);

// 1 / (1 + exp(-x)) and x / (1 + exp(-x)): PyTorch's vectorised sigmoid and silu (negation flips the sign bit).
__m256 one_plus_exp_neg(__m256 x) {
  const __m256 neg = _mm256_xor_ps(x, _mm256_set1_ps(-0.0f));
  return _mm256_add_ps(_mm256_set1_ps(1.0f), Sleef_expf8_u10avx2(neg));
}
__m256 sigmoid(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.0f), one_plus_exp_neg(x)); }
__m256 silu(__m256 x) { return _mm256_div_ps(x, one_plus_exp_neg(x)); }

Fn pick(VecMath f) {
  switch (f) {
#define AMPS_CASE(name, stem, acc) \
  case VecMath::name: return [](__m256 v) -> __m256 { return Sleef_##stem##f8_##acc##avx2(v); };
    AMPS_SLEEF_F32_FUNCS(AMPS_CASE)
#undef AMPS_CASE
    case VecMath::sigmoid: return sigmoid;
    case VecMath::silu: return silu;
  }
  return nullptr;
}

}  // namespace

void vec_math_f32_avx2(VecMath f, const float* in, float* out, int64_t n) {
  const Fn fn = pick(f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, fn(_mm256_loadu_ps(in + i)));
  if (i < n) {  // the last partial vector, zero-padded
    float buf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int64_t k = 0; k < n - i; ++k) buf[k] = in[i + k];
    _mm256_storeu_ps(buf, fn(_mm256_loadu_ps(buf)));
    for (int64_t k = 0; k < n - i; ++k) out[i + k] = buf[k];
  }
}

}  // namespace amps::rt::cpu::simd_math_detail
