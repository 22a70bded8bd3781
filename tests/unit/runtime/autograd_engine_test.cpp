// Engine behaviour: accumulation, un-broadcasting, retain_graph, version counters, leaf/in-place rules,
// no_grad, needs-grad masks, grad(), create_graph, hooks, retain_grad, dtypes of a bf16 forward.
#include <gtest/gtest.h>

#include "autograd_test_util.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using Autograd = test::AutogradTest;

Tensor leaf(const std::vector<double>& v, const Dims& s, DType dt = DType::float32) {
  Tensor t = make(v, s, dt);
  t.set_requires_grad(true);
  return t;
}

void backward(const Tensor& t, std::optional<bool> retain = std::nullopt) { autograd::backward({t}, {}, retain); }

TEST_F(Autograd, SimpleBackwardAndFanOut) {
  Tensor x = leaf({1, 2, 3}, {3});
  backward(sum(x * x + x));
  EXPECT_TRUE(all_close(x.grad(), {3, 5, 7}));
  EXPECT_TRUE(x.is_leaf());
  EXPECT_FALSE(x.grad().requires_grad());
}

TEST_F(Autograd, AccumulatesOverBackwardCallsWithoutAliasing) {
  Tensor a = leaf({1, 2}, {2}), b = leaf({3, 4}, {2});
  backward(sum(a + b));
  backward(sum(a * 3.0));
  EXPECT_TRUE(all_close(a.grad(), {4, 4}));
  EXPECT_TRUE(all_close(b.grad(), {1, 1}));
  {
    GradModeGuard no_grad(false);
    Tensor g = a.grad();
    mul_(g, Tensor::scalar(10.0));
  }
  EXPECT_TRUE(all_close(b.grad(), {1, 1}));  // a's and b's grads were not one tensor
}

TEST_F(Autograd, UnbroadcastsToInputShapes) {
  Tensor a = leaf({1, 2, 3, 4, 5, 6}, {2, 3}), b = leaf({1, 2, 3}, {3}), c = leaf({2, 3}, {2, 1});
  backward(sum(a * b * c));
  EXPECT_EQ(b.grad().sizes(), (Dims{3}));
  EXPECT_EQ(c.grad().sizes(), (Dims{2, 1}));
  EXPECT_TRUE(all_close(b.grad(), {2 * 1 + 3 * 4, 2 * 2 + 3 * 5, 2 * 3 + 3 * 6}));
  EXPECT_TRUE(all_close(c.grad(), {1 + 4 + 9, 4 + 10 + 18}));
}

TEST_F(Autograd, SecondBackwardThroughFreedGraphFails) {
  Tensor x = leaf({0, 1}, {2});
  Tensor y = sum(exp(x));
  backward(y);
  EXPECT_TRUE(throws_error([&] { backward(y); }, "RuntimeError", "Trying to backward through the graph a second time"));
  Tensor z = sum(exp(x));
  backward(z, true);
  backward(z);
  EXPECT_NEAR(x.grad().to_doubles()[1], 3 * std::exp(1.0), 1e-5);
}

TEST_F(Autograd, InPlaceChangeOfSavedTensorIsReportedWithVersions) {
  Tensor x = leaf({0, 1, 2}, {3});
  Tensor y = exp(x);
  Tensor z = sum(y);
  mul_(y, Tensor::scalar(2.0));
  EXPECT_TRUE(throws_error([&] { backward(z); }, "RuntimeError",
                           "one of the variables needed for gradient computation has been modified by an inplace "
                           "operation: [torch.FloatTensor [3]], which is output 0 of ExpBackward0, is at version 1; "
                           "expected version 0 instead."));
}

TEST_F(Autograd, InPlaceOnLeafThatRequiresGrad) {
  Tensor x = leaf({1, 2}, {2});
  EXPECT_TRUE(throws_error([&] { add_(x, Tensor::scalar(1.0)); }, "RuntimeError",
                           "a leaf Variable that requires grad is being used in an in-place operation."));
  Tensor v = x * 2.0;
  {
    GradModeGuard no_grad(false);
    add_(x, Tensor::scalar(1.0));
  }
  EXPECT_TRUE(all_close(x, {2, 3}));
  EXPECT_TRUE(v.requires_grad());
}

TEST_F(Autograd, InPlaceOnNonLeafRebasesHistory) {
  Tensor x = leaf({-1, 2}, {2});
  Tensor y = x * 3.0;
  mul_(y, x);
  dispatch(OpId::relu_, Args{y});
  EXPECT_EQ(autograd::grad_fn_name(y), "ReluBackward0");
  backward(sum(y));
  EXPECT_TRUE(all_close(x.grad(), {-6, 12}));  // d/dx relu(3x^2) = 6x (3x^2 > 0)
}

TEST_F(Autograd, NoGradRecordsNothing) {
  Tensor x = leaf({1, 2}, {2});
  Tensor y;
  {
    GradModeGuard no_grad(false);
    y = x * 2.0;
  }
  EXPECT_FALSE(y.requires_grad());
  EXPECT_TRUE(y.is_leaf());
  Tensor d = x.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(d.storage(), x.storage());
}

TEST_F(Autograd, BFloat16ForwardRunsBackwardInBFloat16AndGivesFloat32Grads) {
  Tensor w = leaf({1, 2, 3, 4, 5, 6}, {3, 2}), x = make({1, 0, 2, 1, 1, 1}, {2, 3});
  Tensor wb = w.to(DType::bfloat16);
  DType seen = DType::float64;
  autograd::register_hook(wb, [&](const Tensor& g) { seen = g.dtype(); return Tensor(); });
  Tensor y = mm(x.to(DType::bfloat16), wb);
  EXPECT_EQ(y.dtype(), DType::bfloat16);
  backward(sum(y.to(DType::float32)));
  EXPECT_EQ(seen, DType::bfloat16);
  EXPECT_EQ(w.grad().dtype(), DType::float32);
  EXPECT_TRUE(all_close(w.grad(), {2, 2, 1, 1, 3, 3}));
}

TEST_F(Autograd, ImplicitGradOnlyForScalars) {
  Tensor x = leaf({1, 2}, {2});
  EXPECT_TRUE(throws_error([&] { backward(x * 2.0); }, "RuntimeError",
                           "grad can be implicitly created only for scalar outputs"));
  autograd::backward({x * 2.0}, {make({1, 10}, {2})});
  EXPECT_TRUE(all_close(x.grad(), {2, 20}));
  EXPECT_TRUE(throws_error([&] { backward(make({1}, {})); }, "RuntimeError", "does not require grad"));
}

TEST_F(Autograd, GradReturnsGradientsAndLeavesDotGradAlone) {
  Tensor a = leaf({1, 2}, {2}), b = leaf({3, 4}, {2}), unused = leaf({1}, {1});
  Tensors g = autograd::grad({sum(a * b)}, {a, b});
  EXPECT_TRUE(all_close(g[0], {3, 4}));
  EXPECT_TRUE(all_close(g[1], {1, 2}));
  EXPECT_FALSE(a.grad().defined());
  EXPECT_TRUE(throws_error([&] { autograd::grad({sum(a * b)}, {unused}); }, "RuntimeError",
                           "appears to not have been used in the graph"));
  EXPECT_FALSE(autograd::grad({sum(a * b)}, {unused}, {}, std::nullopt, false, true)[0].defined());
}

TEST_F(Autograd, NeedsGradMaskSkipsBranchesThatFeedNoTarget) {
  Tensor a = leaf({1, 2, 3, 4}, {2, 2}), b = leaf({0, 1, 1, 0}, {2, 2});
  Tensor c = exp(b);
  bool ran = false;
  autograd::register_hook(c, [&](const Tensor&) { ran = true; return Tensor(); });
  Tensors g = autograd::grad({sum(mm(a, c))}, {a});
  EXPECT_FALSE(ran);
  EXPECT_TRUE(g[0].defined());
  autograd::backward({sum(mm(a, c))}, {}, std::nullopt, false, {b});
  EXPECT_TRUE(ran);
  EXPECT_FALSE(a.grad().defined());
  EXPECT_TRUE(b.grad().defined());
}

TEST_F(Autograd, CreateGraphGivesHigherOrderGradients) {
  Tensor x = leaf({2, 3}, {2});
  Tensor y = sum(x * x * x);
  Tensor g = autograd::grad({y}, {x}, {}, std::nullopt, true)[0];
  EXPECT_TRUE(g.requires_grad());
  EXPECT_TRUE(all_close(g, {12, 27}));
  Tensor gg = autograd::grad({sum(g)}, {x})[0];
  EXPECT_TRUE(all_close(gg, {12, 18}));
}

TEST_F(Autograd, GradientPenaltyThroughMlp) {
  Tensor w = leaf({0.5, -1, 2, 0.25}, {2, 2}), x = leaf({1, -2, 0.5, 3}, {2, 2});
  Tensor out = sum(tanh(linear(x, w)));
  Tensor gx = autograd::grad({out}, {x}, {}, std::nullopt, true)[0];
  Tensor penalty = sum(gx * gx);
  backward(penalty);
  ASSERT_TRUE(w.grad().defined());
  // Finite difference of the penalty in w[0][0].
  auto pen = [&](double dw) {
    Tensor w2 = leaf({0.5 + dw, -1, 2, 0.25}, {2, 2}, DType::float64), x2 = leaf(x.to_doubles(), {2, 2}, DType::float64);
    Tensor g2 = autograd::grad({sum(tanh(linear(x2, w2)))}, {x2})[0];
    return sum(g2 * g2).item<double>();
  };
  EXPECT_NEAR(w.grad().to_doubles()[0], (pen(1e-5) - pen(-1e-5)) / 2e-5, 1e-3);
}

TEST_F(Autograd, RetainGradAndHooks) {
  Tensor x = leaf({1, 2}, {2});
  Tensor h = x * 2.0;
  autograd::retain_grad(h);
  autograd::register_hook(x, [](const Tensor& g) { return g * 10.0; });
  backward(sum(h * h));
  EXPECT_TRUE(all_close(h.grad(), {4, 8}));
  EXPECT_TRUE(all_close(x.grad(), {80, 160}));
  EXPECT_TRUE(throws_error([&] { autograd::retain_grad(make({1}, {1})); }, "RuntimeError", "requires_grad=False"));
}

TEST_F(Autograd, LeafAndRequiresGradRules) {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = x * 2.0;
  EXPECT_FALSE(y.is_leaf());
  EXPECT_TRUE(y.requires_grad());
  EXPECT_EQ(autograd::grad_fn_name(y), "MulBackward0");
  EXPECT_EQ(autograd::grad_fn_name(mm(x.view({1, 2}), x.view({2, 1}))), "MmBackward0");
  EXPECT_EQ(autograd::grad_fn_name(x), "");
  EXPECT_TRUE(throws_error([&] { y.set_requires_grad(false); }, "RuntimeError", "leaf variables"));
  EXPECT_TRUE(throws_error([&] { make({1}, {1}, DType::int64).set_requires_grad(true); }, "RuntimeError",
                           "floating point"));
  EXPECT_FALSE(argmax(x).requires_grad());
}

TEST_F(Autograd, CastBackwardReturnsSourceDtype) {
  Tensor x = leaf({1, 2}, {2});
  backward(sum(x.to(DType::float64) * x.to(DType::float64)));
  EXPECT_EQ(x.grad().dtype(), DType::float32);
  EXPECT_TRUE(all_close(x.grad(), {2, 4}));
  EXPECT_TRUE(x.to(DType::float32).is_same(x));  // a no-op cast is the tensor itself, still a leaf
}

TEST_F(Autograd, OutArgumentRejectedWhenRecording) {
  Tensor x = leaf({1, 2}, {2}), out = make({0, 0}, {2});
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::add, Args{x, x, 1, out}); }, "RuntimeError",
                           "don't support automatic differentiation"));
}

TEST_F(Autograd, CustomFunctionNodeRunsItsCallback) {
  Tensor x = leaf({1, 2}, {2});
  Tensor y;
  {
    GradModeGuard no_grad(false);
    y = x * x;
  }
  Tensor saved = x.detach();
  y = autograd::record_function("SquareBackward", {x}, {y}, [saved](const Tensors& g) {
    return Tensors{g[0] * saved * 2.0};
  })[0];
  EXPECT_EQ(autograd::grad_fn_name(y), "SquareBackward");
  backward(sum(y));
  EXPECT_TRUE(all_close(x.grad(), {2, 4}));
}

TEST_F(Autograd, ViewOfLeafInPlaceIsAnError) {
  Tensor x = leaf({1, 2, 3}, {3});
  Tensor v = x.slice(0, 0, 2);
  EXPECT_TRUE(throws_error([&] { mul_(v, Tensor::scalar(2.0)); }, "RuntimeError",
                           "a view of a leaf Variable that requires grad is being used in an in-place operation."));
}

TEST_F(Autograd, InPlaceOnViewRebasesTheBase) {
  Tensor x = leaf({1, 2, 3}, {3}), w = leaf({5}, {});
  Tensor h = x * 2.0;
  Tensor v = h.select(0, 1);
  v.copy_(w * 3.0);
  EXPECT_EQ(autograd::grad_fn_name(h), "CopySlices");
  backward(sum(h * h));  // h = [2, 3w, 6]
  EXPECT_TRUE(all_close(x.grad(), {8, 0, 24}));
  EXPECT_TRUE(all_close(w.grad(), {90}));
}

TEST_F(Autograd, InPlaceWriteIntoBufferGivesItHistory) {
  Tensor w = leaf({1, 2}, {2});
  Tensor buf = zeros({2, 2});
  Tensor row = buf.select(0, 1);
  row.copy_(w * w);
  mul_(row, Tensor::scalar(3.0));
  ASSERT_TRUE(buf.requires_grad());
  backward(sum(buf));
  EXPECT_TRUE(all_close(w.grad(), {6, 12}));
  EXPECT_EQ(autograd::grad_fn_name(row), "AsStridedBackward0");
}

}  // namespace
}  // namespace amps::rt
