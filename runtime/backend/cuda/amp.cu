// GradScaler kernels: the multi-tensor non-finite check + unscale (one launch over a tensor list) and the
// scale update, both reading and writing the scale, tracker and found_inf on the device only.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

// As the CPU kernel: v * inv in compute_t<T> (double for float64), rounded once; inv == 1 only
// reads (the GradScaler's check for amp-scaling optimizers).
template <typename T> __global__ void unscale_kernel(TensorList l, float* found_inf, const float* inv_scale) {
  using C = compute_t<T>;
  const int k = block_owner(l, blockIdx.x);
  const int64_t lo = (int64_t(blockIdx.x) - l.first_block[k]) * kUnscaleChunk;
  const int64_t hi = min(l.numel[k], lo + kUnscaleChunk);
  T* p = static_cast<T*>(l.data[k]);
  const float inv = *inv_scale;
  bool bad = false;
  for (int64_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
    const C v = widen(p[i]);
    bad |= !isfinite(v);
    if (inv != 1.0f) p[i] = convert<T>(C(v * inv));
  }
  if (bad) *found_inf = 1.0f;  // every writer stores the same value
}

__global__ void update_scale_kernel(float* scale, int32_t* tracker, const float* found_inf, double growth,
                                    double backoff, int64_t interval) {
  if (*found_inf != 0.0f) {
    *scale = float(double(*scale) * backoff);
    *tracker = 0;
    return;
  }
  const int64_t successful = int64_t(*tracker) + 1;
  if (successful == interval) {
    const float grown = float(double(*scale) * growth);
    if (isfinite(grown)) *scale = grown;
    *tracker = 0;
  } else {
    *tracker = int32_t(successful);
  }
}

}  // namespace

cudaError_t launch_unscale(cudaStream_t s, Elem t, const TensorList& list, float* found_inf, const float* inv_scale) {
  const int64_t blocks = list.first_block[list.count];
  if (list.count == 0 || blocks == 0) return cudaSuccess;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    unscale_kernel<T><<<unsigned(blocks), kThreads, 0, s>>>(list, found_inf, inv_scale);
    return cudaGetLastError();
  };
  return with_float_elem(t, run);
}

cudaError_t launch_update_scale(cudaStream_t s, float* scale, int32_t* growth_tracker, const float* found_inf,
                                double growth_factor, double backoff_factor, int64_t growth_interval) {
  update_scale_kernel<<<1, 1, 0, s>>>(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval);
  return cudaGetLastError();
}

}  // namespace amps::rt::cuda
