// relu and its gradient on dense bfloat16 arrays in one pass over the raw bits, compiled for the CPU's widest
// instruction set (the generic loops widen every chunk to a float buffer, apply the op and round back, three
// passes where one select suffices).
#pragma once

#include <cstdint>

namespace amps::rt::cpu {

// o[i] = float(x[i]) <= th ? +0 : v[i] for i in [0, n), on bfloat16 bits. A NaN x keeps v[i] (the
// comparison is false), as PyTorch's relu and threshold_backward. relu is v = x, th = 0;
// threshold_backward is v = grad. [o] may equal [v] or [x].
void bf16_zero_where_le(uint16_t* o, const uint16_t* v, const uint16_t* x, float th, int64_t n);

}  // namespace amps::rt::cpu
