// Bulk float16/bfloat16 conversions: scalar, AVX2(+F16C) and AVX-512 variants chosen once at run time.
#include "runtime/half.hpp"

// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_*); the warning is spurious there.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

namespace amps::rt {
namespace {

using F2H = void (*)(const float*, Half*, int64_t);
using H2F = void (*)(const Half*, float*, int64_t);
using F2B = void (*)(const float*, BFloat16*, int64_t);
using B2F = void (*)(const BFloat16*, float*, int64_t);

// ---- scalar reference ----
void f2h_scalar(const float* s, Half* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = Half(s[i]);
}
void h2f_scalar(const Half* s, float* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = float(s[i]);
}
void f2b_scalar(const float* s, BFloat16* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = BFloat16(s[i]);
}
void b2f_scalar(const BFloat16* s, float* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = float(s[i]);
}

// ---- AVX2 + F16C ----
__attribute__((target("avx2,f16c"))) void f2h_avx2(const float* s, Half* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), h);
  }
  f2h_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx2,f16c"))) void h2f_avx2(const Half* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  h2f_scalar(s + i, d + i, n - i);
}

// Round-to-nearest-even on the integer image; NaN lanes become (bits >> 16) | 0x40 like the scalar path.
__attribute__((target("avx2"))) __m256i bf16_round_avx2(__m256 x) {
  const __m256i u = _mm256_castps_si256(x);
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb), 16);
  const __m256i qnan = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
  const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(r, qnan, is_nan);
}

__attribute__((target("avx2"))) void f2b_avx2(const float* s, BFloat16* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i lo = bf16_round_avx2(_mm256_loadu_ps(s + i));
    __m256i hi = bf16_round_avx2(_mm256_loadu_ps(s + i + 8));
    __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xd8);  // undo lane interleave
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), packed);
  }
  f2b_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx2"))) void b2f_avx2(const BFloat16* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_slli_epi32(w, 16));
  }
  b2f_scalar(s + i, d + i, n - i);
}

// ---- AVX-512F ----
__attribute__((target("avx512f"))) void f2h_avx512(const float* s, Half* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i h = _mm512_cvtps_ph(_mm512_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), h);
  }
  f2h_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx512f"))) void h2f_avx512(const Half* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(d + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i))));
  h2f_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx512f"))) void f2b_avx512(const float* s, BFloat16* d, int64_t n) {
  int64_t i = 0;
  const __m512i bias = _mm512_set1_epi32(0x7fff), one = _mm512_set1_epi32(1), q = _mm512_set1_epi32(0x40);
  for (; i + 16 <= n; i += 16) {
    __m512 x = _mm512_loadu_ps(s + i);
    __m512i u = _mm512_castps_si512(x);
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, bias), lsb), 16);
    __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(_mm512_srli_epi32(u, 16), q));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm512_cvtepi32_epi16(r));
  }
  f2b_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx512f"))) void b2f_avx512(const BFloat16* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i)));
    _mm512_storeu_si512(reinterpret_cast<void*>(d + i), _mm512_slli_epi32(w, 16));
  }
  b2f_scalar(s + i, d + i, n - i);
}

// The converter set for this CPU, chosen once (immutable afterwards, so safe across threads).
struct Converters {
  F2H f2h;
  H2F h2f;
  F2B f2b;
  B2F b2f;
  const char* isa;
};

Converters pick_converters() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {f2h_avx512, h2f_avx512, f2b_avx512, b2f_avx512, "avx512"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"))
    return {f2h_avx2, h2f_avx2, f2b_avx2, b2f_avx2, "avx2"};
  return {f2h_scalar, h2f_scalar, f2b_scalar, b2f_scalar, "scalar"};
}

const Converters& converters() {
  static const Converters c = pick_converters();
  return c;
}

}  // namespace

void convert_float_to_half(const float* s, Half* d, int64_t n) { converters().f2h(s, d, n); }
void convert_half_to_float(const Half* s, float* d, int64_t n) { converters().h2f(s, d, n); }
void convert_float_to_bf16(const float* s, BFloat16* d, int64_t n) { converters().f2b(s, d, n); }
void convert_bf16_to_float(const BFloat16* s, float* d, int64_t n) { converters().b2f(s, d, n); }
const char* half_convert_isa() { return converters().isa; }

}  // namespace amps::rt
