// Tests for the reduction kernels against float64 references: dims, keepdim, dtypes, indices, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

TEST(Reduce, SumOverDimsAndKeepdim) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(all_close(sum(a), {21}));
  EXPECT_TRUE(all_close(sum(a, Dims{0}), {5, 7, 9}));
  EXPECT_TRUE(all_close(sum(a, Dims{-1}), {6, 15}));
  EXPECT_EQ(sum(a, Dims{1}, true).sizes(), (Dims{2, 1}));
  EXPECT_EQ(sum(a).dim(), 0);
  EXPECT_EQ(sum(make({1, 2}, {2}, DType::int32)).dtype(), DType::int64);
  EXPECT_EQ(sum(make({1, 2}, {2}, DType::bool_)).item<int64_t>(), 2);
  EXPECT_EQ(sum(a, std::nullopt, false, DType::float64).dtype(), DType::float64);
  EXPECT_TRUE(throws_error([&] { sum(a, Dims{0, 0}); }, "RuntimeError", "appears multiple times"));
}

TEST(Reduce, LargeFloatSumIsAccurate) {
  std::vector<double> x = wavy(1 << 20);
  double want = 0;
  Tensor t = make(x, {int64_t(x.size())});
  for (double v : t.to_doubles()) want += v;
  EXPECT_NEAR(sum(t).item<double>(), want, 1e-6 * std::fabs(want) + 1e-3);
  Tensor b = make(x, {int64_t(x.size())}, DType::bfloat16);
  double wb = 0;
  for (double v : b.to_doubles()) wb += v;
  EXPECT_NEAR(sum(b).item<double>(), wb, std::fabs(wb) / 128 + 1);  // accumulated in float, rounded once
}

TEST(Reduce, MeanVarStdNorm) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3}, DType::float64);
  EXPECT_TRUE(all_close(mean(a, Dims{1}), {2, 5}));
  EXPECT_TRUE(all_close(var(a), {3.5}));
  EXPECT_TRUE(all_close(var(a, Dims{1}, 0), {2.0 / 3, 2.0 / 3}));
  EXPECT_TRUE(all_close(rt::std(a, Dims{0}), {2.1213203435596424, 2.1213203435596424, 2.1213203435596424}));
  EXPECT_TRUE(all_close(norm(a), {std::sqrt(91.0)}));
  EXPECT_TRUE(all_close(norm(a, 1.0, Dims{1}), {6, 15}));
  EXPECT_TRUE(all_close(norm(a, INFINITY), {6}));
  EXPECT_TRUE(throws_error([&] { mean(make({1, 2}, {2}, DType::int64)); }, "RuntimeError",
                           "mean(): could not infer output dtype"));
}

TEST(Reduce, MaxMinArgmaxWithIndices) {
  Tensor a = make({3, 9, 1, 7, 2, 9}, {2, 3});
  EXPECT_EQ(max(a).item<double>(), 9);
  EXPECT_EQ(min(a).item<double>(), 1);
  auto [v, i] = max(a, 1);
  EXPECT_TRUE(all_close(v, {9, 9}));
  EXPECT_TRUE(all_close(i, {1, 2}));
  EXPECT_EQ(i.dtype(), DType::int64);
  EXPECT_TRUE(all_close(argmax(a), {1}));
  EXPECT_TRUE(all_close(argmin(a, int64_t(0)), {0, 1, 0}));
  EXPECT_EQ(argmax(a, std::nullopt, true).sizes(), (Dims{1, 1}));
  EXPECT_TRUE(all_close(max(make({1, NAN, 3}, {3})), {NAN}));
  EXPECT_TRUE(throws_error([&] { max(Tensor::empty({0})); }, "RuntimeError", "Expected reduction dim"));
}

TEST(Reduce, ProdAllAnyLogsumexpCumsum) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(all_close(prod(a), {24}));
  EXPECT_TRUE(all_close(prod(a, int64_t(0)), {3, 8}));
  EXPECT_TRUE(all(gt(a, 0.0)).item<bool>());
  EXPECT_FALSE(all(gt(a, 1.0)).item<bool>());
  EXPECT_TRUE(any(gt(a, 3.5)).item<bool>());
  EXPECT_TRUE(all_close(call_op(OpId::logsumexp, a, Dims{1}), {std::log(std::exp(1) + std::exp(2)),
                                                               std::log(std::exp(3) + std::exp(4))}));
  EXPECT_TRUE(all_close(call_op(OpId::cumsum, a, int64_t(0)), {1, 2, 4, 6}));
  EXPECT_TRUE(all_close(call_op(OpId::cumsum, a, int64_t(1)), {1, 3, 3, 7}));
}

TEST(Reduce, NonContiguousInputs) {
  std::vector<double> x = wavy(24);
  Tensor a = make(x, {2, 3, 4}, DType::float64).permute({2, 0, 1});
  Tensor s = sum(a, Dims{1, 2});
  for (int64_t k = 0; k < 4; ++k) {
    double want = 0;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) want += x[size_t(i * 12 + j * 4 + k)];
    EXPECT_NEAR(s.to_doubles()[size_t(k)], want, 1e-12);
  }
}

}  // namespace
}  // namespace amps::rt
