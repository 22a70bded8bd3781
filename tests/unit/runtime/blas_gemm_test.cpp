// float64 matrix products on OpenBLAS (runtime/backend/cpu/blas_gemm.cpp) against a plain double loop: strided,
// transposed, expanded and sliced operands and destinations, batches, the matrix-vector paths, beta == 0 over NaN,
// and BLAS's thread count following set_num_threads.
#include <gtest/gtest.h>

#include <omp.h>
#include <time.h>

#include <cmath>

#include "runtime/backend/cpu/blas_gemm.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/threads.hpp"
#include "runtime/views.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::wavy;

constexpr DType f64 = DType::float64;

Tensor filled(const Dims& sizes, double phase) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return make(wavy(n, phase), sizes, f64);
}

// alpha * a @ b + beta * c over equal batch dims (a [..., M, K], b [..., K, N], c [..., M, N] or undefined).
std::vector<double> ref(const Tensor& a, const Tensor& b, double alpha = 1, double beta = 0, const Tensor& c = {}) {
  const int64_t M = a.size(-2), K = a.size(-1), N = b.size(-1), B = a.numel() / std::max<int64_t>(M * K, 1);
  const std::vector<double> va = a.to_doubles(), vb = b.to_doubles(), vc = c.defined() ? c.to_doubles() : std::vector<double>();
  std::vector<double> out(size_t(B * M * N));
  for (int64_t q = 0; q < B; ++q)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += va[size_t((q * M + i) * K + k)] * vb[size_t((q * K + k) * N + j)];
        const size_t o = size_t((q * M + i) * N + j);
        out[o] = alpha * s + (beta == 0 ? 0.0 : beta * vc[o]);
      }
  return out;
}

constexpr double kTol = 1e-12;

TEST(BlasGemm, PlainAndTransposedOperands) {
  Tensor a = filled({97, 51}, 0.1), w = filled({51, 204}, 0.2);
  const std::vector<double> want = ref(a, w);
  EXPECT_TRUE(all_close(mm(a, w), want, kTol, kTol));
  Tensor at = native::t(native::t(a).contiguous()), wt = native::t(native::t(w).contiguous());  // column-major views
  EXPECT_TRUE(all_close(mm(at, w), want, kTol, kTol));
  EXPECT_TRUE(all_close(mm(a, wt), want, kTol, kTol));
  EXPECT_TRUE(all_close(mm(at, wt), want, kTol, kTol));
}

TEST(BlasGemm, SlicedExpandedAndScatteredOperands) {
  Tensor big = filled({40, 60}, 0.3);
  Tensor a = native::slice(native::slice(big, 0, 3, 23, 1), 1, 5, 35, 1);  // [20, 30], row stride 60
  Tensor w = native::slice(filled({30, 50}, 0.4), 1, 0, 50, 2);          // [30, 25], column stride 2
  EXPECT_TRUE(all_close(mm(a, w), ref(a, w), kTol, kTol));
  Tensor row = native::expand(filled({1, 30}, 0.5), {20, 30});  // stride-0 rows
  EXPECT_TRUE(all_close(mm(row, w), ref(row, w), kTol, kTol));
  Tensor col = native::expand(filled({30, 1}, 0.6), {30, 25});  // stride-0 columns
  EXPECT_TRUE(all_close(mm(a, col), ref(a, col), kTol, kTol));
  Tensor scattered = native::as_strided(big, {20, 30}, {120, 2}, 1);  // no unit stride: copied dense
  EXPECT_TRUE(all_close(mm(scattered, w), ref(scattered, w), kTol, kTol));
}

TEST(BlasGemm, BatchesBroadcastAndPermuted) {
  Tensor a = filled({3, 1, 9, 7}, 0.7), w = filled({4, 7, 5}, 0.8);
  Tensor got = matmul(a, w);
  ASSERT_EQ(got.sizes(), (Dims{3, 4, 9, 5}));
  EXPECT_TRUE(all_close(got, ref(native::expand(a, {3, 4, 9, 7}), native::expand(w, {3, 4, 7, 5})), kTol, kTol));
  Tensor p = native::permute(filled({9, 6, 7}, 0.9), {1, 0, 2});       // [6, 9, 7], batch stride 7
  Tensor q = native::transpose(filled({6, 5, 7}, 1.0), 1, 2);          // [6, 7, 5], column-major matrices
  EXPECT_TRUE(all_close(bmm(p, q), ref(p, q), kTol, kTol));
  Tensor many_a = filled({300, 5, 7}, 1.1), many_w = filled({300, 7, 3}, 1.2);  // small: spread over threads
  EXPECT_TRUE(all_close(bmm(many_a, many_w), ref(many_a, many_w), kTol, kTol));
  Tensor big_a = filled({2, 80, 90}, 1.3), big_w = filled({2, 90, 70}, 1.4);  // big: one after another, threaded
  EXPECT_TRUE(all_close(bmm(big_a, big_w), ref(big_a, big_w), kTol, kTol));
}

TEST(BlasGemm, MatrixVectorPaths) {
  Tensor m = filled({33, 17}, 1.5), v = native::slice(filled({34}, 1.6), 0, 0, 34, 2);  // v stride 2
  EXPECT_TRUE(all_close(call_op(OpId::mv, m, v), ref(m, native::unsqueeze(v, 1)), kTol, kTol));
  Tensor mt = native::t(filled({17, 33}, 1.7));
  Tensor u = filled({17}, 1.8);
  EXPECT_TRUE(all_close(call_op(OpId::mv, mt, u), ref(mt, native::unsqueeze(u, 1)), kTol, kTol));
  Tensor r = filled({33}, 1.9);
  EXPECT_TRUE(all_close(matmul(r, m), ref(native::unsqueeze(r, 0), m), kTol, kTol));  // [1, K] @ [K, N]
  EXPECT_TRUE(all_close(call_op(OpId::dot, r, native::select(m, 1, 3)), ref(native::unsqueeze(r, 0), native::slice(m, 1, 3, 4, 1)), kTol, kTol));
  EXPECT_TRUE(all_close(call_op(OpId::outer, r, u), ref(native::unsqueeze(r, 1), native::unsqueeze(u, 0)), kTol, kTol));
  Tensor ex = native::expand(filled({1}, 2.0), {17});  // a stride-0 vector: copied dense
  EXPECT_TRUE(all_close(call_op(OpId::mv, m, ex), ref(m, native::unsqueeze(ex, 1)), kTol, kTol));
}

TEST(BlasGemm, AlphaBetaAndNaNDestinations) {
  Tensor a = filled({6, 4}, 2.1), w = filled({4, 5}, 2.2), in = filled({6, 5}, 2.3);
  EXPECT_TRUE(all_close(addmm(in, a, w, 0.5, -1.5), ref(a, w, -1.5, 0.5, in), kTol, kTol));
  Tensor nan_in = full({6, 5}, std::nan(""), f64), nan_col = full({6}, std::nan(""), f64);
  EXPECT_TRUE(all_close(addmm(nan_in, a, w, 0.0, 2.0), ref(a, w, 2.0), kTol, kTol));  // beta 0 ignores NaN
  Tensor v = filled({4}, 2.4);
  Tensor got = call_op(OpId::addmv, nan_col, a, v, Scalar(0.0), Scalar(1.0));
  EXPECT_TRUE(all_close(got, ref(a, native::unsqueeze(v, 1)), kTol, kTol));
}

TEST(BlasGemm, StridedDestinations) {
  Tensor a = filled({6, 4}, 2.5), w = filled({4, 5}, 2.6), old = filled({6, 5}, 2.7);
  Tensor col_major = native::t(native::t(old).contiguous());  // computed as dst^T = w^T a^T
  const std::vector<double> want = ref(a, w, 2.0, 3.0, old);
  ASSERT_TRUE(cpu::blas::dgemm(a, w, col_major, 2.0, 3.0));
  EXPECT_TRUE(all_close(col_major, want, kTol, kTol));
  Tensor holder = filled({12, 10}, 2.7);
  Tensor scattered = native::as_strided(holder, {6, 5}, {20, 2}, 0);  // no unit stride: a dense copy, written back
  const std::vector<double> want2 = ref(a, w, 2.0, 3.0, scattered);
  ASSERT_TRUE(cpu::blas::dgemm(a, w, scattered, 2.0, 3.0));
  EXPECT_TRUE(all_close(scattered, want2, kTol, kTol));
  EXPECT_EQ(holder.to_doubles()[1], wavy(120, 2.7)[1]);  // the elements between untouched
}

TEST(BlasGemm, InPlaceOverAnOperand) {  // x.addmm_(x, y) and x.addmm_(y, x): the operand is read before x is written
  Tensor x = filled({5, 5}, 2.8), y = filled({5, 5}, 2.9);
  const std::vector<double> want1 = ref(x, y, 1, 1, x), want2 = ref(y, x, 1, 1, x);
  Tensor x1 = x.clone(), x2 = x.clone();
  call_op(OpId::addmm_, x1, x1, y);
  call_op(OpId::addmm_, x2, y, x2);
  EXPECT_TRUE(all_close(x1, want1, kTol, kTol));
  EXPECT_TRUE(all_close(x2, want2, kTol, kTol));
}

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wall_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// OpenBLAS's OpenMP build reads omp_get_max_threads() per call: set_num_threads(1) runs one thread (the process's
// CPU time stays within its wall time), a larger count becomes OpenBLAS's own.
TEST(BlasGemm, ThreadsFollowSetNumThreads) {
  const int64_t saved = intra_op_threads();
  Tensor a = filled({384, 384}, 2.8);
  set_intra_op_threads(1);
  mm(a, a);
  const double c0 = cpu_seconds(), w0 = wall_seconds();
  for (int i = 0; i < 4; ++i) mm(a, a);
  const double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
  EXPECT_LE(cpu, wall * 1.15 + 0.002) << "cpu " << cpu << " s, wall " << wall << " s";
  set_intra_op_threads(3);
  mm(a, a);
  EXPECT_EQ(cpu::blas::openblas_threads(), 3);
  set_intra_op_threads(2);
  mm(a, a);
  EXPECT_EQ(cpu::blas::openblas_threads(), 2);
  set_intra_op_threads(saved);
}

}  // namespace
}  // namespace amps::rt
