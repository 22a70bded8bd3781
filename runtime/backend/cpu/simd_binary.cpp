// Dense float32 binary loops, one copy per instruction set; the widest the CPU supports is chosen once.
#include "runtime/backend/cpu/simd_binary.hpp"

namespace amps::rt::cpu {
namespace {

#define AMPS_FLAT_LOOPS(suffix, target)                                                                    \
  target void flat_##suffix(FlatOp op, float* o, const float* a, const float* b, int64_t n) {             \
    switch (op) {                                                                                          \
      case FlatOp::add: for (int64_t i = 0; i < n; ++i) o[i] = a[i] + b[i]; return;                      \
      case FlatOp::sub: for (int64_t i = 0; i < n; ++i) o[i] = a[i] - b[i]; return;                      \
      case FlatOp::mul: for (int64_t i = 0; i < n; ++i) o[i] = a[i] * b[i]; return;                      \
      case FlatOp::div: for (int64_t i = 0; i < n; ++i) o[i] = a[i] / b[i]; return;                      \
    }                                                                                                      \
  }
AMPS_FLAT_LOOPS(avx512, __attribute__((target("avx512f"))))
AMPS_FLAT_LOOPS(avx2, __attribute__((target("avx2"))))
AMPS_FLAT_LOOPS(base, )
#undef AMPS_FLAT_LOOPS

using FlatFn = void (*)(FlatOp, float*, const float*, const float*, int64_t);

FlatFn pick() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return flat_avx512;
  if (__builtin_cpu_supports("avx2")) return flat_avx2;
  return flat_base;
}

}  // namespace

void flat_binary_f32(FlatOp op, float* o, const float* a, const float* b, int64_t n) {
  if (n == 1) {  // tiny tensors: skip the vector loop's prologue
    switch (op) {
      case FlatOp::add: *o = *a + *b; return;
      case FlatOp::sub: *o = *a - *b; return;
      case FlatOp::mul: *o = *a * *b; return;
      case FlatOp::div: *o = *a / *b; return;
    }
  }
  static const FlatFn flat = pick();
  flat(op, o, a, b, n);
}

}  // namespace amps::rt::cpu
