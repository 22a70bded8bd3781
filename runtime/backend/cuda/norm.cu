// Row statistics kernels, one block per row of contiguous elements: layer_norm (mean and biased variance in
// float, double for f64, then the affine) and var/std (two passes in double, as the CPU kernel); batch_norm's
// per-channel statistics (a block per channel), normalisation and running-stat update in double, as the CPU's.
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

// Channel blockIdx.x of x[N, C, S]: mean and biased variance, two passes in double.
template <typename T> __global__ void batch_norm_stats(const T* x, int64_t N, int64_t C, int64_t S, double* mean,
                                                       double* var) {
  const int64_t c = blockIdx.x, per = N * S;
  double s = 0;
  for (int64_t i = threadIdx.x; i < per; i += blockDim.x) s += double(widen(x[(i / S * C + c) * S + i % S]));
  const double m = block_all<double, false>(s) / double(per);
  double ss = 0;
  for (int64_t i = threadIdx.x; i < per; i += blockDim.x) {
    const double d = double(widen(x[(i / S * C + c) * S + i % S])) - m;
    ss += d * d;
  }
  ss = block_all<double, false>(ss);
  if (threadIdx.x != 0) return;
  mean[c] = m;
  var[c] = ss / double(per);
}

// The explicit _rn operations keep the CPU's roundings (no fused multiply-add).
template <typename T>
__global__ void batch_norm_apply(const T* x, const double* mean, const double* var, const double* w, const double* b,
                                 T* out, int64_t n, int64_t C, int64_t S, double eps) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = i / S % C;
    const double inv = 1.0 / sqrt(var[c] + eps);
    double y = __dmul_rn(double(widen(x[i])) - mean[c], inv);
    y = __dadd_rn(__dmul_rn(y, w ? w[c] : 1.0), b ? b[c] : 0.0);
    out[i] = convert<T>(y);
  }
}

template <typename T>
__global__ void running_stat_update(T* running, const double* stat, int64_t C, double momentum, double factor) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < C; c += int64_t(gridDim.x) * blockDim.x) {
    const double r = double(widen(running[c])), v = __dmul_rn(stat[c], factor);
    running[c] = convert<T>(__dadd_rn(__dmul_rn(1.0 - momentum, r), __dmul_rn(momentum, v)));
  }
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

cudaError_t launch_batch_norm_stats(cudaStream_t s, Elem t, const void* x, int64_t N, int64_t C, int64_t S,
                                    double* mean, double* var) {
  if (C == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    batch_norm_stats<T><<<unsigned(C), kThreads, 0, s>>>(static_cast<const T*>(x), N, C, S, mean, var);
    return cudaGetLastError();
  });
}

cudaError_t launch_batch_norm_apply(cudaStream_t s, Elem t, const void* x, const double* mean, const double* var,
                                    const double* w, const double* b, void* out, int64_t N, int64_t C, int64_t S,
                                    double eps) {
  const int64_t n = N * C * S;
  if (n == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    batch_norm_apply<T><<<grid_for(n), kThreads, 0, s>>>(static_cast<const T*>(x), mean, var, w, b,
                                                         static_cast<T*>(out), n, C, S, eps);
    return cudaGetLastError();
  });
}

cudaError_t launch_running_stat_update(cudaStream_t s, Elem t, void* running, const double* stat, int64_t C,
                                       double momentum, double factor) {
  if (C == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    running_stat_update<T><<<grid_for(C), kThreads, 0, s>>>(static_cast<T*>(running), stat, C, momentum, factor);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
