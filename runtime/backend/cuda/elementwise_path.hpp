// Which kernel variant an elementwise launch takes (flat packs, row packs, 32-bit strided, 64-bit strided) and the
// 32-bit index math of the packed and strided32 ones. Plain C++ (no CUDA headers beyond launch.hpp's): the kernel
// files use it on both sides of a launch and tests/unit/cuda/cuda_elementwise_fast_test.cpp checks it on the CPU.
#pragma once

#include <cstdint>

#include "runtime/backend/common/host_device.hpp"
#include "runtime/backend/cuda/launch.hpp"

#ifdef __CUDA_ARCH__  // the device pass only: host compilers warn about the pragma
#define AMPS_UNROLL _Pragma("unroll")
#else
#define AMPS_UNROLL
#endif

namespace amps::rt::cuda {

// The paths, fastest first. Packs are V consecutive elements of the launch (16 bytes of the widest operand type),
// each read and written with one vector access per operand whose pack is contiguous, or as one value per pack for a
// broadcast operand (stride 0 along the pack, or inline); 32-bit index math.
// - flat: one merged dim, the output (operand 0) written with stride 1, every input read with stride 1, stride 0 or
//   inline, every stride-1 address aligned to its pack, numel < 2^31; the last pack may be partial.
// - rows: more dims whose innermost one (size a multiple of V) every operand reads with stride 1 or 0 (or inline),
//   the output with stride 1; each stride-1 operand's address and outer strides keep every pack aligned (a row
//   broadcast such as masked_fill's [T, T] mask, x - mean(x, -1, keepdim=True)); offsets fit in 31 bits. One index
//   walk per pack.
// - strided32: one element per thread, every size and element offset below 2^31: 32-bit index math with a
//   multiply-high divide per inner dim.
// - strided64: the 64-bit div/mod walk (any launch).
enum class Path : uint8_t { flat, rows, strided32, strided64 };

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

// What a launch's kernel needs besides Shape and Ops: the dividers of the rows and strided32 paths, by dim (dim 0
// needs none: it takes what is left), and for the packed paths the operands read as one value per pack (bit k:
// operand k is inline or has stride 0 along the packs).
struct Walk {
  IntDiv d[kMaxDims];
  uint32_t bcast = 0;
};

// Element offsets of linear index [i] in each operand with 32-bit math (fits_32bit held): a multiply-high divide per
// inner dim, the outermost dim takes what is left (i < numel). The kernels pass their parameters' operands.
template <int N>
AMPS_HD void offsets32(const Shape& sh, const Walk& w, const Operand (&ops)[N], uint32_t i, int32_t (&off)[N]) {
  AMPS_UNROLL
  for (int k = 0; k < N; ++k) off[k] = 0;
  AMPS_UNROLL
  for (int d = kMaxDims - 1; d >= 1; --d) {
    if (d >= sh.ndim) continue;
    const uint32_t q = int_div(w.d[d], i), c = i - q * uint32_t(sh.sizes[d]);
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

// Whether the packs of [pack] elements along dim [inner] suit every operand: the output read with stride 1, the
// inputs with stride 1, 0 or inline; each stride-1 operand aligned to its pack ([bytes] * pack) at its address and
// at every outer stride.
template <int N> bool packs_fit(const Shape& sh, const Operand (&ops)[N], const int (&bytes)[N], int pack, int inner) {
  if (!ops[0].data || ops[0].strides[inner] != 1) return false;
  for (int k = 0; k < N; ++k) {
    const Operand& o = ops[k];
    if (!o.data || o.strides[inner] == 0) continue;
    if (o.strides[inner] != 1 || reinterpret_cast<uintptr_t>(o.data) % uintptr_t(bytes[k] * pack) != 0) return false;
    for (int d = 0; d < inner; ++d)
      if (o.strides[d] % pack != 0) return false;
  }
  return true;
}

// The path of a launch whose operand k has elements of bytes[k] bytes, with packs of [pack] elements.
template <int N> Path choose_path(const Shape& sh, const Operand (&ops)[N], const int (&bytes)[N], int pack) {
  if (!fits_32bit(sh, ops)) return Path::strided64;
  if (sh.ndim == 1 && packs_fit(sh, ops, bytes, pack, 0)) return Path::flat;
  if (sh.ndim >= 2 && sh.sizes[sh.ndim - 1] % pack == 0 && packs_fit(sh, ops, bytes, pack, sh.ndim - 1))
    return Path::rows;
  return Path::strided32;
}

// The Walk of a launch on [path]: dividers for rows and strided32, broadcast bits for flat and rows.
template <int N> Walk make_walk(Path path, const Shape& sh, const Operand (&ops)[N]) {
  Walk w;
  if (path == Path::rows || path == Path::strided32)
    for (int d = 1; d < sh.ndim; ++d) w.d[d] = make_int_div(uint32_t(sh.sizes[d]));
  if (path == Path::flat || path == Path::rows)
    for (int k = 0; k < N; ++k)
      if (!ops[k].data || ops[k].strides[sh.ndim - 1] == 0) w.bcast |= 1u << k;
  return w;
}

}  // namespace amps::rt::cuda
