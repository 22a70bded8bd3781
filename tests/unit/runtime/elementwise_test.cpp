// Tests for the elementwise kernels: broadcasting, type promotion, in-place rules, unary math vs float64.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

TEST(Binary, AddBroadcastsWithAlpha) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = make({10, 20, 30}, {3});
  EXPECT_TRUE(all_close(add(a, b, 2.0), {21, 42, 63, 24, 45, 66}));
  EXPECT_TRUE(all_close(sub(a, make({1, 2}, {2, 1})), {0, 1, 2, 2, 3, 4}));
  EXPECT_TRUE(throws_error([&] { add(a, make({1, 2}, {2})); }, "RuntimeError",
                           "add: shapes (2, 3) and (2,) are not broadcastable"));
}

TEST(Binary, TypePromotionFollowsPyTorch) {
  Tensor i = make({1, 2}, {2}, DType::int64);
  EXPECT_EQ((i + 2.5).dtype(), DType::float32);
  EXPECT_EQ((i + int64_t(2)).dtype(), DType::int64);
  EXPECT_EQ(add(make({1}, {1}, DType::float16), make({1}, {1}, DType::bfloat16)).dtype(), DType::float32);
  EXPECT_EQ(add(make({1}, {1}, DType::float16), make({1}, {}, DType::float32)).dtype(), DType::float16);
  EXPECT_EQ(add(make({1}, {1}, DType::int32), make({1}, {}, DType::float64)).dtype(), DType::float64);
  EXPECT_EQ(add(make({1}, {1}, DType::bool_), Tensor::scalar(int64_t(3))).dtype(), DType::int64);
  EXPECT_EQ((make({1, 2}, {2}, DType::int32) + int64_t(1)).dtype(), DType::int32);
  Tensor q = div(i, make({2, 2}, {2}, DType::int64));
  EXPECT_EQ(q.dtype(), DType::float32);
  EXPECT_TRUE(all_close(q, {0.5, 1.0}));
}

TEST(Binary, HalfTypesComputeInFloatAndRoundOnce) {
  Tensor a = make({1.0, 3.0}, {2}, DType::bfloat16), b = make({0.00390625, 0.01171875}, {2}, DType::bfloat16);
  std::vector<double> got = add(a, b).to_doubles();
  EXPECT_EQ(got[0], double(float(BFloat16(1.0f + 0.00390625f))));
  EXPECT_EQ(got[1], double(float(BFloat16(3.0f + 0.01171875f))));
  Tensor h = make({65504}, {1}, DType::float16);
  EXPECT_TRUE(std::isinf(add(h, make({16}, {1}, DType::float16)).item<double>()));
}

TEST(Binary, InPlaceRules) {
  Tensor i = make({1, 2}, {2}, DType::int64);
  EXPECT_TRUE(throws_error([&] { add_(i, make({0.5, 0.5}, {2})); }, "RuntimeError",
                           "result type float32 can't be cast to the desired output type int64"));
  Tensor f = make({1, 2}, {2});
  uint32_t v = f.version();
  add_(f, i);
  EXPECT_TRUE(all_close(f, {2, 4}));
  EXPECT_GT(f.version(), v);
  Tensor small = make({1, 2}, {2});
  EXPECT_TRUE(throws_error([&] { add_(small, make({1, 2, 3, 4}, {2, 2})); }, "RuntimeError",
                           "output with shape (2,) doesn't match the broadcast shape (2, 2)"));
}

TEST(Binary, DivisionModesAndRemainder) {
  Tensor a = make({7, -7, 7, -7}, {4}), b = make({2, 2, -2, -2}, {4});
  EXPECT_TRUE(all_close(div(a, b, std::string("trunc")), {3, -3, -3, 3}));
  EXPECT_TRUE(all_close(div(a, b, std::string("floor")), {3, -4, -4, 3}));
  Tensor r = call_op(OpId::remainder, a, b);
  EXPECT_TRUE(all_close(r, {1, 1, -1, -1}));
  Tensor ai = make({7, -7}, {2}, DType::int64);
  EXPECT_TRUE(all_close(call_op(OpId::floor_divide, ai, int64_t(2)), {3, -4}));
  EXPECT_TRUE(throws_error([&] { call_op(OpId::remainder, ai, int64_t(0)); }, "ZeroDivisionError", "ZeroDivision"));
}

TEST(Binary, ComparisonsAndLogicalGiveBool) {
  Tensor a = make({1, 2, 3}, {3});
  Tensor c = lt(a, 2.5);
  EXPECT_EQ(c.dtype(), DType::bool_);
  EXPECT_TRUE(all_close(c, {1, 1, 0}));
  EXPECT_TRUE(all_close(eq(a, make({1, 0, 3}, {3}, DType::int64)), {1, 0, 1}));
  EXPECT_TRUE(all_close(maximum(a, make({NAN, 0, 5}, {3})), {NAN, 2, 5}));
}

TEST(Ternary, WhereMaskedFillAddcmulLerp) {
  Tensor a = make({1, 2, 3, 4}, {2, 2}), b = make({10, 20}, {2});
  Tensor cond = gt(a, 2.5);
  EXPECT_TRUE(all_close(where(cond, a, b), {10, 20, 3, 4}));
  EXPECT_TRUE(all_close(masked_fill(a, cond, -1.0), {1, 2, -1, -1}));
  EXPECT_TRUE(all_close(addcmul(a, a, b, 0.5), {6, 22, 18, 44}));
  EXPECT_TRUE(all_close(addcdiv(a, b, a, 2.0), {21, 22, 9.6666667, 14}));
  EXPECT_TRUE(all_close(lerp(a, b, make({0.25}, {})), {3.25, 6.5, 4.75, 8}));
  EXPECT_TRUE(throws_error([&] { where(a, a, b); }, "RuntimeError", "where expected condition to be a boolean"));
}

TEST(Unary, MatchesFloat64Reference) {
  std::vector<double> x = wavy(40);
  Tensor t = make(x, {40}, DType::float64);
  auto check = [&](const Tensor& got, double (*ref)(double)) {
    std::vector<double> want;
    for (double v : x) want.push_back(ref(v));
    return all_close(got, want, 1e-12, 1e-12);
  };
  EXPECT_TRUE(check(exp(t), [](double v) { return std::exp(v); }));
  EXPECT_TRUE(check(tanh(t), [](double v) { return std::tanh(v); }));
  EXPECT_TRUE(check(sigmoid(t), [](double v) { return 1 / (1 + std::exp(-v)); }));
  EXPECT_TRUE(check(relu(t), [](double v) { return v > 0 ? v : 0.0; }));
  EXPECT_TRUE(check(gelu(t), [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }));
  EXPECT_TRUE(check(silu(t), [](double v) { return v / (1 + std::exp(-v)); }));
  EXPECT_TRUE(check(abs(t), [](double v) { return std::fabs(v); }));
  EXPECT_TRUE(check(call_op(OpId::softplus, t), [](double v) { return std::log1p(std::exp(v)); }));
  EXPECT_TRUE(check(call_op(OpId::leaky_relu, t, 0.1), [](double v) { return v > 0 ? v : 0.1 * v; }));
}

TEST(Unary, LowPrecisionWithinRounding) {
  std::vector<double> x = wavy(64);
  Tensor t = make(x, {64}, DType::bfloat16);
  std::vector<double> want;
  for (double v : t.to_doubles()) want.push_back(std::exp(v));
  EXPECT_TRUE(all_close(exp(t), want, 0, 1.0 / 128));
  EXPECT_EQ(exp(t).dtype(), DType::bfloat16);
}

TEST(Unary, IntegerInputsPromoteForFloatMath) {
  Tensor i = make({1, 4, 9}, {3}, DType::int64);
  EXPECT_EQ(sqrt(i).dtype(), DType::float32);
  EXPECT_TRUE(all_close(sqrt(i), {1, 2, 3}));
  EXPECT_EQ(abs(i).dtype(), DType::int64);
  EXPECT_TRUE(throws_error([&] { call_op(OpId::sqrt_, i); }, "RuntimeError", "can't be cast"));
}

TEST(Unary, ClampNanToNumAndPredicates) {
  Tensor a = make({-2, 0.5, 3, NAN}, {4});
  EXPECT_TRUE(all_close(clamp(a, Scalar(-1.0), Scalar(1.0)), {-1, 0.5, 1, NAN}));
  EXPECT_TRUE(all_close(clamp(a, std::nullopt, Scalar(0.0)), {-2, 0, 0, NAN}));
  Tensor inf = make({INFINITY, -INFINITY, NAN, 1}, {4}, DType::float16);
  EXPECT_TRUE(all_close(call_op(OpId::nan_to_num, inf), {65504, -65504, 0, 1}));
  EXPECT_TRUE(all_close(isfinite(inf), {0, 0, 0, 1}));
  EXPECT_TRUE(all_close(call_op(OpId::isnan, inf), {0, 0, 1, 0}));
  EXPECT_TRUE(throws_error([&] { clamp(a, std::nullopt, std::nullopt); }, "RuntimeError", "At least one of"));
}

TEST(Unary, PreluUsesPerChannelSlopes) {
  Tensor x = make({-1, 2, -3, 4}, {1, 2, 2});
  Tensor w = make({0.5, 0.25}, {2});
  EXPECT_TRUE(all_close(call_op(OpId::prelu, x, w), {-0.5, 2, -0.75, 4}));
}

TEST(Elementwise, StridedAndLargeInputsMatchContiguous) {
  std::vector<double> x = wavy(300 * 257);
  Tensor a = make(x, {300, 257});
  Tensor at = a.t();  // non-contiguous
  Tensor s = add(at, at.contiguous());
  std::vector<double> want(x.size());
  std::vector<double> got = s.to_doubles();
  for (int64_t i = 0; i < 257; ++i)
    for (int64_t j = 0; j < 300; ++j) ASSERT_NEAR(got[size_t(i * 300 + j)], 2 * x[size_t(j * 257 + i)], 1e-6);
}

// Dense same-shape operands take the kernels' direct path (vectorised float32 loops); the results must be
// bit-identical to the general broadcasting path, which a non-contiguous copy of the same values takes.
TEST(Elementwise, DenseSameShapeMatchesGeneralPath) {
  for (int64_t n : {1, 3, 17, 64 * 64, 70001}) {
    for (DType dt : {DType::float32, DType::float64, DType::bfloat16}) {
      Tensor a = make(wavy(n), {n}, dt), b = make(wavy(n, 0.3), {n}, dt);
      b = add(b, make({1.5}, {1}, dt));  // no zeros to divide by
      // The same values as b, read through a stride-2 view (general path).
      Tensor wide = Tensor::empty({n, 2}, dt);
      wide.select(1, 0).copy_(b);
      Tensor bs = wide.select(1, 0);
      if (n > 1) {
        ASSERT_FALSE(bs.is_contiguous());  // (one element is dense whatever its stride)
      }
      for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::maximum, OpId::lt}) {
        Tensor fast = call_op(op, a, b), slow = call_op(op, a, bs);
        ASSERT_EQ(fast.dtype(), slow.dtype());
        ASSERT_EQ(fast.sizes(), slow.sizes());
        ASSERT_EQ(fast.to_doubles(), slow.to_doubles()) << op_name(op) << " n=" << n;
      }
      Tensor fast = add(a, b, 0.5), slow = add(a, bs, 0.5);
      ASSERT_EQ(fast.to_doubles(), slow.to_doubles()) << "add alpha n=" << n;
    }
  }
}

// threshold_backward (relu's gradient) equals compare-and-select in every float dtype: dense operands (the
// flat loop), a strided self (the general path), values at the threshold (0) and NaN (PyTorch passes
// the gradient: its test is self <= threshold).
TEST(Elementwise, ThresholdBackwardIsCompareAndSelect) {
  for (int64_t n : {1, 17, 70001}) {
    for (DType dt : {DType::float32, DType::float64, DType::bfloat16, DType::float16}) {
      std::vector<double> xv = wavy(n);
      for (size_t i = 0; i < xv.size(); i += 7) xv[i] = i % 2 ? 0.25 : std::nan("");
      Tensor g = make(wavy(n, 0.3), {n}, dt), x = make(xv, {n}, dt);
      Tensor wide = Tensor::empty({n, 2}, dt);
      wide.select(1, 0).copy_(x);
      Tensor want = call_op(OpId::where, call_op(OpId::logical_not, call_op(OpId::le, x, 0.25)), g, 0.0);
      for (const Tensor& self : {x, wide.select(1, 0)}) {
        Tensor got = call_op(OpId::threshold_backward, g, self, 0.25);
        ASSERT_EQ(got.dtype(), dt);
        ASSERT_EQ(got.to_doubles(), want.to_doubles()) << dtype_name(dt) << " n=" << n;
      }
    }
  }
}

// Tensors made on one thread and freed on another go through the per-thread pools without harm.
TEST(Elementwise, ResultsFreedOnAnotherThread) {
  std::vector<Tensor> made;
  for (int i = 0; i < 200; ++i) made.push_back(add(make({1, 2}, {2}), make({3, 4}, {2})));
  std::thread t([&] {
    made.clear();
    for (int i = 0; i < 200; ++i) made.push_back(mul(make({1, 2}, {2}), make({3, 4}, {2})));
  });
  t.join();
  EXPECT_TRUE(all_close(made.back(), {3, 8}));
  made.clear();
}

}  // namespace
}  // namespace amps::rt
