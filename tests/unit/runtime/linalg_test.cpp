// Tests for the linear-algebra kernels: hand-computed small cases, reconstructions (A = QR, A = U S V^T,
// L L^T = A, A A^-1 = I) over batches and dtypes, and PyTorch's error messages.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/backend/common/host_fallback_kernels.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

Tensors run(OpId op, Args args) { return dispatch(op, std::move(args)); }
Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }

// A batch [b, n, n] of well-conditioned symmetric positive-definite matrices: X X^T + n I.
Tensor spd(int64_t b, int64_t n, DType dt) {
  Tensor x = make(wavy(b * n * n, 0.3), {b, n, n}, DType::float64);
  Tensor a = matmul(x, mT(x)) + eye(n, std::nullopt, DType::float64) * Scalar(double(n));
  return a.to(dt);
}

// Identity matrices shaped like the square batch [t].
Tensor eye_like(const Tensor& t) { return eye(t.size(-1), std::nullopt, t.dtype()).expand(t.sizes()); }

TEST(Linalg, TraceOfRectangularAndIntegerMatrices) {
  EXPECT_TRUE(all_close(call_op(OpId::trace, make({1, 2, 3, 4, 5, 6}, {2, 3})), {6}));
  Tensor ti = call_op(OpId::trace, make({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}, DType::int32));
  EXPECT_EQ(ti.dtype(), DType::int64);
  EXPECT_EQ(ti.item<int64_t>(), 15);
  EXPECT_TRUE(all_close(call_op(OpId::trace, make({1, 2, 3, 4}, {2, 2}, DType::float64).t()), {5}));
  EXPECT_TRUE(throws_error([] { call_op(OpId::trace, make({1, 2}, {2})); }, "RuntimeError",
                           "trace: expected a matrix, but got tensor with dim 1"));
}

TEST(Linalg, CholeskyHandCaseAndUpper) {
  Tensor a = make({4, 2, 2, 3}, {2, 2}, DType::float64);
  EXPECT_TRUE(all_close(call_op(OpId::cholesky, a), {2, 0, 1, std::sqrt(2.0)}, 1e-12));
  EXPECT_TRUE(all_close(call_op(OpId::cholesky, a, true), {2, 1, 0, std::sqrt(2.0)}, 1e-12));
}

TEST(Linalg, CholeskyReconstructsBatchesInEveryFloatDtype) {
  for (DType dt : {DType::float64, DType::float32}) {
    Tensor a = spd(3, 5, dt);
    Tensor l = call_op(OpId::cholesky, a);
    EXPECT_EQ(l.dtype(), dt);
    EXPECT_TRUE(all_close(matmul(l, mT(l)), a, dt == DType::float64 ? 1e-10 : 1e-4));
    EXPECT_TRUE(all_close(l, call_op(OpId::tril, l)));
    Tensor u = call_op(OpId::cholesky, a, true);
    EXPECT_TRUE(all_close(matmul(mT(u), u), a, dt == DType::float64 ? 1e-10 : 1e-4));
  }
  Tensor h = call_op(OpId::cholesky, spd(1, 4, DType::float32).to(DType::bfloat16));
  EXPECT_EQ(h.dtype(), DType::bfloat16);
  EXPECT_TRUE(all_close(h, call_op(OpId::cholesky, spd(1, 4, DType::float32).to(DType::bfloat16).to(DType::float32)), 0.05, 0.01));
}

TEST(Linalg, CholeskyErrorsAsPyTorch) {
  EXPECT_TRUE(throws_error([] { call_op(OpId::cholesky, make({1, 2, 2, 1}, {2, 2})); }, "RuntimeError",
                           "linalg.cholesky: The factorization could not be completed because the input is not "
                           "positive-definite (the leading minor of order 2 is not positive-definite)."));
  Tensor batch = make({1, 0, 0, 1, 1, 0, 0, -1}, {2, 2, 2});
  EXPECT_TRUE(throws_error([&] { call_op(OpId::cholesky, batch); }, "RuntimeError",
                           "linalg.cholesky: (Batch element 1): The factorization could not be completed because the "
                           "input is not positive-definite (the leading minor of order 2"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::cholesky, make({1, 2, 3, 4, 5, 6}, {2, 3})); }, "RuntimeError",
                           "linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::cholesky, make({1}, {1})); }, "RuntimeError",
                           "linalg.cholesky: The input tensor A must have at least 2 dimensions."));
}

TEST(Linalg, InverseHandCaseBatchesAndSingular) {
  EXPECT_TRUE(all_close(call_op(OpId::inverse, make({4, 7, 2, 6}, {2, 2}, DType::float64)), {0.6, -0.7, -0.2, 0.4}, 1e-12));
  EXPECT_TRUE(all_close(call_op(OpId::inverse, make({0, 1, 1, 0}, {2, 2})), {0, 1, 1, 0}));
  for (DType dt : {DType::float64, DType::float32}) {
    Tensor a = make(wavy(2 * 3 * 4 * 4, 0.7), {2, 3, 4, 4}, dt) + eye(4, std::nullopt, dt);
    Tensor inv = call_op(OpId::inverse, a);
    EXPECT_TRUE(all_close(matmul(a, inv), eye_like(a), dt == DType::float64 ? 1e-10 : 1e-4));
  }
  EXPECT_TRUE(throws_error([] { call_op(OpId::inverse, make({1, 2, 2, 4}, {2, 2})); }, "RuntimeError",
                           "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because "
                           "the input matrix is singular."));
  EXPECT_TRUE(throws_error([] { call_op(OpId::inverse, make({1, 0, 0, 1, 0, 0, 0, 1}, {2, 2, 2})); }, "RuntimeError",
                           "linalg.inv: (Batch element 1): The diagonal element 1 is zero"));
}

TEST(Linalg, QrHandCaseMatchesLapackSigns) {
  Tensors qr = run(OpId::qr, {make({3, 4}, {2, 1}, DType::float64), true});
  EXPECT_TRUE(all_close(qr[0], {-0.6, -0.8}, 1e-12));
  EXPECT_TRUE(all_close(qr[1], {-5}, 1e-12));
}

TEST(Linalg, QrReconstructsReducedAndComplete) {
  for (DType dt : {DType::float64, DType::float32}) {
    const double tol = dt == DType::float64 ? 1e-10 : 1e-5;
    for (Dims shape : {Dims{2, 5, 3}, Dims{2, 3, 5}, Dims{4, 4}}) {
      Tensor a = make(wavy(numel_of(shape), 0.2), shape, dt);
      const int64_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
      for (bool some : {true, false}) {
        Tensors qr = run(OpId::qr, {a, some});
        const int64_t qc = some ? k : m;
        EXPECT_EQ(qr[0].size(-1), qc);
        EXPECT_EQ(qr[1].size(-2), qc);
        EXPECT_TRUE(all_close(matmul(qr[0], qr[1]), a, tol));
        EXPECT_TRUE(all_close(matmul(mT(qr[0]), qr[0]), eye_like(matmul(mT(qr[0]), qr[0])), tol));
        EXPECT_TRUE(all_close(qr[1], call_op(OpId::triu, qr[1])));
      }
    }
  }
}

TEST(Linalg, SvdHandCases) {
  Tensors usv = run(OpId::svd, {make({3, 0, 0, -4}, {2, 2}, DType::float64), true, true});
  EXPECT_TRUE(all_close(usv[1], {4, 3}, 1e-12));
  Tensors r1 = run(OpId::svd, {make({1, 1, 1, 1}, {2, 2}, DType::float64), true, true});
  EXPECT_TRUE(all_close(r1[1], {2, 0}, 1e-12));
  EXPECT_TRUE(all_close(matmul(mT(r1[0]), r1[0]), {1, 0, 0, 1}, 1e-12));
  EXPECT_TRUE(all_close(matmul(r1[0] * r1[1].unsqueeze(0), mT(r1[2])), {1, 1, 1, 1}, 1e-12));
}

// U diag(S) V^T == A, orthonormal U and V columns, S descending and non-negative.
void expect_valid_svd(const Tensor& a, const Tensors& usv, double tol) {
  EXPECT_TRUE(all_close(matmul(usv[0].narrow(-1, 0, usv[1].size(-1)) * usv[1].unsqueeze(-2),
                               mT(usv[2].narrow(-1, 0, usv[1].size(-1)))), a, tol));
  for (const Tensor& q : {usv[0], usv[2]}) EXPECT_TRUE(all_close(matmul(mT(q), q), eye_like(matmul(mT(q), q)), tol));
  std::vector<double> s = usv[1].to_doubles();
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_GE(s[i], 0.0);
    if (i % size_t(usv[1].size(-1)) != 0) {
      EXPECT_LE(s[i], s[i - 1]);
    }
  }
}

TEST(Linalg, SvdReconstructsTallWideBatchedAndComplete) {
  for (DType dt : {DType::float64, DType::float32}) {
    const double tol = dt == DType::float64 ? 1e-10 : 1e-5;
    for (Dims shape : {Dims{2, 6, 3}, Dims{2, 3, 6}, Dims{5, 5}}) {
      Tensor a = make(wavy(numel_of(shape), 1.1), shape, dt);
      const int64_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
      Tensors reduced = run(OpId::svd, {a, true, true});
      EXPECT_EQ(reduced[0].sizes().back(), k);
      EXPECT_EQ(reduced[2].sizes().back(), k);
      expect_valid_svd(a, reduced, tol);
      Tensors full = run(OpId::svd, {a, false, true});
      EXPECT_EQ(full[0].sizes().back(), m);
      EXPECT_EQ(full[2].sizes().back(), n);
      expect_valid_svd(a, full, tol);
    }
  }
}

TEST(Linalg, SvdWithoutUvAndNonFiniteInput) {
  Tensor a = make(wavy(6), {3, 2});
  Tensors r = run(OpId::svd, {a, true, false});
  EXPECT_EQ(r[0].sizes(), (Dims{3, 3}));
  EXPECT_EQ(r[2].sizes(), (Dims{2, 2}));
  EXPECT_TRUE(all_close(r[0], std::vector<double>(9, 0.0)));
  EXPECT_TRUE(all_close(r[1], run(OpId::svd, {a, true, true})[1]));
  EXPECT_TRUE(throws_error([] { run(OpId::svd, {make({1, NAN, 0, 1}, {2, 2}), true, true}); }, "RuntimeError",
                           "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite "
                           "values."));
}

TEST(Linalg, CdistHandCasesForEachP) {
  Tensor x1 = make({0, 0, 1, 1}, {2, 2}), x2 = make({3, 4}, {1, 2});
  EXPECT_TRUE(all_close(call_op(OpId::cdist, x1, x2), {5, std::sqrt(13.0)}));
  EXPECT_TRUE(all_close(call_op(OpId::cdist, x1, x2, 1.0), {7, 5}));
  EXPECT_TRUE(all_close(call_op(OpId::cdist, x1, x2, INFINITY), {4, 3}));
  EXPECT_TRUE(all_close(call_op(OpId::cdist, x1, x2, 0.0), {2, 2}));
  EXPECT_TRUE(all_close(call_op(OpId::cdist, x1, x2, 3.0), {std::cbrt(91.0), std::cbrt(35.0)}));
}

TEST(Linalg, CdistBroadcastsBatchesAndChecksArguments) {
  Tensor x1 = make(wavy(2 * 3 * 4), {2, 3, 4}, DType::float64), x2 = make(wavy(5 * 4, 0.5), {1, 5, 4}, DType::float64);
  Tensor d = call_op(OpId::cdist, x1, x2);
  EXPECT_EQ(d.sizes(), (Dims{2, 3, 5}));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 5; ++j) {
        Tensor diff = x1.select(0, b).select(0, i) - x2.select(0, 0).select(0, j);
        EXPECT_NEAR(d.select(0, b).select(0, i).select(0, j).item<double>(), std::sqrt(sum(diff * diff).item<double>()), 1e-12);
      }
  EXPECT_TRUE(throws_error([] { call_op(OpId::cdist, make({1, 2}, {2}), make({1, 2}, {1, 2})); }, "RuntimeError",
                           "cdist only supports at least 2D tensors, X1 got: 1D"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::cdist, make({1, 2}, {1, 2}), make({1, 2, 3}, {1, 3})); }, "RuntimeError",
                           "X1 and X2 must have the same number of columns. X1: 2 X2: 3"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::cdist, make({1, 2}, {1, 2}), make({1, 2}, {1, 2}), -1.0); },
                           "RuntimeError", "cdist only supports non-negative p values"));
}

// The host-fallback kernels (the CUDA backend's cholesky, inverse, qr, svd) called through their own table on CPU
// tensors: every argument reaches the CPU kernel and every result comes back (Q and R, U S V); errors pass
// through. On a device they also move the tensors (tests/unit/cuda/cuda_composite_test.cpp).
Tensors on_host(OpId op, Args args) {
  static const cpu::KernelTable table = [] {
    cpu::KernelTable t;
    common::register_host_fallback_kernels(t);
    return t;
  }();
  complete_args(op, args);
  const KernelContext kc{current_context(), Device::cpu()};
  return table.get(op)(ArgReader(op, args), kc);
}

::testing::AssertionResult same_outputs(const Tensors& got, const Tensors& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << got.size() << " outputs, want " << want.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (::testing::AssertionResult r = all_close(got[i], want[i], 0, 0); !r) return r << " (output " << i << ")";
  return ::testing::AssertionSuccess();
}

TEST(Linalg, HostFallbackPassesEveryArgumentAndResult) {
  const Tensor a = make(wavy(2 * 4 * 3, 0.2), {2, 4, 3});
  EXPECT_TRUE(same_outputs(on_host(OpId::cholesky, {spd(2, 3, DType::float32), true}),
                           run(OpId::cholesky, {spd(2, 3, DType::float32), true})));
  EXPECT_TRUE(same_outputs(on_host(OpId::inverse, {spd(1, 3, DType::float64)}), run(OpId::inverse, {spd(1, 3, DType::float64)})));
  EXPECT_TRUE(same_outputs(on_host(OpId::qr, {a, false}), run(OpId::qr, {a, false})));
  EXPECT_TRUE(same_outputs(on_host(OpId::svd, {a, true, false}), run(OpId::svd, {a, true, false})));
  EXPECT_TRUE(throws_error([] { on_host(OpId::inverse, {make({1, 2, 2, 4}, {2, 2})}); }, "RuntimeError",
                           "linalg.inv: The diagonal element 2 is zero"));
}

}  // namespace
}  // namespace amps::rt
