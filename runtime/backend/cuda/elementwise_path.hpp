// Which kernel variant an elementwise launch takes (flat packs, 32-bit strided, 64-bit strided) and the 32-bit
// divider of the strided one. Plain C++ (no CUDA headers beyond launch.hpp's): the kernel files use it on both
// sides of a launch and tests/unit/cuda/cuda_elementwise_fast_test.cpp checks it on the CPU.
#pragma once

#include <cstdint>

#include "runtime/backend/cuda/launch.hpp"

#ifdef __CUDACC__
#define AMPS_HD __host__ __device__ __forceinline__
#else
#define AMPS_HD inline
#endif
#ifdef __CUDA_ARCH__  // the device pass only: host compilers warn about the pragma
#define AMPS_UNROLL _Pragma("unroll")
#else
#define AMPS_UNROLL
#endif

namespace amps::rt::cuda {

// flat: one merged dim, the output (operand 0) written with stride 1, every input read with stride 1, stride 0 or
// inline, every stride-1 operand aligned to its pack (V elements, one vector access) and numel < 2^31: packs of
// V consecutive elements per thread, 32-bit index math. strided32: the strided kernel with 32-bit index math (every
// size and element offset below 2^31). strided64: the strided kernel as written first (any launch).
enum class Path : uint8_t { flat, strided32, strided64 };

inline constexpr int64_t kMax32 = (int64_t(1) << 31) - 1;

// Elements per pack for operands of [max_bytes] bytes at most: 16 bytes of the widest.
constexpr int pack_elems(int max_bytes) { return 16 / max_bytes; }

// Unsigned division by a fixed d in [1, 2^31) of n < 2^31 as a multiply-high, an add and a shift (Granlund and
// Montgomery; the divider PyTorch's OffsetCalculator uses): with s = ceil(log2 d) and
// m = floor(2^32 (2^s - d) / d) + 1 (< 2^32 because 2^s < 2d), n / d = (umulhi(n, m) + n) >> s, and
// umulhi(n, m) + n < 2^32 because umulhi(n, m) <= n.
struct IntDiv {
  uint32_t mul = 1, shift = 0;
};
inline IntDiv make_int_div(uint32_t d) {
  IntDiv r;
  while (r.shift < 32 && (uint64_t(1) << r.shift) < d) ++r.shift;
  r.mul = uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << r.shift) - d)) / d + 1);
  return r;
}
AMPS_HD uint32_t int_div(IntDiv v, uint32_t n) {
#ifdef __CUDA_ARCH__
  const uint32_t hi = __umulhi(n, v.mul);
#else
  const uint32_t hi = uint32_t((uint64_t(n) * v.mul) >> 32);
#endif
  return (hi + n) >> v.shift;
}

// The dividers of a strided32 launch, by dim of its Shape (dim 0 needs none: it takes what is left).
struct Divs {
  IntDiv d[kMaxDims];
};
inline Divs make_divs(const Shape& sh) {
  Divs r;
  for (int d = 1; d < sh.ndim; ++d) r.d[d] = make_int_div(uint32_t(sh.sizes[d]));
  return r;
}

// Element offsets of linear index [i] in each operand with 32-bit math (fits_32bit held): a multiply-high divide per
// inner dim, the outermost dim takes what is left (i < numel). The kernels pass their parameters' operands.
template <int N>
AMPS_HD void offsets32(const Shape& sh, const Divs& dv, const Operand (&ops)[N], uint32_t i, int32_t (&off)[N]) {
  AMPS_UNROLL
  for (int k = 0; k < N; ++k) off[k] = 0;
  AMPS_UNROLL
  for (int d = kMaxDims - 1; d >= 1; --d) {
    if (d >= sh.ndim) continue;
    const uint32_t q = int_div(dv.d[d], i), c = i - q * uint32_t(sh.sizes[d]);
    i = q;
    AMPS_UNROLL
    for (int k = 0; k < N; ++k) off[k] += int32_t(c) * int32_t(ops[k].strides[d]);
  }
  AMPS_UNROLL
  for (int k = 0; k < N; ++k) off[k] += int32_t(i) * int32_t(ops[k].strides[0]);
}

// Whether every element offset of the operands [ops] (those with data) over [sh] fits in 31 bits, and numel too.
template <int N> bool fits_32bit(const Shape& sh, const Operand (&ops)[N]) {
  if (sh.numel > kMax32) return false;
  for (const Operand& o : ops) {
    if (!o.data) continue;
    int64_t reach = 0;  // the largest |offset|: sum of (size - 1) |stride|, each term checked before it is added
    for (int d = 0; d < sh.ndim; ++d) {
      const int64_t s = o.strides[d] < 0 ? -o.strides[d] : o.strides[d];
      if (s > kMax32 || (sh.sizes[d] > 1 && s > (kMax32 - reach) / (sh.sizes[d] - 1))) return false;
      reach += (sh.sizes[d] - 1) * s;
    }
  }
  return true;
}

// The path of a launch whose operand k has elements of bytes[k] bytes, with packs of [pack] elements.
template <int N> Path choose_path(const Shape& sh, const Operand (&ops)[N], const int (&bytes)[N], int pack) {
  bool flat = sh.ndim == 1 && sh.numel <= kMax32 && ops[0].data && ops[0].strides[0] == 1;
  for (int k = 0; flat && k < N; ++k) {
    const Operand& o = ops[k];
    if (!o.data || o.strides[0] == 0) continue;
    flat = o.strides[0] == 1 && reinterpret_cast<uintptr_t>(o.data) % uintptr_t(bytes[k] * pack) == 0;
  }
  if (flat) return Path::flat;
  return fits_32bit(sh, ops) ? Path::strided32 : Path::strided64;
}

}  // namespace amps::rt::cuda
