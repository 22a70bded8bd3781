// Row max/min with the index of the first extreme element (NaN counts as the extreme): one block per row,
// each thread scanning its elements in order, then a shared-memory tree that prefers the earlier index.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename C> __device__ __forceinline__ bool is_nan(C v) { return v != v; }

// Whether (v, i) should replace (bv, bi): a NaN beats a number, an earlier index wins among equals.
template <typename C> __device__ __forceinline__ bool better(C v, int64_t i, C bv, int64_t bi, bool want_max) {
  if (is_nan(bv)) return is_nan(v) && i < bi;
  if (is_nan(v)) return true;
  if (v == bv) return i < bi;
  return want_max ? v > bv : v < bv;
}

template <typename T> __global__ void extreme_rows(const T* in, int64_t n, bool want_max, T* values, int64_t* indices) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  __shared__ C sv[kThreads];
  __shared__ int64_t si[kThreads];
  const T* p = in + int64_t(blockIdx.x) * n;
  C bv = C(0);
  int64_t bi = -1;  // -1: this thread saw nothing
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const C v = C(widen(p[i]));
    if (bi < 0 || better(v, i, bv, bi, want_max)) bv = v, bi = i;
  }
  sv[threadIdx.x] = bv;
  si[threadIdx.x] = bi;
  __syncthreads();
  for (int d = kThreads / 2; d > 0; d /= 2) {
    if (int(threadIdx.x) < d) {
      const int o = threadIdx.x + d;
      if (si[o] >= 0 && (si[threadIdx.x] < 0 || better(sv[o], si[o], sv[threadIdx.x], si[threadIdx.x], want_max))) {
        sv[threadIdx.x] = sv[o];
        si[threadIdx.x] = si[o];
      }
    }
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  if (values) values[blockIdx.x] = p[si[0]];
  if (indices) indices[blockIdx.x] = si[0];
}

}  // namespace

cudaError_t launch_extreme_rows(cudaStream_t s, Elem t, const void* in, int64_t rows, int64_t n, bool want_max,
                                void* values, int64_t* indices) {
  if (rows == 0 || n == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    extreme_rows<T><<<unsigned(rows), kThreads, 0, s>>>(static_cast<const T*>(in), n, want_max, static_cast<T*>(values),
                                                        indices);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
