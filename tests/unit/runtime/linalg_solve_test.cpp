// Tests for the LU-family kernels (linalg_det, linalg_slogdet, linalg_solve, linalg_solve_triangular) and
// linalg_eigh: hand-computed cases, reconstructions over batches and both dtypes, broadcasting, PyTorch's errors,
// and their host-fallback registration.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/backend/common/host_fallback_kernels.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

Tensors run(OpId op, Args args) { return dispatch(op, std::move(args)); }
Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }

// [b, n, n] matrices with n added on the diagonal (invertible).
Tensor square(int64_t b, int64_t n, DType dt, double phase = 0.3) {
  return make(wavy(b * n * n, phase), {b, n, n}, dt) + eye(n, std::nullopt, dt) * Scalar(double(n));
}

TEST(LinalgSolve, DeterminantsByLuHandCases) {
  // a row swap is needed (pivot 3 > 1) and flips the sign: det [[1, 2], [3, 4]] = -2
  EXPECT_TRUE(all_close(call_op(OpId::linalg_det, make({1, 2, 3, 4}, {2, 2}, DType::float64)), {-2}, 1e-12));
  EXPECT_TRUE(all_close(call_op(OpId::linalg_det, make({2, 0, 0, 0, 3, 0, 0, 0, 4}, {3, 3})), {24}));
  EXPECT_TRUE(all_close(call_op(OpId::linalg_det, make({1, 2, 2, 4}, {2, 2})), {0.0}));
  EXPECT_TRUE(all_close(call_op(OpId::linalg_det, Tensor::empty({0, 0}, DType::float32)), {1}));
  Tensors sl = run(OpId::linalg_slogdet, {make({1, 2, 3, 4, 0, 1, 0, 0, 2, 0, 0, 3}, {3, 2, 2}, DType::float64)});
  EXPECT_TRUE(all_close(sl[0], {-1, 0, 1}));
  EXPECT_TRUE(all_close(sl[1], {std::log(2.0), -INFINITY, std::log(6.0)}, 1e-12));
  for (DType dt : {DType::float64, DType::float32}) {  // det(A) det(A^-1) = 1 over a batch
    const Tensor a = square(3, 5, dt);
    const Tensor d = call_op(OpId::linalg_det, a), di = call_op(OpId::linalg_det, call_op(OpId::inverse, a));
    EXPECT_EQ(d.dtype(), dt);
    EXPECT_TRUE(all_close(d * di, ones({3}, dt), dt == DType::float64 ? 1e-10 : 1e-4));
    EXPECT_TRUE(all_close(run(OpId::linalg_slogdet, {a})[1], log(abs(d)), dt == DType::float64 ? 1e-10 : 1e-4));
  }
}

TEST(LinalgSolve, SolveVectorsMatricesBroadcastAndRightSide) {
  const Tensor a = make({3, 1, 1, 2}, {2, 2}, DType::float64);
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve, a, make({9, 8}, {2}, DType::float64)), {2, 3}, 1e-12));
  for (DType dt : {DType::float64, DType::float32}) {
    const double tol = dt == DType::float64 ? 1e-10 : 1e-4;
    const Tensor A = square(3, 4, dt), B = make(wavy(4 * 2, 1.1), {4, 2}, dt);
    const Tensor X = call_op(OpId::linalg_solve, A, B);  // B broadcast over A's batch
    EXPECT_EQ(X.sizes(), (Dims{3, 4, 2}));
    EXPECT_TRUE(all_close(matmul(A, X), B.expand({3, 4, 2}), tol));
    const Tensor v = make(wavy(3 * 4, 0.5), {3, 4}, dt);  // A's shape without the last dim: a batch of vectors
    const Tensor xv = call_op(OpId::linalg_solve, A, v);
    EXPECT_EQ(xv.sizes(), (Dims{3, 4}));
    EXPECT_TRUE(all_close(matmul(A, xv.unsqueeze(-1)).squeeze(-1), v, tol));
    const Tensor R = make(wavy(3 * 2 * 4, 0.9), {3, 2, 4}, dt);
    EXPECT_TRUE(all_close(matmul(call_op(OpId::linalg_solve, A, R, false), A), R, tol));  // X A = B
  }
}

TEST(LinalgSolve, SolveErrorsAsPyTorch) {
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve, zeros({2, 2}), ones({2})); }, "RuntimeError",
                           "torch.linalg.solve: The solver failed because the input matrix is singular."));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve, zeros({3, 2, 2}), ones({2})); }, "RuntimeError",
                           "torch.linalg.solve: (Batch element 0): The solver failed"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve, ones({2, 3}), ones({2})); }, "RuntimeError",
                           "linalg.solve: A must be batches of square matrices, but they are 2 by 3 matrices"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve, ones({2, 2}), ones({3})); }, "RuntimeError",
                           "linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x1)"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve, ones({2, 2}), ones({2}, DType::float64)); }, "RuntimeError",
                           "linalg.solve: Expected A and B to have the same dtype"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_det, ones({2, 2}, DType::int64)); }, "RuntimeError",
                           "linalg.det: Expected a floating point or complex tensor as input. Got int64"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_det, ones({2, 2}, DType::float16)); }, "RuntimeError",
                           "linalg.det: Low precision dtypes not supported. Got float16"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_slogdet, ones({3})); }, "RuntimeError",
                           "linalg.slogdet: The input tensor A must have at least 2 dimensions."));
}

TEST(LinalgSolve, TriangularSolvesReadOneTriangle) {
  // the lower triangle holds garbage that an upper solve must not read
  const Tensor u = make({2, 1, 99, 4}, {2, 2}, DType::float64), b = make({4, 8}, {2, 1}, DType::float64);
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve_triangular, u, b, true), {1, 2}, 1e-12));
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve_triangular, u, b, true, true, true), {-4, 8}, 1e-12));
  const Tensor l = make({2, 99, 1, 4}, {2, 2}, DType::float64);
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve_triangular, l, b, false), {2, 1.5}, 1e-12));
  // right side: X U = B for B [1, 2]
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve_triangular, u, make({2, 9}, {1, 2}, DType::float64), true, false),
                        {1, 2}, 1e-12));
  EXPECT_TRUE(all_close(call_op(OpId::linalg_solve_triangular, zeros({2, 2}), ones({2, 1}), true), {NAN, INFINITY}));
  EXPECT_TRUE(throws_error([] { call_op(OpId::linalg_solve_triangular, ones({2, 2}), ones({2}), true); },
                           "RuntimeError", "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."));
}

TEST(LinalgSolve, EighIsAscendingOrthonormalAndReadsUplo) {
  const Tensors lv = run(OpId::linalg_eigh, {make({2, 1, 1, 2}, {2, 2}, DType::float64)});
  EXPECT_TRUE(all_close(lv[0], {1, 3}, 1e-12));
  const double h = std::sqrt(0.5);
  EXPECT_TRUE(all_close(abs(lv[1]), {h, h, h, h}, 1e-12));
  for (DType dt : {DType::float64, DType::float32}) {
    const double tol = dt == DType::float64 ? 1e-10 : 1e-4;
    Tensor a = square(3, 5, dt);
    a = a + mT(a);
    const Tensors r = run(OpId::linalg_eigh, {a});
    EXPECT_TRUE(all_close(matmul(r[1] * r[0].unsqueeze(-2), mT(r[1])), a, tol));
    EXPECT_TRUE(all_close(matmul(mT(r[1]), r[1]), eye(5, std::nullopt, dt).expand({3, 5, 5}), tol));
    EXPECT_TRUE(all_close(call_op(OpId::ge, r[0].narrow(-1, 1, 4) - r[0].narrow(-1, 0, 4), Scalar(0.0)), ones({3, 4}, DType::bool_)));
  }
  // only the chosen triangle is read: a NaN in the other one is ignored, as LAPACK's
  EXPECT_TRUE(all_close(run(OpId::linalg_eigh, {make({1, NAN, 0, 1}, {2, 2}), "L"})[0], {1, 1}));
  EXPECT_TRUE(all_close(run(OpId::linalg_eigh, {make({2, 1, NAN, 2}, {2, 2}), "U"})[0], {1, 3}, 1e-6));
  EXPECT_TRUE(throws_error([] { run(OpId::linalg_eigh, {ones({2, 2}), "X"}); }, "RuntimeError",
                           "Expected UPLO argument to be 'L' or 'U', but got X"));
  EXPECT_TRUE(throws_error([] { run(OpId::linalg_eigh, {make({NAN, 0, 0, 1}, {2, 2})}); }, "RuntimeError",
                           "linalg.eigh: The algorithm failed to converge because the input matrix contained non-finite"));
}

TEST(LinalgSolve, HostFallbackRegistersTheNewKernels) {
  cpu::KernelTable t;
  common::register_host_fallback_kernels(t);
  for (OpId op : {OpId::linalg_det, OpId::linalg_slogdet, OpId::linalg_solve, OpId::linalg_solve_triangular,
                  OpId::linalg_eigh})
    EXPECT_NE(t.get(op), nullptr) << op_name(op);
}

}  // namespace
}  // namespace amps::rt
