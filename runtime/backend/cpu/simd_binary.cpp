// Dense float32 binary loops, compiled for the CPU's widest instruction set (vectorized()).
#include "runtime/backend/cpu/simd_binary.hpp"

#include "runtime/backend/cpu/simd.hpp"

namespace amps::rt::cpu {
namespace {

void flat_loop(FlatOp op, float* o, const float* a, const float* b, int64_t n) {
  switch (op) {
    case FlatOp::add: for (int64_t i = 0; i < n; ++i) o[i] = a[i] + b[i]; return;
    case FlatOp::sub: for (int64_t i = 0; i < n; ++i) o[i] = a[i] - b[i]; return;
    case FlatOp::mul: for (int64_t i = 0; i < n; ++i) o[i] = a[i] * b[i]; return;
    case FlatOp::div: for (int64_t i = 0; i < n; ++i) o[i] = a[i] / b[i]; return;
  }
}

}  // namespace

void flat_binary_f32(FlatOp op, float* o, const float* a, const float* b, int64_t n) {
  if (n == 1) return flat_loop(op, o, a, b, n);  // tiny tensors: skip the vector loop's prologue
  vectorized([&] { flat_loop(op, o, a, b, n); });
}

}  // namespace amps::rt::cpu
