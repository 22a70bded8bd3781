// Gradient rules beyond finite differences: PyTorch's errors and conventions for QR/SVD (complete QR of a tall
// matrix, some=False, compute_uv=False, repeated singular values) and for zero-gradient ops.
#include <gtest/gtest.h>

#include <cmath>

#include "autograd_test_util.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt {
namespace {

using O = OpId;
using test::Rand;

class RuleConventions : public test::AutogradTest {};

Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
Tensor grad_of(const Tensor& loss, const Tensor& x) { return autograd::grad({loss}, {x})[0]; }
Tensors svd(const Tensor& a, bool some, bool compute_uv = true) { return dispatch(O::svd, Args{a, some, compute_uv}); }

// A tall 4 x 2 input with singular values near 2.5 and 1.5.
Tensor tall_input() {
  Tensor a = Tensor::from_doubles({2.4, 0.3, -0.2, 1.6, 0.1, -0.3, 0.2, 0.1}, {4, 2}, DType::float64);
  return a.set_requires_grad(true);
}

TEST_F(RuleConventions, CompleteQrOfATallMatrixIsNotDifferentiable) {
  Tensor a = tall_input();
  Tensors qr = dispatch(O::qr, Args{a, false});
  EXPECT_EQ(qr[0].sizes(), (Dims{4, 4}));
  EXPECT_TRUE(test::throws_error([&] { grad_of(sum(qr[0]) + sum(qr[1]), a); }, "RuntimeError",
                                 "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."));
}

// some=False: the columns of U past min(m, n) are an arbitrary basis; their gradient is ignored, so the
// gradient equals the reduced SVD's for the same weights on the determined columns.
TEST_F(RuleConventions, SvdFullMatricesIgnoresTheUndeterminedColumns) {
  Tensor a = tall_input();
  Rand r(3);
  Tensor wu = r.uniform({4, 4}), ws = r.uniform({2}), wv = r.uniform({2, 2});
  Tensors full = svd(a, false), reduced = svd(a, true);
  ASSERT_EQ(full[0].sizes(), (Dims{4, 4}));
  Tensor g_full = grad_of(sum(full[0] * wu) + sum(full[1] * ws) + sum(full[2] * wv), a);
  Tensor g_reduced = grad_of(sum(reduced[0] * wu.narrow(1, 0, 2)) + sum(reduced[1] * ws) + sum(reduced[2] * wv), a);
  EXPECT_TRUE(test::all_close(g_full, g_reduced, 1e-12));
}

// compute_uv=False returns zeros for U and V; the gradient of S is linalg.svdvals': U diag(gS) V^T.
TEST_F(RuleConventions, SvdWithoutVectorsDifferentiatesTheSingularValues) {
  Tensor a = tall_input(), w = Tensor::from_doubles({0.7, -1.3}, {2}, DType::float64);
  Tensor g = grad_of(sum(svd(a, true, false)[1] * w), a);
  Tensors usv = svd(a.detach(), true);
  EXPECT_TRUE(test::all_close(g, matmul(usv[0] * w, mT(usv[2])), 1e-12));
  EXPECT_TRUE(test::all_close(g, grad_of(sum(svd(a, true)[1] * w), a), 1e-12));
}

// A loss of the singular values alone never divides by s_j^2 - s_k^2: d sum(S) / dA = U V^T, here I.
TEST_F(RuleConventions, RepeatedSingularValuesGiveFiniteValueGradients) {
  Tensor a = (eye(3, std::nullopt, DType::float64) * 2.0).set_requires_grad(true);
  Tensor g = grad_of(sum(svd(a, true)[1]), a);
  EXPECT_TRUE(test::all_close(g, eye(3, std::nullopt, DType::float64), 1e-12));
}

TEST_F(RuleConventions, PiecewiseConstantOpsRecordZeroGradients) {
  Tensor x = Tensor::from_doubles({-1.5, 0.25, 2.5}, {3}, DType::float64).set_requires_grad(true);
  for (O id : {O::floor, O::ceil, O::round, O::trunc, O::sign}) {
    Tensor y = call_op(id, x);
    ASSERT_TRUE(y.requires_grad()) << op_id_name(id);
    EXPECT_TRUE(test::all_close(grad_of(sum(y * x), x), y.detach(), 0)) << op_id_name(id);
  }
}

// An in-place random fill replaces the values, so no gradient reaches what was there before.
TEST_F(RuleConventions, RandomFillsCutTheGradientOfTheOldValues) {
  Tensor x = Tensor::from_doubles({1, 2, 3}, {3}, DType::float64).set_requires_grad(true);
  for (O id : {O::normal_, O::uniform_, O::bernoulli_}) {
    Tensor y = x * 2.0;
    dispatch(id, Args{y});
    ASSERT_TRUE(y.requires_grad()) << op_id_name(id);
    EXPECT_TRUE(test::all_close(grad_of(sum(y * x), x), y.detach(), 0)) << op_id_name(id);
  }
}

}  // namespace
}  // namespace amps::rt
