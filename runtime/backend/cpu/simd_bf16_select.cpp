// The bfloat16 select of simd_bf16_select.hpp, compiled for the CPU's widest instruction set (vectorized()).
#include "runtime/backend/cpu/simd_bf16_select.hpp"

#include <cstring>

#include "runtime/backend/cpu/simd.hpp"

namespace amps::rt::cpu {
namespace {

// Written so the compiler vectorises it: widen x's bits to a float (exact), compare, select v's bits.
// v[i] is read unconditionally: a load under the condition keeps AVX2 (no masked 16-bit loads) scalar.
void select_loop(uint16_t* o, const uint16_t* v, const uint16_t* x, float th, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = uint32_t(x[i]) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    const uint16_t keep = v[i];
    o[i] = f <= th ? uint16_t(0) : keep;
  }
}

}  // namespace

void bf16_zero_where_le(uint16_t* o, const uint16_t* v, const uint16_t* x, float th, int64_t n) {
  vectorized([&] { select_loop(o, v, x, th, n); });
}

}  // namespace amps::rt::cpu
