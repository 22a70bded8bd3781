// Softmax and log_softmax kernels: a block per row when the softmax dim is innermost, a thread per column
// of [outer, n, inner] otherwise (adjacent threads read adjacent elements either way).
#include <cfloat>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename A> __device__ __forceinline__ A lowest() { return -A(INFINITY); }

// One block per row of n contiguous elements.
template <typename T> __global__ void softmax_rows(const T* in, T* out, int64_t n, bool take_log) {
  using A = compute_t<T>;
  const T* x = in + int64_t(blockIdx.x) * n;
  T* y = out + int64_t(blockIdx.x) * n;
  A m = lowest<A>();
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) m = max(m, A(widen(x[i])));
  m = block_all<A, true>(m);
  A s = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += exp(A(widen(x[i])) - m);
  s = block_all<A, false>(s);
  const A ls = take_log ? A(log(s)) : A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A v = A(widen(x[i])) - m;
    y[i] = convert<T>(take_log ? A(v - ls) : A(exp(v) / s));
  }
}

// One thread per (outer, inner) column; elements of a column are [inner] apart.
template <typename T> __global__ void softmax_columns(const T* in, T* out, int64_t outer, int64_t n, int64_t inner,
                                                      bool take_log) {
  using A = compute_t<T>;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < outer * inner; c += int64_t(gridDim.x) * blockDim.x) {
    const int64_t base = (c / inner) * n * inner + c % inner;
    A m = lowest<A>(), s = A(0);
    for (int64_t i = 0; i < n; ++i) m = max(m, A(widen(in[base + i * inner])));
    for (int64_t i = 0; i < n; ++i) s += exp(A(widen(in[base + i * inner])) - m);
    const A ls = take_log ? A(log(s)) : A(0);
    for (int64_t i = 0; i < n; ++i) {
      const A v = A(widen(in[base + i * inner])) - m;
      out[base + i * inner] = convert<T>(take_log ? A(v - ls) : A(exp(v) / s));
    }
  }
}

}  // namespace

cudaError_t launch_softmax(cudaStream_t s, Elem t, const void* in, void* out, int64_t outer, int64_t n,
                           int64_t inner, bool take_log) {
  if (outer * n * inner == 0) return cudaSuccess;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(in);
    T* y = static_cast<T*>(out);
    if (inner == 1) softmax_rows<T><<<unsigned(outer), kThreads, 0, s>>>(x, y, n, take_log);
    else softmax_columns<T><<<grid_for(outer * inner), kThreads, 0, s>>>(x, y, outer, n, inner, take_log);
    return cudaGetLastError();
  };
  return with_float_elem(t, run);
}

}  // namespace amps::rt::cuda
