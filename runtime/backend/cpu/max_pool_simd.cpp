// Window argmax for 2x2, stride-2 max pooling: AVX-512 (16 windows per step), AVX2 (8) or scalar, chosen once.
#include "runtime/backend/cpu/max_pool_simd.hpp"

#include <algorithm>

// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_*); the warning is spurious there.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "runtime/backend/cpu/simd.hpp"

namespace amps::rt::cpu {
namespace {

using Argmax2 = void (*)(const float*, int64_t, int64_t, int64_t, int64_t*);

// One step of the scan: x (at flat index k) takes over when it is larger or NaN. Branch-free on purpose:
// on real data the comparison is a coin toss for the branch predictor.
void take_scalar(float& best, int64_t& at, float x, int64_t k) {
  const bool t = (x > best) | (x != x);
  best = t ? x : best;
  at = t ? k : at;
}

void argmax2_scalar(const float* v, int64_t W, int64_t k0, int64_t n, int64_t* at) {
  for (int64_t o = 0; o < n; ++o) {
    const int64_t k = k0 + 2 * o;
    float best = v[k];
    int64_t a = k;
    take_scalar(best, a, v[k + 1], k + 1);
    take_scalar(best, a, v[k + W], k + W);
    take_scalar(best, a, v[k + W + 1], k + W + 1);
    at[o] = a;
  }
}

__attribute__((target("avx512f"))) inline void take_avx512(__m512& best, __m512i& at, __m512 x, __m512i k) {
  const __mmask16 t = _mm512_cmp_ps_mask(x, best, _CMP_GT_OQ) | _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  best = _mm512_mask_mov_ps(best, t, x);
  at = _mm512_mask_mov_epi32(at, t, k);
}

__attribute__((target("avx512f"))) inline __mmask16 first_lanes(int64_t m) {
  return __mmask16(m >= 16 ? 0xffff : (1u << std::max<int64_t>(m, 0)) - 1u);
}

// 16 windows per step: both rows' 32 floats load (masked at the end of the row, so nothing past the last
// window is touched), split into even and odd columns, and the four corners are scanned lane-wise.
__attribute__((target("avx512f"))) void argmax2_avx512(const float* v, int64_t W, int64_t k0, int64_t n, int64_t* at) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  const __m512i one = _mm512_set1_epi32(1), row = _mm512_set1_epi32(int32_t(W));
  for (int64_t o = 0; o < n; o += 16) {
    const int64_t m = std::min<int64_t>(16, n - o);
    const __mmask16 lo = first_lanes(2 * m), hi = first_lanes(2 * m - 16), out = first_lanes(m);
    const float* r0 = v + k0 + 2 * o;
    const float* r1 = r0 + W;
    const __m512 a0 = _mm512_maskz_loadu_ps(lo, r0), a1 = _mm512_maskz_loadu_ps(hi, r0 + 16);
    const __m512 b0 = _mm512_maskz_loadu_ps(lo, r1), b1 = _mm512_maskz_loadu_ps(hi, r1 + 16);
    const __m512i k = _mm512_add_epi32(_mm512_set1_epi32(int32_t(k0 + 2 * o)), even), kw = _mm512_add_epi32(k, row);
    __m512 best = _mm512_permutex2var_ps(a0, even, a1);
    __m512i arg = k;
    take_avx512(best, arg, _mm512_permutex2var_ps(a0, odd, a1), _mm512_add_epi32(k, one));
    take_avx512(best, arg, _mm512_permutex2var_ps(b0, even, b1), kw);
    take_avx512(best, arg, _mm512_permutex2var_ps(b0, odd, b1), _mm512_add_epi32(kw, one));
    _mm512_mask_storeu_epi64(at + o, __mmask8(out), _mm512_cvtepi32_epi64(_mm512_castsi512_si256(arg)));
    _mm512_mask_storeu_epi64(at + o + 8, __mmask8(out >> 8), _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(arg, 1)));
  }
}

__attribute__((target("avx2"))) inline void take_avx2(__m256& best, __m256i& at, __m256 x, __m256i k) {
  const __m256 t = _mm256_or_ps(_mm256_cmp_ps(x, best, _CMP_GT_OQ), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
  best = _mm256_blendv_ps(best, x, t);
  at = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(at), _mm256_castsi256_ps(k), t));
}

// 64-bit chunks (c0 c1 c2 c3) reordered as (c0 c2 c1 c3).
__attribute__((target("avx2"))) inline __m256 swap_middle_chunks(__m256 v) {
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)));
}

// The first [m] of 8 int32 lanes set (m may be <= 0 or >= 8): a mask for AVX2's masked loads.
__attribute__((target("avx2"))) inline __m256i first_lanes_avx2(int64_t m) {
  const int32_t c = int32_t(std::clamp<int64_t>(m, 0, 8));
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// r[0, 2m) (m <= 8 windows; unread lanes are 0) split into its even and odd columns, each in order: the
// in-lane shuffle gives 64-bit chunks (r0 r2)(r8 r10)(r4 r6)(r12 r14), the cross-lane permute orders them.
__attribute__((target("avx2"))) inline void split_even_odd(const float* r, int64_t m, __m256& even, __m256& odd) {
  const bool full = m == 8;
  const __m256 lo = full ? _mm256_loadu_ps(r) : _mm256_maskload_ps(r, first_lanes_avx2(2 * m));
  const __m256 hi = full ? _mm256_loadu_ps(r + 8) : _mm256_maskload_ps(r + 8, first_lanes_avx2(2 * m - 8));
  even = swap_middle_chunks(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
  odd = swap_middle_chunks(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)));
}

// at[0, m) from the 8 int32 indices [arg], widened to int64.
__attribute__((target("avx2"))) inline void store_indices(int64_t* at, __m256i arg, int64_t m) {
  const __m256i lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(arg));
  const __m256i hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(arg, 1));
  auto* out = reinterpret_cast<long long*>(at);
  if (m == 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), lo);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4), hi);
    return;
  }
  const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
  _mm256_maskstore_epi64(out, _mm256_cmpgt_epi64(_mm256_set1_epi64x(m), lanes), lo);
  _mm256_maskstore_epi64(out + 4, _mm256_cmpgt_epi64(_mm256_set1_epi64x(m - 4), lanes), hi);
}

// 8 windows per step; the last step's loads and stores are masked, so nothing past the last window is touched.
__attribute__((target("avx2"))) void argmax2_avx2(const float* v, int64_t W, int64_t k0, int64_t n, int64_t* at) {
  const __m256i even_k = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  const __m256i one = _mm256_set1_epi32(1), row = _mm256_set1_epi32(int32_t(W));
  for (int64_t o = 0; o < n; o += 8) {
    const int64_t m = std::min<int64_t>(8, n - o);
    const float* r0 = v + k0 + 2 * o;
    __m256 a_even, a_odd, b_even, b_odd;
    split_even_odd(r0, m, a_even, a_odd);
    split_even_odd(r0 + W, m, b_even, b_odd);
    const __m256i k = _mm256_add_epi32(_mm256_set1_epi32(int32_t(k0 + 2 * o)), even_k), kw = _mm256_add_epi32(k, row);
    __m256 best = a_even;
    __m256i arg = k;
    take_avx2(best, arg, a_odd, _mm256_add_epi32(k, one));
    take_avx2(best, arg, b_even, kw);
    take_avx2(best, arg, b_odd, _mm256_add_epi32(kw, one));
    store_indices(at + o, arg, m);
  }
}

struct Impl {
  Argmax2 argmax2;
  const char* isa;
};

const Impl& impl() {
  static const Impl i = [] {
    switch (cpu_isa()) {
      case Isa::avx512: return Impl{argmax2_avx512, "avx512"};
      case Isa::avx2: return Impl{argmax2_avx2, "avx2"};
      case Isa::base: break;
    }
    return Impl{argmax2_scalar, "scalar"};
  }();
  return i;
}

}  // namespace

void argmax_2x2_stride2(const float* v, int64_t W, int64_t k0, int64_t n, int64_t* at) { impl().argmax2(v, W, k0, n, at); }
const char* max_pool_simd_isa() { return impl().isa; }

}  // namespace amps::rt::cpu
