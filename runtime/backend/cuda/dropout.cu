// dropout's scaling kernel: kept elements times 1/(1-p) in double, rounded once; dropped ones 0. The keep-mask
// is drawn on the host (common/nn_args.hpp) and uploaded, so a seed gives the CPU's mask.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> __global__ void dropout_kernel(const T* in, const bool* keep, T* out, int64_t n, double scale) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n; e += int64_t(gridDim.x) * blockDim.x)
    out[e] = keep[e] ? convert<T>(double(widen(in[e])) * scale) : convert<T>(0.0);
}

}  // namespace

cudaError_t launch_dropout(cudaStream_t s, Elem t, const void* in, const bool* keep, void* out, int64_t n,
                           double scale) {
  if (n == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      dropout_kernel<T><<<grid_for(n), kThreads, 0, s>>>(static_cast<const T*>(in), keep, static_cast<T*>(out), n, scale);
      return cudaGetLastError();
    } else {
      return cudaErrorInvalidValue;
    }
  });
}

}  // namespace amps::rt::cuda
