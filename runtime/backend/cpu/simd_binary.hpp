// Dense float32 add/sub/mul/div over flat arrays, compiled for the CPU's widest instruction set (simd.hpp).
#pragma once

#include <cstdint>

namespace amps::rt::cpu {

enum class FlatOp : uint8_t { add, sub, mul, div };

// o[i] = a[i] op b[i] for i in [0, n); [o] may equal [a] or [b]. Results are exactly the scalar IEEE
// results (no contraction into FMAs), so they match the generic loops bit for bit.
void flat_binary_f32(FlatOp op, float* o, const float* a, const float* b, int64_t n);

}  // namespace amps::rt::cpu
