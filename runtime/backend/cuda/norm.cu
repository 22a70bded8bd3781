// Row statistics kernels, one block per row of contiguous elements: layer_norm (mean and biased variance in
// float, double for f64, then the affine) and var/std (two passes in double, as the CPU kernel); batch_norm's
// per-channel statistics (a block per channel), normalisation and running-stat update in double, as the CPU's.
// layer_norm's fused backward: a block per row for the input gradient, column tiles (then a pass over the pieces'
// partials for tall inputs) for the weight and bias gradients, as PyTorch's GammaBetaBackward; float accumulation.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

// The mean and 1 / sqrt(biased variance + eps) of x[0, n) over the block (every thread gets both): two passes in
// float (double for f64), as PyTorch; layer_norm's forward and backward share it, so they see the same statistics.
template <typename T> struct RowStats {
  compute_t<T> mean, rstd;
};
template <typename T> __device__ RowStats<T> row_stats(const T* x, int64_t n, double eps) {
  using A = compute_t<T>;
  A s = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += widen(x[i]);
  const A mean = block_all<A, false>(s) / A(n);
  A ss = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A d = widen(x[i]) - mean;
    ss += d * d;
  }
  return {mean, A(1) / sqrt(block_all<A, false>(ss) / A(n) + A(eps))};
}

template <typename T> __global__ void layer_norm_rows(const T* in, const compute_t<T>* w, const compute_t<T>* b, T* out,
                                                      int64_t n, double eps) {
  using A = compute_t<T>;
  const T* x = in + int64_t(blockIdx.x) * n;
  T* y = out + int64_t(blockIdx.x) * n;
  const RowStats<T> st = row_stats(x, n, eps);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    A v = (widen(x[i]) - st.mean) * st.rstd;
    if (w) v *= w[i];
    if (b) v += b[i];
    y[i] = convert<T>(v);
  }
}

// layer_norm's input gradient for row blockIdx.x with gw = g * w: dx = rstd * (gw - mean(gw) - xhat * mean(gw * xhat)),
// the statistics recomputed as the forward's; they are kept in stats[2 * row] (mean, rstd) when [stats] is set.
template <typename T>
__global__ void layer_norm_grad_rows(const T* grad, const T* in, const compute_t<T>* w, T* dx, compute_t<T>* stats,
                                     int64_t n, double eps) {
  using A = compute_t<T>;
  const int64_t off = int64_t(blockIdx.x) * n;
  const T *x = in + off, *g = grad + off;
  const RowStats<T> st = row_stats(x, n, eps);
  A s1 = A(0), s2 = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A gw = w ? widen(g[i]) * w[i] : widen(g[i]);
    s1 += gw;
    s2 += gw * ((widen(x[i]) - st.mean) * st.rstd);
  }
  const A mean_gw = block_all<A, false>(s1) / A(n), mean_gwx = block_all<A, false>(s2) / A(n);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A gw = w ? widen(g[i]) * w[i] : widen(g[i]);
    const A xhat = (widen(x[i]) - st.mean) * st.rstd;
    dx[off + i] = convert<T>(st.rstd * (gw - mean_gw - xhat * mean_gwx));
  }
  if (stats && threadIdx.x == 0)
    stats[2 * int64_t(blockIdx.x)] = st.mean, stats[2 * int64_t(blockIdx.x) + 1] = st.rstd;
}

// layer_norm's weight and bias gradients, column sums over the rows: block (x, y) of kColTile x kColRows threads sums
// g * xhat (dw) and g (db) of columns [kColTile * x, +kColTile) over the rows of piece y (of gridDim.y pieces), into
// dw/db (rounded) when there is one piece, else into part_w/part_b[y * n + column]. dw/db may be null (not wanted).
template <typename T>
__global__ void layer_norm_grad_cols(const T* g, const T* x, const compute_t<T>* stats, T* dw, T* db,
                                     compute_t<T>* part_w, compute_t<T>* part_b, int64_t rows, int64_t n) {
  using A = compute_t<T>;
  __shared__ A tile_w[kColRows][kColTile + 1], tile_b[kColRows][kColTile + 1];
  const int64_t col = int64_t(blockIdx.x) * kColTile + threadIdx.x;
  const int64_t chunk = (rows + gridDim.y - 1) / gridDim.y, lo = blockIdx.y * chunk, hi = min(rows, lo + chunk);
  A sw = A(0), sb = A(0);
  if (col < n) {
#pragma unroll 4
    for (int64_t r = lo + threadIdx.y; r < hi; r += kColRows) {
      const A gv = widen(g[r * n + col]);
      sb += gv;
      if (dw) sw += gv * ((widen(x[r * n + col]) - stats[2 * r]) * stats[2 * r + 1]);
    }
  }
  tile_w[threadIdx.y][threadIdx.x] = sw, tile_b[threadIdx.y][threadIdx.x] = sb;
  __syncthreads();
  if (threadIdx.y != 0 || col >= n) return;
  for (int k = 1; k < kColRows; ++k) sw += tile_w[k][threadIdx.x], sb += tile_b[k][threadIdx.x];
  if (gridDim.y == 1) {
    if (dw) dw[col] = convert<T>(sw);
    if (db) db[col] = convert<T>(sb);
  } else {
    part_w[blockIdx.y * n + col] = sw, part_b[blockIdx.y * n + col] = sb;
  }
}

// The second pass of layer_norm_grad_cols: column c's [pieces] partials summed in order and rounded once.
template <typename T>
__global__ void layer_norm_grad_finish(const compute_t<T>* part_w, const compute_t<T>* part_b, T* dw, T* db,
                                       int pieces, int64_t n) {
  using A = compute_t<T>;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < n; c += int64_t(gridDim.x) * blockDim.x) {
    A sw = A(0), sb = A(0);
    for (int p = 0; p < pieces; ++p) sw += part_w[p * n + c], sb += part_b[p * n + c];
    if (dw) dw[c] = convert<T>(sw);
    if (db) db[c] = convert<T>(sb);
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

cudaError_t launch_layer_norm_backward(cudaStream_t s, Elem t, const void* g, const void* x, const void* w, void* dx,
                                       void* dw, void* db, void* workspace, int pieces, int64_t rows, int64_t n,
                                       double eps) {
  if (rows * n == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = compute_t<T>;
    const bool cols = dw || db;
    A* stats = cols ? static_cast<A*>(workspace) : nullptr;
    layer_norm_grad_rows<T><<<unsigned(rows), kThreads, 0, s>>>(static_cast<const T*>(g), static_cast<const T*>(x),
                                                                static_cast<const A*>(w), static_cast<T*>(dx), stats,
                                                                n, eps);
    if (!cols) return cudaGetLastError();
    A *part_w = stats + 2 * rows, *part_b = part_w + int64_t(pieces) * n;
    const dim3 grid(unsigned((n + kColTile - 1) / kColTile), unsigned(pieces)), block(kColTile, kColRows);
    layer_norm_grad_cols<T><<<grid, block, 0, s>>>(static_cast<const T*>(g), static_cast<const T*>(x), stats,
                                                   static_cast<T*>(dw), static_cast<T*>(db), part_w, part_b, rows, n);
    if (pieces > 1)
      layer_norm_grad_finish<T><<<grid_for(n), kThreads, 0, s>>>(part_w, part_b, static_cast<T*>(dw),
                                                                 static_cast<T*>(db), pieces, n);
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
