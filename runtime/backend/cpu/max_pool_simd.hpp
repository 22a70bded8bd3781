// Vectorised window argmax for the common max pooling geometry (2x2 windows, stride 2) over float planes.
#pragma once

#include <cstdint>

namespace amps::rt::cpu {

// at[o] for o in [0, n): the flat index into [v] of the max of the 2x2 window whose top-left element is
// v[k0 + 2 * o], its second row [W] elements further on. PyTorch's scan decides (row-major, a larger value
// or a NaN takes over), so ties keep the first maximum and NaN propagates. Needs k0 + 2 * n + W < 2^31.
void argmax_2x2_stride2(const float* v, int64_t W, int64_t k0, int64_t n, int64_t* at);

// The instruction set argmax_2x2_stride2 chose on this CPU: "avx512", "avx2" or "scalar".
const char* max_pool_simd_isa();

}  // namespace amps::rt::cpu
