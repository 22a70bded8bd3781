// Elementwise loop machinery for CPU kernels: broadcast-aware strided iteration over up to 4 operands,
// dim coalescing, OpenMP over large ranges, and chunked typed maps that compute half types in float.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/backend/cpu/simd.hpp"
#include "runtime/error.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::cpu {

// Elementwise work below this many elements runs on the calling thread: starting an OpenMP team costs
// microseconds, which would dominate small ops.
inline constexpr int64_t kParallelGrain = 32768;

// Runs fn(begin, end) over [0, n) split into contiguous ranges, one per [grain] elements and thread at most. One
// range runs on the calling thread without a region: a region of one thread is inactive, so a region opened
// inside it (a reduction splitting its one long row) would be the first active level, and libgomp starts fresh
// threads for such a nested team on every call (a thread creation per sum() of a large tensor, ~3.5 ms).
template <typename F> void parallel_for(int64_t n, int64_t grain, F&& fn) {
  if (n <= 0) return;
  const int64_t nthreads = std::min<int64_t>(omp_get_max_threads(), (n + grain - 1) / std::max<int64_t>(grain, 1));
  if (nthreads <= 1 || omp_in_parallel()) {
    fn(int64_t(0), n);
    return;
  }
#pragma omp parallel num_threads(int(nthreads))
  {
    int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    int64_t chunk = (n + nt - 1) / nt;
    int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) fn(b, e);
  }
}

inline constexpr int kMaxOperands = 4;

// Iteration plan: operand 0 is the output; inputs are broadcast to its shape (stride 0). Dims are
// coalesced where every operand is dense across them, so contiguous tensors become one flat run.
struct LoopPlan {
  int nops = 0;
  Dims shape;                                          // innermost last
  std::vector<std::array<int64_t, kMaxOperands>> strides;  // bytes, per dim per operand
  std::array<char*, kMaxOperands> base{};
  int64_t numel = 1;
};

LoopPlan make_loop_plan(const Tensor& out, std::initializer_list<const Tensor*> inputs);

// Calls fn(char* ptrs[], const int64_t strides[], int64_t n) for each innermost run of [p] that falls
// in the flat element range [begin, end).
template <typename F> void for_each_run_range(const LoopPlan& p, int64_t begin, int64_t end, F& fn) {
  const int nd = int(p.shape.size());
  std::array<int64_t, kMaxOperands> inner{};
  if (nd > 0) inner = p.strides[size_t(nd - 1)];
  if (nd == 0) {
    std::array<char*, kMaxOperands> ptrs = p.base;
    fn(ptrs.data(), inner.data(), int64_t(1));
    return;
  }
  int64_t idx_inline[8];
  std::vector<int64_t> idx_heap(nd > 8 ? size_t(nd) : 0);
  int64_t* idx = nd > 8 ? idx_heap.data() : idx_inline;
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[size_t(d)] = rem % p.shape[size_t(d)];
    rem /= p.shape[size_t(d)];
  }
  while (begin < end) {
    std::array<char*, kMaxOperands> ptrs = p.base;
    for (int d = 0; d < nd; ++d)
      for (int k = 0; k < p.nops; ++k) ptrs[size_t(k)] += idx[size_t(d)] * p.strides[size_t(d)][size_t(k)];
    int64_t n = std::min(p.shape[size_t(nd - 1)] - idx[size_t(nd - 1)], end - begin);
    fn(ptrs.data(), inner.data(), n);
    begin += n;
    idx[size_t(nd - 1)] += n;
    for (int d = nd - 1; d > 0 && idx[size_t(d)] == p.shape[size_t(d)]; --d) {
      idx[size_t(d)] = 0;
      ++idx[size_t(d - 1)];
    }
  }
}

// Runs [fn] over every run of [p], in parallel when the plan is large.
template <typename F> void for_each_run(const LoopPlan& p, F&& fn) {
  parallel_for(p.numel, kParallelGrain, [&](int64_t b, int64_t e) { for_each_run_range(p, b, e, fn); });
}

// The common case without a plan: every input is contiguous with [out]'s shape, or one element
// (read with stride 0), and [out] is contiguous: [fn] gets one run per thread over the flat range.
// Returns false when a full plan is needed.
template <typename F> bool for_each_flat_run(const Tensor& out, std::initializer_list<const Tensor*> inputs, F&& fn) {
  if (!out.is_contiguous()) return false;
  std::array<char*, kMaxOperands> base{};
  std::array<int64_t, kMaxOperands> strides{};
  base[0] = static_cast<char*>(out.raw_data());
  strides[0] = int64_t(out.element_size());
  size_t k = 1;
  for (const Tensor* t : inputs) {
    if (t->numel() == 1) strides[k] = 0;
    else if (t->is_contiguous() && t->sizes() == out.sizes()) strides[k] = int64_t(t->element_size());
    else return false;
    base[k++] = static_cast<char*>(t->raw_data());
  }
  parallel_for(out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    std::array<char*, kMaxOperands> ptrs = base;
    for (size_t j = 0; j < k; ++j) ptrs[j] += b * strides[j];
    fn(ptrs.data(), strides.data(), e - b);
  });
  return true;
}

// ---- typed chunk helpers: compute type C (float for half types), storage type T ----

// v as the compute type R of a result. A float goes into uint8/int8/int16 through int64, as PyTorch's
// static_cast_with_inter_type: C truncation, then the low bits (-1.5 into uint8 is 255, 300.0 is 44), where a direct
// conversion of an out-of-range value would be undefined (and vectorised differently from the scalar tail).
template <typename R, typename V> inline R to_result(V v) {
  if constexpr (std::is_integral_v<R> && sizeof(R) < 4 && !std::is_same_v<R, bool> && std::is_floating_point_v<V>)
    return R(int64_t(v));
  else return R(v);
}

inline constexpr int64_t kChunk = 256;

// Loads n elements of T at [p] with byte stride [s] into buf as C; returns a pointer to C values, which
// is [p] itself when no conversion or gather is needed.
template <typename T, typename C> const C* load_chunk(const char* p, int64_t s, int64_t n, C* buf) {
  if constexpr (std::is_same_v<T, C>) {
    if (s == int64_t(sizeof(T))) return reinterpret_cast<const C*>(p);
  }
  if (s == 0) {
    std::fill(buf, buf + n, C(*reinterpret_cast<const T*>(p)));
    return buf;
  }
  if constexpr (std::is_same_v<T, Half> && std::is_same_v<C, float>) {
    if (s == 2) { convert_half_to_float(reinterpret_cast<const Half*>(p), buf, n); return buf; }
  }
  if constexpr (std::is_same_v<T, BFloat16> && std::is_same_v<C, float>) {
    if (s == 2) { convert_bf16_to_float(reinterpret_cast<const BFloat16*>(p), buf, n); return buf; }
  }
  for (int64_t i = 0; i < n; ++i) buf[i] = C(*reinterpret_cast<const T*>(p + i * s));
  return buf;
}

// Stores n C values into T at [p] with byte stride [s].
template <typename T, typename C> void store_chunk(const C* buf, char* p, int64_t s, int64_t n) {
  if constexpr (std::is_same_v<T, Half> && std::is_same_v<C, float>) {
    if (s == 2) { convert_float_to_half(buf, reinterpret_cast<Half*>(p), n); return; }
  }
  if constexpr (std::is_same_v<T, BFloat16> && std::is_same_v<C, float>) {
    if (s == 2) { convert_float_to_bf16(buf, reinterpret_cast<BFloat16*>(p), n); return; }
  }
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p + i * s) = T(buf[i]);
}

// out[i] = op(in0[i], ..., in{N-1}[i]) over one run: inputs of storage type TIn computed in
// compute_t<TIn>, results stored as TOut. The inner loop is over plain arrays so it vectorises.
// Compiled for the CPU's widest instruction set (vectorized()).
template <typename TOut, typename TIn, int N, typename Op>
void map_run(char** ptrs, const int64_t* s, int64_t n, Op& op) {
  using C = compute_t<TIn>;
  using R = compute_t<TOut>;
  vectorized([&] {
    C inbuf[N][kChunk];
    R outbuf[kChunk];
    for (int64_t off = 0; off < n; off += kChunk) {
      const int64_t m = std::min(kChunk, n - off);
      const C* in[N];
      for (int k = 0; k < N; ++k) in[k] = load_chunk<TIn, C>(ptrs[k + 1] + off * s[k + 1], s[k + 1], m, inbuf[k]);
      const bool direct = std::is_same_v<TOut, R> && s[0] == int64_t(sizeof(TOut));
      R* out = direct ? reinterpret_cast<R*>(ptrs[0] + off * s[0]) : outbuf;
      for (int64_t i = 0; i < m; ++i) {
        if constexpr (N == 1) out[i] = to_result<R>(op(in[0][i]));
        else if constexpr (N == 2) out[i] = to_result<R>(op(in[0][i], in[1][i]));
        else out[i] = to_result<R>(op(in[0][i], in[1][i], in[2][i]));
      }
      if (!direct) store_chunk<TOut, R>(outbuf, ptrs[0] + off * s[0], s[0], m);
    }
  });
}

// out = op(a), op(a, b), op(a, b, c) elementwise with inputs broadcast to out's shape. All inputs share
// storage type TIn (callers cast mixed dtypes to the common dtype first); results are stored as TOut.
template <typename TOut, typename TIn, typename Op> void map1(const Tensor& out, const Tensor& a, Op op) {
  auto run = [&](char** ptrs, const int64_t* s, int64_t m) { map_run<TOut, TIn, 1>(ptrs, s, m, op); };
  if (!for_each_flat_run(out, {&a}, run)) for_each_run(make_loop_plan(out, {&a}), run);
}

// out = op(a) a chunk at a time: op(const C* in, R* out, int64_t m) gets up to kChunk values in the compute type
// (a vector-library call per chunk rather than a scalar call per element); loading and storing as map1's.
template <typename TOut, typename TIn, typename Op> void map1_chunked(const Tensor& out, const Tensor& a, Op op) {
  using C = compute_t<TIn>;
  using R = compute_t<TOut>;
  auto run = [&](char** ptrs, const int64_t* s, int64_t n) {
    C inbuf[kChunk];
    R outbuf[kChunk];
    for (int64_t off = 0; off < n; off += kChunk) {
      const int64_t m = std::min(kChunk, n - off);
      const C* in = load_chunk<TIn, C>(ptrs[1] + off * s[1], s[1], m, inbuf);
      const bool direct = std::is_same_v<TOut, R> && s[0] == int64_t(sizeof(TOut));
      R* o = direct ? reinterpret_cast<R*>(ptrs[0] + off * s[0]) : outbuf;
      op(in, o, m);
      if (!direct) store_chunk<TOut, R>(outbuf, ptrs[0] + off * s[0], s[0], m);
    }
  };
  if (!for_each_flat_run(out, {&a}, run)) for_each_run(make_loop_plan(out, {&a}), run);
}

template <typename TOut, typename TIn, typename Op>
void map2(const Tensor& out, const Tensor& a, const Tensor& b, Op op) {
  auto run = [&](char** ptrs, const int64_t* s, int64_t m) { map_run<TOut, TIn, 2>(ptrs, s, m, op); };
  if (!for_each_flat_run(out, {&a, &b}, run)) for_each_run(make_loop_plan(out, {&a, &b}), run);
}

template <typename TOut, typename TIn, typename Op>
void map3(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, Op op) {
  auto run = [&](char** ptrs, const int64_t* s, int64_t m) { map_run<TOut, TIn, 3>(ptrs, s, m, op); };
  if (!for_each_flat_run(out, {&a, &b, &c}, run)) for_each_run(make_loop_plan(out, {&a, &b, &c}), run);
}

// ---- sums in double lanes ----

// Σ f(a[i], b[i]) over [n] values: 16 independent double accumulators the compiler vectorises (no running sum is
// reassociated), added in order at the end, so the result does not depend on the instruction set. Plain locals:
// accumulators captured by a lambda would live in memory.
template <typename T, typename F> double lane_sum_loop(const T* a, const T* b, int64_t n, F f) {
  constexpr int64_t kLanes = 16;
  double lanes[kLanes] = {}, tail = 0;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) lanes[l] += f(double(compute_t<T>(a[i + l])), double(compute_t<T>(b[i + l])));
  for (; i < n; ++i) tail += f(double(compute_t<T>(a[i])), double(compute_t<T>(b[i])));
  for (double v : lanes) tail += v;
  return tail;
}

template <typename T, typename F> double lane_sum(const T* a, const T* b, int64_t n, F f) {
  double s = 0;
  vectorized([&] { s = lane_sum_loop(a, b, n, f); });
  return s;
}

}  // namespace amps::rt::cpu
