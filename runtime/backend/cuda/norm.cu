// Row statistics kernels, one block per row of contiguous elements: layer_norm (mean and biased variance in
// float, double for f64, then the affine) and var/std (two passes in double, as the CPU kernel).
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> __global__ void layer_norm_rows(const T* in, const compute_t<T>* w, const compute_t<T>* b, T* out,
                                                      int64_t n, double eps) {
  using A = compute_t<T>;
  const T* x = in + int64_t(blockIdx.x) * n;
  T* y = out + int64_t(blockIdx.x) * n;
  A s = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += widen(x[i]);
  const A mean = block_all<A, false>(s) / A(n);
  A ss = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A d = widen(x[i]) - mean;
    ss += d * d;
  }
  const A rstd = A(1) / sqrt(block_all<A, false>(ss) / A(n) + A(eps));
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    A v = (widen(x[i]) - mean) * rstd;
    if (w) v *= w[i];
    if (b) v += b[i];
    y[i] = convert<T>(v);
  }
}

template <typename T> __global__ void var_rows(const T* in, T* out, int64_t n, double correction, bool take_sqrt) {
  const T* x = in + int64_t(blockIdx.x) * n;
  double s = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += double(widen(x[i]));
  const double mean = block_all<double, false>(s) / double(n);
  double ss = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const double d = double(widen(x[i])) - mean;
    ss += d * d;
  }
  ss = block_all<double, false>(ss);
  if (threadIdx.x != 0) return;
  const double v = ss / fmax(0.0, double(n) - correction);
  out[blockIdx.x] = convert<T>(take_sqrt ? sqrt(v) : v);
}

}  // namespace

cudaError_t launch_layer_norm(cudaStream_t s, Elem t, const void* in, const void* w, const void* b, void* out,
                              int64_t rows, int64_t n, double eps) {
  if (rows * n == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = compute_t<T>;
    layer_norm_rows<T><<<unsigned(rows), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<const A*>(w),
                                                           static_cast<const A*>(b), static_cast<T*>(out), n, eps);
    return cudaGetLastError();
  });
}

cudaError_t launch_var_rows(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n,
                            double correction, bool take_sqrt) {
  if (rows == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    var_rows<T><<<unsigned(rows), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), n, correction,
                                                    take_sqrt);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
