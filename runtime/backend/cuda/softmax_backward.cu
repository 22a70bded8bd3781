// The softmax/log_softmax gradient kernels (_softmax_backward_data, _log_softmax_backward_data): per row of the
// softmax dim, s = sum(g * y) (softmax) or sum(g) (log_softmax), then y * (g - s) or g - exp(y) * s, in float
// (double for f64). The same three layouts as the forward (softmax.cu): a warp per short innermost row (grad and
// output held in registers, read once), a block per long innermost row (16-byte loads when aligned), a thread per
// column otherwise. The warp kernel also writes float32 operands' gradient as a half type (softmax(x,
// dtype=float32) of a half x).
#include "runtime/backend/cuda/device_common.cuh"
#include "runtime/backend/cuda/warp_rows.cuh"

namespace amps::rt::cuda {
namespace {

template <typename A> __device__ __forceinline__ A row_term(A g, A y, bool log) { return log ? g : g * y; }
template <typename A> __device__ __forceinline__ A grad_of(A g, A y, A s, bool log) {
  return log ? A(g - A(exp(y)) * s) : A(y * A(g - s));
}

// A warp per row of n <= 32 * kPer contiguous elements, kRowWarps rows per block; out of type U (T, or a half type
// for a float32 T).
template <typename T, typename U, int kPer, int kVec>
__global__ void softmax_grad_warp_rows(const T* grad, const T* y, U* out, int64_t rows, int n, bool log) {
  using A = compute_t<T>;
  const int64_t row = int64_t(blockIdx.x) * kRowWarps + threadIdx.x / 32;
  if (row >= rows) return;  // the whole warp (rows are warp-uniform)
  const int lane = int(threadIdx.x % 32);
  RowSlice<T, kPer, kVec> g, o;
  g.load(grad + row * n, n, lane, A(0));  // padding adds 0 to the sum
  o.load(y + row * n, n, lane, A(0));
  A s = A(0);
#pragma unroll
  for (int k = 0; k < kPer; ++k) s += row_term(g.v[k], o.v[k], log);
  s = warp_sum(s);
#pragma unroll
  for (int k = 0; k < kPer; ++k) g.v[k] = grad_of(g.v[k], o.v[k], s, log);
  g.store(out + row * n, n, lane);
}

// One block per row of n contiguous elements, read in vectors of kVec (n % kVec == 0, 16-byte aligned rows when
// kVec > 1).
template <typename T, int kVec>
__global__ void softmax_grad_rows(const T* grad, const T* y, T* out, int64_t n, bool log) {
  using A = compute_t<T>;
  using V = Pack<T, kVec>;
  const int64_t base = int64_t(blockIdx.x) * n, nv = n / kVec;
  const V* g = reinterpret_cast<const V*>(grad + base);
  const V* o = reinterpret_cast<const V*>(y + base);
  V* gi = reinterpret_cast<V*>(out + base);
  A s = A(0);
  for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
    const V gp = g[i], op = o[i];
#pragma unroll
    for (int e = 0; e < kVec; ++e) s += row_term(A(widen(gp.x[e])), A(widen(op.x[e])), log);
  }
  s = block_all<A, false>(s);
  for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
    const V gp = g[i], op = o[i];
    V q;
#pragma unroll
    for (int e = 0; e < kVec; ++e) q.x[e] = convert<T>(grad_of(A(widen(gp.x[e])), A(widen(op.x[e])), s, log));
    gi[i] = q;
  }
}

// One thread per (outer, inner) column; elements of a column are [inner] apart.
template <typename T> __global__ void softmax_grad_columns(const T* grad, const T* y, T* out, int64_t outer, int64_t n,
                                                           int64_t inner, bool log) {
  using A = compute_t<T>;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < outer * inner; c += int64_t(gridDim.x) * blockDim.x) {
    const int64_t base = (c / inner) * n * inner + c % inner;
    A s = A(0);
    for (int64_t i = 0; i < n; ++i) s += row_term(A(widen(grad[base + i * inner])), A(widen(y[base + i * inner])), log);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = base + i * inner;
      out[at] = convert<T>(grad_of(A(widen(grad[at])), A(widen(y[at])), s, log));
    }
  }
}

template <typename T, typename U>
cudaError_t launch_warp_rows(cudaStream_t s, const T* g, const T* y, U* gi, int64_t rows, int64_t n, bool log) {
  constexpr size_t kBytes = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  return with_row_shape<kBytes>(n, rows_vectorisable<kBytes>(n, {g, y, gi}), [&](auto per, auto vec) {
    softmax_grad_warp_rows<T, U, decltype(per)::value, decltype(vec)::value>
        <<<row_blocks(rows), kRowWarps * 32, 0, s>>>(g, y, gi, rows, int(n), log);
    return cudaGetLastError();
  });
}

}  // namespace

cudaError_t launch_softmax_backward_from_f32(cudaStream_t s, Elem out_t, const float* grad, const float* out,
                                            void* grad_input, int64_t outer, int64_t n, bool log) {
  if (outer * n == 0) return cudaSuccess;
  if (n > kWarpRowMax) return cudaErrorInvalidValue;
  if (out_t == Elem::f16) return launch_warp_rows(s, grad, out, static_cast<__half*>(grad_input), outer, n, log);
  if (out_t == Elem::bf16) return launch_warp_rows(s, grad, out, static_cast<__nv_bfloat16*>(grad_input), outer, n, log);
  return cudaErrorInvalidValue;
}

cudaError_t launch_softmax_backward(cudaStream_t s, Elem t, const void* grad, const void* out, void* grad_input,
                                    int64_t outer, int64_t n, int64_t inner, bool log) {
  if (outer * n * inner == 0) return cudaSuccess;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* g = static_cast<const T*>(grad);
    const T* y = static_cast<const T*>(out);
    T* gi = static_cast<T*>(grad_input);
    if (inner == 1 && n <= kWarpRowMax) return launch_warp_rows(s, g, y, gi, outer, n, log);
    constexpr int kWide = int(16 / sizeof(T));
    if (inner == 1 && rows_vectorisable<sizeof(T)>(n, {grad, out, grad_input}))
      softmax_grad_rows<T, kWide><<<unsigned(outer), kThreads, 0, s>>>(g, y, gi, n, log);
    else if (inner == 1) softmax_grad_rows<T, 1><<<unsigned(outer), kThreads, 0, s>>>(g, y, gi, n, log);
    else softmax_grad_columns<T><<<grid_for(outer * inner), kThreads, 0, s>>>(g, y, gi, outer, n, inner, log);
    return cudaGetLastError();
  };
  return with_float_elem(t, run);
}

}  // namespace amps::rt::cuda
