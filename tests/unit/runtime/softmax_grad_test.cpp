// The CPU kernels of _softmax_backward_data, _log_softmax_backward_data and nll_loss_backward against their
// decompositions (the formulas autograd used before the ops, evaluated in float64), in every float dtype and
// layout; nll_loss_backward's edge cases (ignore_index, all rows ignored, weights, bad targets).
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using O = OpId;
using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

const DType kFloats[] = {DType::float64, DType::float32, DType::float16, DType::bfloat16};

Tensor vals(const Dims& shape, DType t, double phase, double scale = 1.0) {
  std::vector<double> v = wavy(numel_of(shape), phase);
  for (double& x : v) x *= scale;
  return make(v, shape, t);
}

double tol(DType t) { return t == DType::float64 ? 1e-12 : t == DType::float32 ? 1e-5 : t == DType::float16 ? 4e-3 : 3e-2; }

// The reference in float64 from the operands as given (rounded to their dtype).
Tensor softmax_grad_ref(const Tensor& g, const Tensor& y, int64_t dim, bool log) {
  Tensor gd = g.to(DType::float64), yd = y.to(DType::float64);
  if (log) return gd - exp(yd) * sum(gd, Dims{dim}, true);
  return yd * (gd - sum(gd * yd, Dims{dim}, true));
}

TEST(SoftmaxGrad, MatchesTheFormulaInEveryDtypeAndLayout) {
  for (DType t : kFloats)
    for (bool log : {false, true}) {
      const O op = log ? O::_log_softmax_backward_data : O::_softmax_backward_data;
      for (const Dims& shape : {Dims{7, 33}, Dims{3, 40, 5}, Dims{2, 1, 1025}, Dims{6}})
        for (int64_t d = -1; d < int64_t(shape.size()); ++d) {
          Tensor x = vals(shape, DType::float64, 0.3, 3.0);
          Tensor y = (log ? log_softmax(x, d) : softmax(x, d)).to(t), g = vals(shape, t, 0.8);
          Tensor got = call_op(op, g, y, d, t);
          EXPECT_EQ(got.dtype(), t);
          EXPECT_TRUE(all_close(got, softmax_grad_ref(g, y, d, log), tol(t), tol(t)))
              << dtype_name(t) << " log=" << log << " dim " << d << " of " << shape.size();
        }
      // strided operands, a 0-dim pair, an empty one
      Tensor y = (log ? log_softmax : softmax)(vals({5, 4}, DType::float64, 0.1), 0).to(t), g = vals({4, 5}, t, 0.2);
      EXPECT_TRUE(all_close(call_op(op, g.t(), y, int64_t(0), t), softmax_grad_ref(g.t(), y, 0, log), tol(t), tol(t)));
      Tensor y0 = (log ? log_softmax : softmax)(vals({}, DType::float64, 0.4), 0).to(t), g0 = vals({}, t, 0.5);
      Tensor got0 = call_op(op, g0, y0, int64_t(-1), t);
      EXPECT_EQ(got0.dim(), 0);
      EXPECT_TRUE(all_close(got0, softmax_grad_ref(g0.unsqueeze(0), y0.unsqueeze(0), 0, log).reshape({}), tol(t), tol(t)));
      EXPECT_EQ(call_op(op, vals({0, 3}, t, 0), vals({0, 3}, t, 0), int64_t(1), t).numel(), 0);
    }
}

TEST(SoftmaxGrad, CastsToTheInputDtype) {
  // softmax(x, dtype=float32) of a float16 x: float32 operands, the gradient in float16
  Tensor y = softmax(vals({3, 8}, DType::float32, 0.1), 1), g = vals({3, 8}, DType::float32, 0.6);
  Tensor got = call_op(O::_softmax_backward_data, g, y, int64_t(1), DType::float16);
  EXPECT_EQ(got.dtype(), DType::float16);
  EXPECT_TRUE(all_close(got, softmax_grad_ref(g, y, 1, false), 2e-3, 2e-3));
  // a grad of another dtype is cast to the output's first
  Tensor got2 = call_op(O::_log_softmax_backward_data, g.to(DType::float64), log_softmax(g, 1), int64_t(1),
                        DType::float32);
  EXPECT_EQ(got2.dtype(), DType::float32);
  EXPECT_TRUE(throws_error([&] { call_op(O::_softmax_backward_data, g, vals({3, 7}, DType::float32, 0), int64_t(1),
                                         DType::float32); }, "RuntimeError", "does not match"));
}

// nll_loss_backward's reference: -w[t] g (/ total weight for 'mean') at (n, t, s), in float64.
std::vector<double> nll_grad_ref(const std::vector<double>& g, const std::vector<int64_t>& tgt,
                                 const std::vector<double>& w, int64_t N, int64_t C, int64_t S, int64_t ignore,
                                 const std::string& red) {
  std::vector<double> out(size_t(N * C * S), 0.0);
  double total = 0;
  for (int64_t k : tgt)
    if (k != ignore) total += w.empty() ? 1.0 : w[size_t(k)];
  for (int64_t r = 0; r < N * S; ++r) {
    const int64_t k = tgt[size_t(r)];
    if (k == ignore) continue;
    double v = -(w.empty() ? 1.0 : w[size_t(k)]) * g[red == "none" ? size_t(r) : 0];
    if (red == "mean") v /= total;
    out[size_t(((r / S) * C + k) * S + r % S)] = v;
  }
  return out;
}

TEST(NllLossBackward, MatchesTheReference) {
  const std::vector<int64_t> tgt = {0, 3, 2, -100, 1, 3, 0, 2, 1, 2, 3, -100};
  std::vector<double> tv(tgt.begin(), tgt.end());
  const std::vector<double> w = {0.5, 1.5, 1.0, 2.0};
  for (DType t : kFloats)
    for (const std::string red : {"mean", "sum", "none"})
      for (bool weighted : {false, true})
        for (int64_t S : {1, 3}) {  // [12, 4] and [4, 4, 3]
          const int64_t N = 12 / S;
          const Dims sizes = S == 1 ? Dims{N, 4} : Dims{N, 4, S};
          const Dims tshape = S == 1 ? Dims{N} : Dims{N, S};
          Tensor g = red == "none" ? vals(tshape, t, 0.2, 2.0) : vals({}, t, 0.2, 2.0);
          Tensor wt = weighted ? make(w, {4}, t) : Tensor();
          Tensor got = call_op(O::nll_loss_backward, g, make(tv, tshape, DType::int64), wt.defined() ? IValue(wt) : IValue(),
                               sizes, int64_t(-100), red);
          EXPECT_EQ(got.dtype(), t);
          EXPECT_EQ(got.sizes(), sizes);
          EXPECT_TRUE(all_close(got, nll_grad_ref(g.to_doubles(), tgt, weighted ? w : std::vector<double>(), N, 4, S,
                                                  -100, red), tol(t), tol(t)))
              << dtype_name(t) << " " << red << " weighted=" << weighted << " S=" << S;
        }
}

TEST(NllLossBackward, EdgeCases) {
  // unbatched: input [C], a 0-dim target
  Tensor g = make({2.0}, {}, DType::float32);
  EXPECT_TRUE(all_close(call_op(O::nll_loss_backward, g, make({1}, {}, DType::int64), IValue(), Dims{3}, int64_t(-100),
                                std::string("mean")), std::vector<double>{0, -2, 0}));
  // every row ignored: zeros under 'mean' (PyTorch writes nothing; no 0/0)
  Tensor ign = make({5, 5}, {2}, DType::int64);
  EXPECT_TRUE(all_close(call_op(O::nll_loss_backward, g, ign, IValue(), Dims{2, 3}, int64_t(5), std::string("mean")),
                        std::vector<double>(6, 0.0)));
  // a zero total weight: NaN at the targets, as PyTorch
  Tensor z = call_op(O::nll_loss_backward, g, make({1, 2}, {2}, DType::int64), make({1, 0, 0}, {3}, DType::float32),
                     Dims{2, 3}, int64_t(-100), std::string("mean"));
  std::vector<double> zv = z.to_doubles();
  EXPECT_TRUE(std::isnan(zv[1]) && std::isnan(zv[5]) && zv[0] == 0);
  EXPECT_TRUE(throws_error([&] { call_op(O::nll_loss_backward, g, make({1, 3}, {2}, DType::int64), IValue(), Dims{2, 3},
                                         int64_t(-100), std::string("sum")); }, "IndexError", "Target 3 is out of bounds"));
  EXPECT_TRUE(throws_error([&] { call_op(O::nll_loss_backward, g, make({1, 2, 0}, {3}, DType::int64), IValue(),
                                         Dims{2, 3}, int64_t(-100), std::string("sum")); }, "RuntimeError", "expected 2 targets"));
}

}  // namespace
}  // namespace amps::rt
