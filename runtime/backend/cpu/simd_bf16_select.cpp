// The bfloat16 select of simd_bf16_select.hpp, one copy per instruction set.
#include "runtime/backend/cpu/simd_bf16_select.hpp"

#include <cstring>

namespace amps::rt::cpu {
namespace {

// Written so the compiler vectorises it: widen x's bits to a float (exact), compare, select v's bits.
// v[i] is read unconditionally: a load under the condition keeps AVX2 (no masked 16-bit loads) scalar.
#define AMPS_SELECT_LOOP(suffix, target)                                                                   \
  target void select_##suffix(uint16_t* o, const uint16_t* v, const uint16_t* x, float th, int64_t n) { \
    for (int64_t i = 0; i < n; ++i) {                                                                      \
      const uint32_t bits = uint32_t(x[i]) << 16;                                                          \
      float f;                                                                                             \
      std::memcpy(&f, &bits, sizeof f);                                                                    \
      const uint16_t keep = v[i];                                                                          \
      o[i] = f <= th ? uint16_t(0) : keep;                                                                 \
    }                                                                                                      \
  }
AMPS_SELECT_LOOP(avx512, __attribute__((target("avx512f,avx512bw,avx512vl"))))
AMPS_SELECT_LOOP(avx2, __attribute__((target("avx2"))))
AMPS_SELECT_LOOP(base, )
#undef AMPS_SELECT_LOOP

using SelectFn = void (*)(uint16_t*, const uint16_t*, const uint16_t*, float, int64_t);

SelectFn pick() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")) return select_avx512;
  if (__builtin_cpu_supports("avx2")) return select_avx2;
  return select_base;
}

}  // namespace

void bf16_zero_where_le(uint16_t* o, const uint16_t* v, const uint16_t* x, float th, int64_t n) {
  static const SelectFn select = pick();
  select(o, v, x, th, n);
}

}  // namespace amps::rt::cpu
