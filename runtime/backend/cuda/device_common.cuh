// Device-side helpers shared by the kernel files: element types, conversions, operand offsets, launch size.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "runtime/backend/cuda/launch.hpp"

namespace amps::rt::cuda {

// Half types compute in float (as on the CPU backend); the others in their own type.
template <typename T> struct Compute { using type = T; };
template <> struct Compute<__half> { using type = float; };
template <> struct Compute<__nv_bfloat16> { using type = float; };
template <typename T> using compute_t = typename Compute<T>::type;

template <typename T> __device__ __forceinline__ compute_t<T> widen(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(v);
  else return v;
}

// Converts with one rounding step (round to nearest even into half types; C++ rules otherwise). A float goes into
// uint8/int8/int16 through int64, as PyTorch's static_cast_with_inter_type: C truncation, then the low bits (-1.5
// into uint8 is 255, 300.0 is 44) instead of the hardware's saturating conversion.
template <typename To, typename From> __device__ __forceinline__ To convert(From v) {
  auto w = widen(v);
  using W = decltype(w);
  if constexpr (std::is_same_v<To, From>) return v;
  else if constexpr (std::is_same_v<To, bool>) return w != W(0);
  else if constexpr (std::is_same_v<To, __half>) {
    if constexpr (std::is_same_v<W, float>) return __float2half_rn(w);
    else return __double2half(double(w));
  } else if constexpr (std::is_same_v<To, __nv_bfloat16>) {
    if constexpr (std::is_same_v<W, float>) return __float2bfloat16_rn(w);
    else return __double2bfloat16(double(w));
  } else if constexpr (sizeof(To) < 4 && std::is_floating_point_v<W>) {
    return static_cast<To>(static_cast<long long>(w));
  } else {
    return static_cast<To>(w);
  }
}

// N operands passed by value, so that after unrolling every stride is read straight from the kernel's
// parameters (no local-memory copy).
template <int N> struct Ops {
  Operand o[N];
};

// Element offsets of linear index [i] in each operand; one merged dim (or none) is the fast path.
template <int N> __device__ __forceinline__ void offsets(const Shape& sh, const Ops<N>& ops, int64_t i, int64_t (&off)[N]) {
  if (sh.ndim <= 1) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] = i * ops.o[k].strides[0];
    return;
  }
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
#pragma unroll
  for (int d = kMaxDims - 1; d >= 0; --d) {
    if (d >= sh.ndim) continue;
    const int64_t c = i % sh.sizes[d];
    i /= sh.sizes[d];
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += c * ops.o[k].strides[d];
  }
}

// Reads element [off] of operand [o] (its inline scalar when it has no data).
template <typename T> __device__ __forceinline__ T load(const Operand& o, int64_t off) {
  return o.data ? static_cast<const T*>(o.data)[off] : *reinterpret_cast<const T*>(o.inline_value);
}

// The tensor of a multi-tensor list [l] (TensorList, FusedList) owning grid block [b]: the last k with
// l.first_block[k] <= b (a binary search over the list).
template <typename List> __device__ __forceinline__ int block_owner(const List& l, int64_t b) {
  int lo = 0, hi = l.count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (l.first_block[mid] <= b) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

inline constexpr int kThreads = 256;
// A grid-stride launch size for [n] elements.
inline unsigned grid_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return unsigned(b < 65536 ? (b > 0 ? b : 1) : 65536);
}

// Column reductions of a row-major [rows, cols] block: a block of kColTile x kColRows threads takes kColTile adjacent
// columns (a warp reads one row's kColTile consecutive elements) of one piece of the rows (column_pieces()).
inline constexpr int kColTile = 32, kColRows = 8;

// The block-wide max (kMax) or sum of [v], returned to every thread; blocks of kThreads threads.
template <typename A, bool kMax> __device__ A block_all(A v) {
  __shared__ A part[kThreads / 32];
  __shared__ A result;
  for (int d = 16; d > 0; d /= 2) {
    const A o = __shfl_down_sync(0xffffffffu, v, d);
    v = kMax ? (o > v ? o : v) : v + o;
  }
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    A r = part[0];
    for (int w = 1; w < int(blockDim.x / 32); ++w) r = kMax ? (part[w] > r ? part[w] : r) : r + part[w];
    result = r;
  }
  __syncthreads();
  return result;
}

template <typename T> struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with T the device storage type of the floating type [e]; cudaErrorInvalidValue else.
template <typename F> cudaError_t with_float_elem(Elem e, F&& f) {
  switch (e) {
    case Elem::f64: return f(Tag<double>{});
    case Elem::f32: return f(Tag<float>{});
    case Elem::f16: return f(Tag<__half>{});
    case Elem::bf16: return f(Tag<__nv_bfloat16>{});
    default: return cudaErrorInvalidValue;
  }
}

// Calls f(Tag<T>{}) with T the device storage type of [e].
template <typename F> cudaError_t with_elem(Elem e, F&& f) {
  switch (e) {
    case Elem::f64: return f(Tag<double>{});
    case Elem::f32: return f(Tag<float>{});
    case Elem::f16: return f(Tag<__half>{});
    case Elem::bf16: return f(Tag<__nv_bfloat16>{});
    case Elem::i64: return f(Tag<int64_t>{});
    case Elem::i32: return f(Tag<int32_t>{});
    case Elem::b8: return f(Tag<bool>{});
    case Elem::u8: return f(Tag<uint8_t>{});
    case Elem::i8: return f(Tag<int8_t>{});
    case Elem::i16: return f(Tag<int16_t>{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace amps::rt::cuda
