// Sum kernels for sum/mean, an f32/f64/i64 accumulator: row sums (one block per row piece, warp shuffles) for
// reduced dims innermost, column sums (column tiles over row pieces, then a pass over the pieces) for leading ones.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> using sum_acc_t = std::conditional_t<std::is_integral_v<T>, long long, compute_t<T>>;

// The value written for accumulated sum [s] of an output of type T: integers as they are, floats scaled in double
// and rounded once.
template <typename T, typename A> __device__ __forceinline__ T sum_result(A s, double scale) {
  if constexpr (std::is_integral_v<T>) return T(s);
  else return convert<T>(compute_t<T>(double(s) * scale));
}

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
  else out[row] = sum_result<T>(s, scale);
}

template <typename T> __global__ void sum_partials(const sum_acc_t<T>* part, T* out, int splits, double scale) {
  using A = sum_acc_t<T>;
  A s = A(0);
  for (int j = threadIdx.x; j < splits; j += blockDim.x) s += part[int64_t(blockIdx.x) * splits + j];
  s = block_sum(s);
  if (threadIdx.x != 0) return;
  out[blockIdx.x] = sum_result<T>(s, scale);
}

// Block (x, y) of kColTile x kColRows threads sums columns [kColTile * x, +kColTile) of row-major in[rows, cols] over
// row piece y (of gridDim.y): into out (scaled) when there is one piece, else into part[y * cols + column].
template <typename Tin, typename Tout>
__global__ void sum_col_pieces(const Tin* in, Tout* out, sum_acc_t<Tout>* part, int64_t rows, int64_t cols,
                               double scale) {
  using A = sum_acc_t<Tout>;
  __shared__ A tile[kColRows][kColTile + 1];
  const int64_t col = int64_t(blockIdx.x) * kColTile + threadIdx.x;
  const int64_t chunk = (rows + gridDim.y - 1) / gridDim.y, lo = blockIdx.y * chunk, hi = min(rows, lo + chunk);
  A s = A(0);
  if (col < cols)
#pragma unroll 4
    for (int64_t r = lo + threadIdx.y; r < hi; r += kColRows) s += A(widen(in[r * cols + col]));
  tile[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y != 0 || col >= cols) return;
  for (int k = 1; k < kColRows; ++k) s += tile[k][threadIdx.x];
  if (gridDim.y == 1) out[col] = sum_result<Tout>(s, scale);
  else part[blockIdx.y * cols + col] = s;
}

// Column c's [pieces] partials summed in order.
template <typename Tout>
__global__ void sum_col_partials(const sum_acc_t<Tout>* part, Tout* out, int pieces, int64_t cols, double scale) {
  using A = sum_acc_t<Tout>;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < cols; c += int64_t(gridDim.x) * blockDim.x) {
    A s = A(0);
    for (int p = 0; p < pieces; ++p) s += part[p * cols + c];
    out[c] = sum_result<Tout>(s, scale);
  }
}

template <typename Tin, typename Tout>
cudaError_t run_sum_cols(cudaStream_t s, const void* in, void* out, int64_t rows, int64_t cols, double scale,
                         void* workspace, int pieces) {
  auto* part = static_cast<sum_acc_t<Tout>*>(workspace);
  const dim3 grid(unsigned((cols + kColTile - 1) / kColTile), unsigned(pieces)), block(kColTile, kColRows);
  sum_col_pieces<Tin, Tout><<<grid, block, 0, s>>>(static_cast<const Tin*>(in), static_cast<Tout*>(out), part, rows,
                                                   cols, scale);
  if (pieces > 1)
    sum_col_partials<Tout><<<grid_for(cols), kThreads, 0, s>>>(part, static_cast<Tout*>(out), pieces, cols, scale);
  return cudaGetLastError();
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

// Enough pieces for about kTargetBlocks blocks in all, each piece at least kMinRows rows.
int column_pieces(int64_t rows, int64_t cols) {
  constexpr int64_t kTargetBlocks = 1024, kMinRows = 64;
  const int64_t col_blocks = (cols + kColTile - 1) / kColTile;
  if (rows < 2 * kMinRows || col_blocks >= kTargetBlocks) return 1;
  return int(std::max<int64_t>(1, std::min<int64_t>(kTargetBlocks / col_blocks, rows / kMinRows)));
}

cudaError_t launch_sum_cols(cudaStream_t s, Elem in_t, Elem out_t, const void* in, void* out, int64_t rows,
                            int64_t cols, double scale, void* workspace, int pieces) {
  if (rows * cols == 0) return cudaSuccess;
  if (out_t == Elem::f32 && in_t == Elem::f16)
    return run_sum_cols<__half, float>(s, in, out, rows, cols, scale, workspace, pieces);
  if (out_t == Elem::f32 && in_t == Elem::bf16)
    return run_sum_cols<__nv_bfloat16, float>(s, in, out, rows, cols, scale, workspace, pieces);
  if (in_t != out_t) return cudaErrorInvalidValue;
  switch (in_t) {
    case Elem::f64: return run_sum_cols<double, double>(s, in, out, rows, cols, scale, workspace, pieces);
    case Elem::f32: return run_sum_cols<float, float>(s, in, out, rows, cols, scale, workspace, pieces);
    case Elem::f16: return run_sum_cols<__half, __half>(s, in, out, rows, cols, scale, workspace, pieces);
    case Elem::bf16:
      return run_sum_cols<__nv_bfloat16, __nv_bfloat16>(s, in, out, rows, cols, scale, workspace, pieces);
    case Elem::i64: return run_sum_cols<int64_t, int64_t>(s, in, out, rows, cols, scale, workspace, pieces);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace amps::rt::cuda
