// VecMath's AVX2 build (compiled with -mavx2 -mfma; called only when cpu_isa() is avx2). Like the AVX-512 file it
// includes nothing but SLEEF, intrinsics and simd_math_list.hpp.
#include <sleef.h>

#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu::simd_math_detail {
namespace {

struct Avx2 {
  using V = __m256;
#define AMPS_FN(name, stem, acc) \
  static V name(V v) { return Sleef_##stem##f8_##acc##avx2(v); }
  AMPS_SLEEF_F32_FUNCS(AMPS_FN)
#undef AMPS_FN
  static V one() { return _mm256_set1_ps(1.0f); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V neg(V a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
};

}  // namespace

void vec_math_f32_avx2(VecMath f, const float* in, float* out, int64_t n) {
  const auto fn = Pick<Avx2>::of(f);
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
