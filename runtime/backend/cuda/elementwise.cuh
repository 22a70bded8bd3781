// Device loops of the elementwise kernels (cast, unary, binary, ternary, gelu_backward, dropout), one per Path
// (elementwise_path.hpp): packs with vector loads (flat, rows), and the strided walk with 32-bit or 64-bit index
// math. A kernel writes its per-element body once and runs it under each loop, so every path computes the same values.
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
// Elements per pack of a packed kernel whose operands are of types Ts (16 bytes of the widest).
template <typename... Ts> inline constexpr int kPack = pack_elems(max_size<Ts...>());

__host__ __device__ constexpr bool is_packed(Path p) { return p == Path::flat || p == Path::rows; }

// Where a thread's pack lies: the element offset of its first element in each operand, and how many of its
// elements exist (V but in a flat launch's last pack).
template <int N> struct PackAt {
  int32_t off[N];
  uint32_t cnt;
};

// Operand k's elements of the pack [at] into r[0, cnt): one vector load when the pack is whole (slots past cnt
// repeat the first element, so a tail computes only on real values); a broadcast operand's one value in every slot.
template <typename T, int V, int N>
__device__ __forceinline__ void load_pack(const Ops<N>& ops, const Walk& w, const PackAt<N>& at, int k, T (&r)[V]) {
  const Operand& o = ops.o[k];
  if (w.bcast >> k & 1u) {
    const T s = load<T>(o, at.off[k]);
#pragma unroll
    for (int j = 0; j < V; ++j) r[j] = s;
    return;
  }
  const T* p = static_cast<const T*>(o.data) + at.off[k];
  if (at.cnt == uint32_t(V)) {
    const Pack<T, V> q = *reinterpret_cast<const Pack<T, V>*>(p);
#pragma unroll
    for (int j = 0; j < V; ++j) r[j] = q.v[j];
    return;
  }
#pragma unroll
  for (int j = 0; j < V; ++j) r[j] = p[uint32_t(j) < at.cnt ? j : 0];
}

// r[0, cnt) into the pack [at] of the output (operand 0, stride 1 along packs).
template <typename T, int V, int N>
__device__ __forceinline__ void store_pack(const Ops<N>& ops, const PackAt<N>& at, const T (&r)[V]) {
  T* p = static_cast<T*>(ops.o[0].data) + at.off[0];
  if (at.cnt == uint32_t(V)) {
    Pack<T, V> q;
#pragma unroll
    for (int j = 0; j < V; ++j) q.v[j] = r[j];
    *reinterpret_cast<Pack<T, V>*>(p) = q;
    return;
  }
#pragma unroll
  for (int j = 0; j < V; ++j)
    if (uint32_t(j) < at.cnt) p[j] = r[j];
}

// Calls f(at) for each pack of V elements this thread owns (grid-stride) of a flat or rows launch (numel < 2^31; no
// 32-bit overflow: the grid step is at most 65536 * 256 * 16 = 2^28). Flat: offsets i * stride (0 or 1); rows: one
// offsets32 walk per pack (packs never cross a row: its size is a multiple of V).
template <Path P, int V, int N, typename F>
__device__ __forceinline__ void for_each_pack(const Shape& sh, const Walk& w, const Ops<N>& ops, F&& f) {
  const uint32_t n = uint32_t(sh.numel), step = gridDim.x * blockDim.x * uint32_t(V);
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) * uint32_t(V); i < n; i += step) {
    PackAt<N> at;
    at.cnt = n - i < uint32_t(V) ? n - i : uint32_t(V);
    if constexpr (P == Path::flat) {
#pragma unroll
      for (int k = 0; k < N; ++k) at.off[k] = int32_t(i) * int32_t(ops.o[k].strides[0]);
    } else {
      offsets32(sh, w, ops.o, i, at.off);
    }
    f(at);
  }
}

// Calls f(off) for each element this thread owns of a strided launch (grid-stride), off[k] its element offset in
// operand k: 32-bit index math when [k32] (Path::strided32), else 64-bit (offsets(), any launch).
template <bool k32, int N, typename F>
__device__ __forceinline__ void for_each_strided(const Shape& sh, const Walk& w, const Ops<N>& ops, F&& f) {
  if constexpr (k32) {
    const uint32_t n = uint32_t(sh.numel), step = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
      int32_t off[N];
      offsets32(sh, w, ops.o, i, off);
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

// Blocks of a launch on [path] over [sh]: packs of [pack] elements on the packed paths.
inline unsigned path_grid(Path path, const Shape& sh, int pack) {
  return grid_for(is_packed(path) ? (sh.numel + pack - 1) / pack : sh.numel);
}

template <Path P> using PathTag = std::integral_constant<Path, P>;

// Launches pick(PathTag<path>{}), a kernel taking (Shape, Walk, Ops<N>, args...), over [sh] on [s].
template <typename Pick, int N, typename... A>
cudaError_t launch_path(cudaStream_t s, Path path, int pack, const Shape& sh, Pick pick, const Ops<N>& ops,
                        const A&... args) {
  const Walk w = make_walk(path, sh, ops.o);
  const unsigned g = path_grid(path, sh, pack);
  switch (path) {
    case Path::flat: pick(PathTag<Path::flat>{})<<<g, kThreads, 0, s>>>(sh, w, ops, args...); break;
    case Path::rows: pick(PathTag<Path::rows>{})<<<g, kThreads, 0, s>>>(sh, w, ops, args...); break;
    case Path::strided32: pick(PathTag<Path::strided32>{})<<<g, kThreads, 0, s>>>(sh, w, ops, args...); break;
    case Path::strided64: pick(PathTag<Path::strided64>{})<<<g, kThreads, 0, s>>>(sh, w, ops, args...); break;
  }
  return cudaGetLastError();
}

}  // namespace amps::rt::cuda
