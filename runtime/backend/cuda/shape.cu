// The tril/triu kernel: one thread per element of contiguous [mats, rows, cols] blocks, 0 off the kept triangle.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> __global__ void triangle_kernel(const T* in, T* out, int64_t numel, int64_t rows, int64_t cols,
                                                      int64_t k, bool lower) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < numel; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = e % cols, i = (e / cols) % rows;
    const bool keep = lower ? j - i <= k : j - i >= k;  // common::triangle_keeps
    out[e] = keep ? in[e] : convert<T>(0.0f);
  }
}

}  // namespace

cudaError_t launch_triangle(cudaStream_t s, Elem t, const void* in, void* out, int64_t mats, int64_t rows,
                            int64_t cols, int64_t k, bool lower) {
  const int64_t numel = mats * rows * cols;
  if (numel == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    triangle_kernel<T><<<grid_for(numel), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), numel,
                                                           rows, cols, k, lower);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
