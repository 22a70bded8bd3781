// Row scans: cumsum (running sums) and prod (row products), one thread per row of a row-major block, accumulating
// in the CPU kernels' type (float for half types, the element type otherwise).
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> __global__ void row_cumsum_kernel(const T* in, T* out, int64_t rows, int64_t n) {
  using C = compute_t<T>;
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows; r += int64_t(gridDim.x) * blockDim.x) {
    C s = C(0);
    for (int64_t i = 0; i < n; ++i) {
      s = s + widen(in[r * n + i]);
      out[r * n + i] = convert<T>(s);
    }
  }
}

template <typename T> __global__ void row_prod_kernel(const T* in, T* out, int64_t rows, int64_t n) {
  using C = compute_t<T>;
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows; r += int64_t(gridDim.x) * blockDim.x) {
    C p = C(1);
    for (int64_t i = 0; i < n; ++i) p = p * widen(in[r * n + i]);
    out[r] = convert<T>(p);
  }
}

// Calls f(Tag<T>{}) for the numeric element types (integers accumulate as themselves; bool is cast by the caller).
template <typename F> cudaError_t with_numeric(Elem e, F&& f) {
  if (e == Elem::i64) return f(Tag<int64_t>{});
  if (e == Elem::i32) return f(Tag<int32_t>{});
  return with_float_elem(e, f);
}

}  // namespace

cudaError_t launch_row_cumsum(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n) {
  if (rows == 0 || n == 0) return cudaSuccess;
  return with_numeric(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    row_cumsum_kernel<T><<<grid_for(rows), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), rows, n);
    return cudaGetLastError();
  });
}

cudaError_t launch_row_prod(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n) {
  if (rows == 0) return cudaSuccess;
  return with_numeric(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    row_prod_kernel<T><<<grid_for(rows), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), rows, n);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
