// Device loops of the elementwise kernels (cast, unary, binary, ternary, gelu_backward), one per Path
// (elementwise_path.hpp): flat packs with vector loads, and the strided walk with 32-bit or 64-bit index math. A
// kernel writes its per-element body once and runs it under each loop, so every path computes the same values.
#pragma once

#include "runtime/backend/cuda/device_common.cuh"
#include "runtime/backend/cuda/elementwise_path.hpp"

namespace amps::rt::cuda {

// V consecutive elements, aligned for one vector access (choose_path checked the addresses).
template <typename T, int V> struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

template <typename... Ts> constexpr int max_size() {
  int m = 1;
  ((m = int(sizeof(Ts)) > m ? int(sizeof(Ts)) : m), ...);
  return m;
}
// Elements per pack of a flat kernel whose operands are of types Ts (16 bytes of the widest).
template <typename... Ts> inline constexpr int kPack = pack_elems(max_size<Ts...>());

// Elements [i, i + cnt) of flat operand [o] into r[0, cnt) (cnt == V: one vector load; slots past cnt repeat
// element i, so a tail computes only on real values); a broadcast (stride 0) or inline operand's value in every slot.
template <typename T, int V> __device__ __forceinline__ void load_pack(const Operand& o, uint32_t i, uint32_t cnt, T (&r)[V]) {
  if (!o.data || o.strides[0] == 0) {
    const T s = load<T>(o, 0);
#pragma unroll
    for (int k = 0; k < V; ++k) r[k] = s;
    return;
  }
  const T* p = static_cast<const T*>(o.data) + i;
  if (cnt == uint32_t(V)) {
    const Pack<T, V> q = *reinterpret_cast<const Pack<T, V>*>(p);
#pragma unroll
    for (int k = 0; k < V; ++k) r[k] = q.v[k];
    return;
  }
#pragma unroll
  for (int k = 0; k < V; ++k) r[k] = p[uint32_t(k) < cnt ? k : 0];
}

// r[0, cnt) into elements [i, i + cnt) of the flat output [o] (stride 1).
template <typename T, int V> __device__ __forceinline__ void store_pack(const Operand& o, uint32_t i, uint32_t cnt, const T (&r)[V]) {
  T* p = static_cast<T*>(o.data) + i;
  if (cnt == uint32_t(V)) {
    Pack<T, V> q;
#pragma unroll
    for (int k = 0; k < V; ++k) q.v[k] = r[k];
    *reinterpret_cast<Pack<T, V>*>(p) = q;
    return;
  }
#pragma unroll
  for (int k = 0; k < V; ++k)
    if (uint32_t(k) < cnt) p[k] = r[k];
}

// Calls f(i, cnt) for each pack this thread owns of a flat launch of [n] < 2^31 elements: elements [i, i + cnt),
// cnt == V but in the last pack. No 32-bit overflow: i < 2^31 and the grid step is at most 65536 * 256 * 16 = 2^28.
template <int V, typename F> __device__ __forceinline__ void for_each_pack(uint32_t n, F&& f) {
  const uint32_t step = gridDim.x * blockDim.x * uint32_t(V);
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) * uint32_t(V); i < n; i += step)
    f(i, n - i < uint32_t(V) ? n - i : uint32_t(V));
}

// Blocks of a flat launch of [n] elements in packs of [v].
inline unsigned flat_grid(int64_t n, int v) { return grid_for((n + v - 1) / v); }

// Calls f(off) for each element this thread owns of a strided launch (grid-stride), off[k] its element offset in
// operand k: 32-bit index math when [k32] (Path::strided32), else 64-bit (offsets(), any launch).
template <bool k32, int N, typename F>
__device__ __forceinline__ void for_each_strided(const Shape& sh, const Divs& dv, const Ops<N>& ops, F&& f) {
  if constexpr (k32) {
    const uint32_t n = uint32_t(sh.numel), step = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
      int32_t off[N];
      offsets32(sh, dv, ops.o, i, off);
      f(off);
    }
  } else {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
      int64_t off[N];
      offsets(sh, ops, i, off);
      f(off);
    }
  }
}

template <Path P> using PathTag = std::integral_constant<Path, P>;

// Launches pick(PathTag<path>{}), a kernel taking (Shape, Divs, args...), over [sh] on [s]: flat grids cover packs of
// [pack] elements, strided32 gets the dividers of [sh].
template <typename Pick, typename... A>
cudaError_t launch_path(cudaStream_t s, Path path, int pack, const Shape& sh, Pick pick, const A&... args) {
  switch (path) {
    case Path::flat: pick(PathTag<Path::flat>{})<<<flat_grid(sh.numel, pack), kThreads, 0, s>>>(sh, Divs{}, args...); break;
    case Path::strided32: pick(PathTag<Path::strided32>{})<<<grid_for(sh.numel), kThreads, 0, s>>>(sh, make_divs(sh), args...); break;
    case Path::strided64: pick(PathTag<Path::strided64>{})<<<grid_for(sh.numel), kThreads, 0, s>>>(sh, Divs{}, args...); break;
  }
  return cudaGetLastError();
}

}  // namespace amps::rt::cuda
