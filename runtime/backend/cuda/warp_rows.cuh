// A warp per row for rows of up to kWarpRowMax elements (softmax.cu, softmax_backward.cu): each lane holds its
// share of the row in registers, reductions are warp shuffles (no shared memory, no block barrier), and the row is
// read from memory once. Rows are read in vectors of kVec contiguous elements (16 bytes) when the row starts and
// length allow, else element by element; lane l holds vectors j * 32 + l, so a warp's reads are contiguous.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {

// kWarpRowMax (launch.hpp): longer rows take a block per row.
inline constexpr int kRowWarps = 4;  // rows (warps) per block of the warp-per-row kernels

template <typename T, int N> struct alignas(sizeof(T) * N) Pack {
  T x[N];
};

// kPer values of a row per lane, in kPer / kVec vectors of kVec elements, read from T and stored as T or another
// type U; positions at or past the row's end hold [pad] and are never stored. A vectorised slice (kVec > 1) needs
// n % kVec == 0 and rows starting kVec elements apart from a 16-byte aligned base (rows_vectorisable).
template <typename T, int kPer, int kVec> struct RowSlice {
  using A = compute_t<T>;
  static_assert(kPer % kVec == 0, "a lane holds whole vectors");
  A v[kPer];

  __device__ __forceinline__ void load(const T* row, int n, int lane, A pad) {
#pragma unroll
    for (int j = 0; j < kPer / kVec; ++j) {
      const int i = (j * 32 + lane) * kVec;
      if (i >= n) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) v[j * kVec + e] = pad;
      } else if constexpr (kVec == 1) {
        v[j] = A(widen(row[i]));
      } else {
        const Pack<T, kVec> p = *reinterpret_cast<const Pack<T, kVec>*>(row + i);
#pragma unroll
        for (int e = 0; e < kVec; ++e) v[j * kVec + e] = A(widen(p.x[e]));
      }
    }
  }

  template <typename U> __device__ __forceinline__ void store(U* row, int n, int lane) const {
#pragma unroll
    for (int j = 0; j < kPer / kVec; ++j) {
      const int i = (j * 32 + lane) * kVec;
      if (i >= n) continue;
      if constexpr (kVec == 1) {
        row[i] = convert<U>(v[j]);
      } else {
        Pack<U, kVec> p;
#pragma unroll
        for (int e = 0; e < kVec; ++e) p.x[e] = convert<U>(v[j * kVec + e]);
        *reinterpret_cast<Pack<U, kVec>*>(row + i) = p;
      }
    }
  }
};

// The warp-wide max (the larger of each pair, as block_all) and sum of [v], in every lane.
template <typename A> __device__ __forceinline__ A warp_max(A v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) {
    const A o = __shfl_xor_sync(0xffffffffu, v, d);
    v = o > v ? o : v;
  }
  return v;
}
template <typename A> __device__ __forceinline__ A warp_sum(A v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// Calls f(std::integral_constant<int, kPer>, std::integral_constant<int, kVec>) for a row of [n] elements
// (1 <= n <= kWarpRowMax) of types at most kBytes wide: kPer the smallest power of two with 32 * kPer >= n, kVec
// 16 bytes of the widest type (at most kPer) when [vec], else 1.
template <size_t kBytes, typename F> cudaError_t with_row_shape(int64_t n, bool vec, F&& f) {
  auto go = [&](auto per) {
    constexpr int kPer = decltype(per)::value;
    constexpr int kWide = int(16 / kBytes) < kPer ? int(16 / kBytes) : kPer;
    if (vec) return f(per, std::integral_constant<int, kWide>{});
    return f(per, std::integral_constant<int, 1>{});
  };
  if (n <= 32) return go(std::integral_constant<int, 1>{});
  if (n <= 64) return go(std::integral_constant<int, 2>{});
  if (n <= 128) return go(std::integral_constant<int, 4>{});
  if (n <= 256) return go(std::integral_constant<int, 8>{});
  if (n <= 512) return go(std::integral_constant<int, 16>{});
  return go(std::integral_constant<int, 32>{});
}

// Whether rows of [n] elements at the given bases (types at most kBytes wide) can be read and written as the
// vectors with_row_shape<kBytes> picks: every base 16-byte aligned and n a multiple of 16 / kBytes, so each row
// start and vector is aligned for every type involved.
template <size_t kBytes> bool rows_vectorisable(int64_t n, std::initializer_list<const void*> ptrs) {
  if (n % int64_t(16 / kBytes) != 0) return false;
  for (const void* p : ptrs)
    if (!aligned16(p)) return false;
  return true;
}

// Blocks of kRowWarps warps for [rows] rows.
inline unsigned row_blocks(int64_t rows) { return unsigned((rows + kRowWarps - 1) / kRowWarps); }

}  // namespace amps::rt::cuda
