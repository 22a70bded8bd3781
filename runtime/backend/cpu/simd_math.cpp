// VecMath dispatch: the widest build this CPU runs (simd.hpp's cpu_isa()); the baseline build is SLEEF's scalar C.
#include "runtime/backend/cpu/simd_math.hpp"

#include <sleef.h>

#include "runtime/backend/cpu/simd.hpp"
#include "runtime/backend/cpu/simd_math_list.hpp"

namespace amps::rt::cpu {
namespace simd_math_detail {
void vec_math_f32_avx512(VecMath f, const float* in, float* out, int64_t n);
void vec_math_f32_avx2(VecMath f, const float* in, float* out, int64_t n);

namespace {
struct Scalar {
  using V = float;
#define AMPS_FN(name, stem, acc) \
  static V name(V v) { return Sleef_##stem##f1_##acc##purec(v); }
  AMPS_SLEEF_F32_FUNCS(AMPS_FN)
#undef AMPS_FN
  static V one() { return 1.0f; }
  static V add(V a, V b) { return a + b; }
  static V div(V a, V b) { return a / b; }
  static V neg(V a) { return -a; }
};
}  // namespace
}  // namespace simd_math_detail

void vec_math_f32(VecMath f, const float* in, float* out, int64_t n) {
  switch (cpu_isa()) {
    case Isa::avx512: return simd_math_detail::vec_math_f32_avx512(f, in, out, n);
    case Isa::avx2: return simd_math_detail::vec_math_f32_avx2(f, in, out, n);
    case Isa::base: break;
  }
  const auto fn = simd_math_detail::Pick<simd_math_detail::Scalar>::of(f);
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
}

}  // namespace amps::rt::cpu
