// Row scans and products: cumsum and cumprod (running sums and products, one thread per row) and prod (one block per row, coalesced reads
// and a block-wide product), accumulating in the CPU kernels' type (float for half types, the element type
// otherwise). The block product multiplies in another order than the CPU's loop: equal for integers (modular),
// within rounding for floats.
#include <algorithm>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

// Running sums (kProduct false) or products along each row, one thread per row.
template <bool kProduct, typename T> __global__ void row_scan_kernel(const T* in, T* out, int64_t rows, int64_t n) {
  using C = compute_t<T>;
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows; r += int64_t(gridDim.x) * blockDim.x) {
    C s = kProduct ? C(1) : C(0);
    for (int64_t i = 0; i < n; ++i) {
      s = kProduct ? C(s * widen(in[r * n + i])) : C(s + widen(in[r * n + i]));
      out[r * n + i] = convert<T>(s);
    }
  }
}

// The product of [v] over the block (valid in thread 0).
template <typename C> __device__ C block_prod(C v) {
  __shared__ C warp_prods[kThreads / 32];
  for (int d = 16; d > 0; d /= 2) v = v * __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) warp_prods[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < kThreads / 32 ? warp_prods[threadIdx.x] : C(1);
    for (int d = 16; d > 0; d /= 2) v = v * __shfl_down_sync(0xffffffffu, v, d);
  }
  return v;
}

// Block b (striding by the grid over rows) multiplies row b; every thread of the block takes the same rows, so
// the block-wide syncs stay uniform.
template <typename T> __global__ void row_prod_kernel(const T* in, T* out, int64_t rows, int64_t n) {
  using C = compute_t<T>;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    C p = C(1);
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) p = p * widen(in[r * n + i]);
    p = block_prod(p);
    if (threadIdx.x == 0) out[r] = convert<T>(p);
    __syncthreads();  // block_prod's shared memory is reused by the next row
  }
}

// Calls f(Tag<T>{}) for the numeric element types (integers accumulate as themselves; bool is cast by the caller).
template <typename F> cudaError_t with_numeric(Elem e, F&& f) {
  if (e == Elem::i64) return f(Tag<int64_t>{});
  if (e == Elem::i32) return f(Tag<int32_t>{});
  return with_float_elem(e, f);
}

template <bool kProduct> cudaError_t launch_row_scan(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows,
                                                     int64_t n) {
  if (rows == 0 || n == 0) return cudaSuccess;
  return with_numeric(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    row_scan_kernel<kProduct, T>
        <<<grid_for(rows), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), rows, n);
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_row_cumsum(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n) {
  return launch_row_scan<false>(s, t, in, out, rows, n);
}

cudaError_t launch_row_cumprod(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n) {
  return launch_row_scan<true>(s, t, in, out, rows, n);
}

cudaError_t launch_row_prod(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n) {
  if (rows == 0) return cudaSuccess;
  return with_numeric(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    row_prod_kernel<T><<<unsigned(std::min<int64_t>(rows, 65535)), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), rows, n);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
