// Row-sum kernels for sum/mean: one block per row piece, warp shuffles, an f32/f64/i64 accumulator.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> using sum_acc_t = std::conditional_t<std::is_integral_v<T>, long long, compute_t<T>>;

// The sum of [v] over the block (valid in thread 0).
template <typename A> __device__ A block_sum(A v) {
  __shared__ A warp_sums[kThreads / 32];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : A(0);
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  }
  return v;
}

// Block b sums piece b % splits of row b / splits: into out (scaled) when splits is 1, else into part[b].
template <typename T> __global__ void sum_pieces(const T* in, T* out, sum_acc_t<T>* part, int64_t cols,
                                                 int splits, double scale) {
  using A = sum_acc_t<T>;
  const int64_t row = blockIdx.x / splits, piece = blockIdx.x % splits;
  const int64_t chunk = (cols + splits - 1) / splits;
  const int64_t lo = piece * chunk, hi = min(cols, lo + chunk);
  const T* p = in + row * cols;
  A s = A(0);
  for (int64_t j = lo + threadIdx.x; j < hi; j += blockDim.x) s += A(widen(p[j]));
  s = block_sum(s);
  if (threadIdx.x != 0) return;
  if (splits > 1) part[blockIdx.x] = s;
  else if constexpr (std::is_integral_v<T>) out[row] = T(s);
  else out[row] = convert<T>(compute_t<T>(double(s) * scale));
}

template <typename T> __global__ void sum_partials(const sum_acc_t<T>* part, T* out, int splits, double scale) {
  using A = sum_acc_t<T>;
  A s = A(0);
  for (int j = threadIdx.x; j < splits; j += blockDim.x) s += part[int64_t(blockIdx.x) * splits + j];
  s = block_sum(s);
  if (threadIdx.x != 0) return;
  if constexpr (std::is_integral_v<T>) out[blockIdx.x] = T(s);
  else out[blockIdx.x] = convert<T>(compute_t<T>(double(s) * scale));
}

}  // namespace

int sum_row_splits(int64_t rows, int64_t cols) {
  constexpr int64_t kTargetBlocks = 1024, kMinPiece = 4096;
  if (rows <= 0 || rows >= kTargetBlocks || cols < 2 * kMinPiece) return 1;
  int64_t s = std::min<int64_t>(kTargetBlocks / rows, cols / kMinPiece);
  return int(std::max<int64_t>(1, std::min<int64_t>(s, 1024)));
}

cudaError_t launch_sum_rows(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t cols,
                            double scale, void* workspace, int splits) {
  if (rows == 0) return cudaSuccess;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = sum_acc_t<T>;
    A* part = static_cast<A*>(workspace);
    sum_pieces<T><<<unsigned(rows * splits), kThreads, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), part,
                                                                cols, splits, scale);
    if (splits > 1) sum_partials<T><<<unsigned(rows), kThreads, 0, s>>>(part, static_cast<T*>(out), splits, scale);
    return cudaGetLastError();
  };
  switch (t) {
    case Elem::f64: return run(Tag<double>{});
    case Elem::f32: return run(Tag<float>{});
    case Elem::f16: return run(Tag<__half>{});
    case Elem::bf16: return run(Tag<__nv_bfloat16>{});
    case Elem::i64: return run(Tag<int64_t>{});
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace amps::rt::cuda
