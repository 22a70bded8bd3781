// Softmax and log_softmax kernels. When the softmax dim is innermost: a warp per row for rows of up to
// kWarpRowMax elements (the row in registers, read once, 16-byte loads when aligned), a block per row for longer
// ones (16-byte loads when aligned); otherwise a thread per column of [outer, n, inner] (adjacent threads read adjacent elements either way).
// All compute max, sum of exp(x - max), then exp(x - max) / sum or x - max - log(sum), in float (double for f64).
// The warp kernel also reads half types into float32 output (softmax(x, dtype=float32) without a cast pass).
#include <cfloat>

#include "runtime/backend/cuda/device_common.cuh"
#include "runtime/backend/cuda/warp_rows.cuh"

namespace amps::rt::cuda {
namespace {

template <typename A> __device__ __forceinline__ A lowest() { return -A(INFINITY); }

// A warp per row of n <= 32 * kPer contiguous elements, kRowWarps rows per block; out of type U (T, or float32 for
// a half T).
template <typename T, typename U, int kPer, int kVec>
__global__ void softmax_warp_rows(const T* in, U* out, int64_t rows, int n, bool take_log) {
  using A = compute_t<T>;
  const int64_t row = int64_t(blockIdx.x) * kRowWarps + threadIdx.x / 32;
  if (row >= rows) return;  // the whole warp: rows are warp-uniform, so the shuffles below see all 32 lanes
  const int lane = int(threadIdx.x % 32);
  RowSlice<T, kPer, kVec> x;
  x.load(in + row * n, n, lane, lowest<A>());
  A m = lowest<A>();
#pragma unroll
  for (int k = 0; k < kPer; ++k) m = max(m, x.v[k]);
  m = warp_max(m);
  A s = A(0);
  if (take_log) {
#pragma unroll
    for (int k = 0; k < kPer; ++k) s += exp(x.v[k] - m);  // padding: exp(-inf) = 0
    const A ls = A(log(warp_sum(s)));
#pragma unroll
    for (int k = 0; k < kPer; ++k) x.v[k] = A(x.v[k] - m) - ls;
  } else {
#pragma unroll
    for (int k = 0; k < kPer; ++k) s += (x.v[k] = exp(x.v[k] - m));
    s = warp_sum(s);
#pragma unroll
    for (int k = 0; k < kPer; ++k) x.v[k] = x.v[k] / s;
  }
  x.store(out + row * n, n, lane);
}

// One block per row of n contiguous elements, read in vectors of kVec (n % kVec == 0, 16-byte aligned rows when
// kVec > 1).
template <typename T, int kVec> __global__ void softmax_rows(const T* in, T* out, int64_t n, bool take_log) {
  using A = compute_t<T>;
  using V = Pack<T, kVec>;
  const V* x = reinterpret_cast<const V*>(in + int64_t(blockIdx.x) * n);
  V* y = reinterpret_cast<V*>(out + int64_t(blockIdx.x) * n);
  const int64_t nv = n / kVec;
  A m = lowest<A>();
  for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
    const V p = x[i];
#pragma unroll
    for (int e = 0; e < kVec; ++e) m = max(m, A(widen(p.x[e])));
  }
  m = block_all<A, true>(m);
  A s = A(0);
  for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
    const V p = x[i];
#pragma unroll
    for (int e = 0; e < kVec; ++e) s += exp(A(widen(p.x[e])) - m);
  }
  s = block_all<A, false>(s);
  const A ls = take_log ? A(log(s)) : A(0);
  for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
    const V p = x[i];
    V q;
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      const A v = A(widen(p.x[e])) - m;
      q.x[e] = convert<T>(take_log ? A(v - ls) : A(exp(v) / s));
    }
    y[i] = q;
  }
}

// One thread per (outer, inner) column; elements of a column are [inner] apart.
template <typename T> __global__ void softmax_columns(const T* in, T* out, int64_t outer, int64_t n, int64_t inner,
                                                      bool take_log) {
  using A = compute_t<T>;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < outer * inner; c += int64_t(gridDim.x) * blockDim.x) {
    const int64_t base = (c / inner) * n * inner + c % inner;
    A m = lowest<A>(), s = A(0);
    for (int64_t i = 0; i < n; ++i) m = max(m, A(widen(in[base + i * inner])));
    for (int64_t i = 0; i < n; ++i) s += exp(A(widen(in[base + i * inner])) - m);
    const A ls = take_log ? A(log(s)) : A(0);
    for (int64_t i = 0; i < n; ++i) {
      const A v = A(widen(in[base + i * inner])) - m;
      out[base + i * inner] = convert<T>(take_log ? A(v - ls) : A(exp(v) / s));
    }
  }
}

template <typename T, typename U>
cudaError_t launch_warp_rows(cudaStream_t s, const T* x, U* y, int64_t rows, int64_t n, bool take_log) {
  constexpr size_t kBytes = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  return with_row_shape<kBytes>(n, rows_vectorisable<kBytes>(n, {x, y}), [&](auto per, auto vec) {
    softmax_warp_rows<T, U, decltype(per)::value, decltype(vec)::value>
        <<<row_blocks(rows), kRowWarps * 32, 0, s>>>(x, y, rows, int(n), take_log);
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_softmax_to_f32(cudaStream_t s, Elem t, const void* in, float* out, int64_t outer, int64_t n,
                                  bool log) {
  if (outer * n == 0) return cudaSuccess;
  if (n > kWarpRowMax) return cudaErrorInvalidValue;
  if (t == Elem::f16) return launch_warp_rows(s, static_cast<const __half*>(in), out, outer, n, log);
  if (t == Elem::bf16) return launch_warp_rows(s, static_cast<const __nv_bfloat16*>(in), out, outer, n, log);
  return cudaErrorInvalidValue;
}

cudaError_t launch_softmax(cudaStream_t s, Elem t, const void* in, void* out, int64_t outer, int64_t n,
                           int64_t inner, bool take_log) {
  if (outer * n * inner == 0) return cudaSuccess;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(in);
    T* y = static_cast<T*>(out);
    if (inner == 1 && n <= kWarpRowMax) return launch_warp_rows(s, x, y, outer, n, take_log);
    constexpr int kWide = int(16 / sizeof(T));
    if (inner == 1 && rows_vectorisable<sizeof(T)>(n, {x, y}))
      softmax_rows<T, kWide><<<unsigned(outer), kThreads, 0, s>>>(x, y, n, take_log);
    else if (inner == 1) softmax_rows<T, 1><<<unsigned(outer), kThreads, 0, s>>>(x, y, n, take_log);
    else softmax_columns<T><<<grid_for(outer * inner), kThreads, 0, s>>>(x, y, outer, n, inner, take_log);
    return cudaGetLastError();
  };
  return with_float_elem(t, run);
}

}  // namespace amps::rt::cuda
