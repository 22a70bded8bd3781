// Tests for convolution and pooling kernels against direct float64 loops.
#include <gtest/gtest.h>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

// Direct 2-D cross-correlation, stride s, padding p, one group.
std::vector<double> ref_conv2d(const std::vector<double>& x, const std::vector<double>& w, int64_t N, int64_t C,
                               int64_t H, int64_t W, int64_t O, int64_t K, int64_t s, int64_t p) {
  const int64_t OH = (H + 2 * p - K) / s + 1, OW = (W + 2 * p - K) / s + 1;
  std::vector<double> out(size_t(N * O * OH * OW), 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t i = 0; i < OH; ++i)
        for (int64_t j = 0; j < OW; ++j) {
          double acc = 0;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t ki = 0; ki < K; ++ki)
              for (int64_t kj = 0; kj < K; ++kj) {
                int64_t h = i * s - p + ki, ww = j * s - p + kj;
                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                acc += x[size_t(((n * C + c) * H + h) * W + ww)] * w[size_t(((o * C + c) * K + ki) * K + kj)];
              }
          out[size_t(((n * O + o) * OH + i) * OW + j)] = acc;
        }
  return out;
}

TEST(Conv, Conv2dMatchesDirectLoops) {
  std::vector<double> x = wavy(2 * 3 * 6 * 5), w = wavy(4 * 3 * 3 * 3, 0.5);
  Tensor X = make(x, {2, 3, 6, 5}), Wt = make(w, {4, 3, 3, 3});
  Tensor y = conv2d(X, Wt, Tensor(), {2}, {1});
  EXPECT_EQ(y.sizes(), (Dims{2, 4, 3, 3}));
  EXPECT_TRUE(all_close(y, ref_conv2d(x, w, 2, 3, 6, 5, 4, 3, 2, 1), 1e-4, 1e-4));
  Tensor b = make({1, 2, 3, 4}, {4});
  Tensor yb = conv2d(X, Wt, b, {1}, {0});
  std::vector<double> r = ref_conv2d(x, w, 2, 3, 6, 5, 4, 3, 1, 0);
  for (size_t i = 0; i < r.size(); ++i) r[i] += double((i / 12) % 4 + 1);
  EXPECT_TRUE(all_close(yb, r, 1e-4, 1e-4));
  EXPECT_TRUE(throws_error([&] { conv2d(make(x, {2, 3, 6, 5}), make(wavy(32), {2, 4, 2, 2})); }, "RuntimeError",
                           "expected input[2, 3, 6, 5] to have 4 channels, but got 3 channels instead"));
}

TEST(Conv, TransposedConvInvertsShapes) {
  Tensor x = make(wavy(2 * 4 * 3 * 3), {2, 4, 3, 3});
  Tensor w = make(wavy(4 * 2 * 3 * 3), {4, 2, 3, 3});
  Tensor y = call_op(OpId::conv_transpose2d, x, w, IValue(), Dims{2}, Dims{1}, Dims{1});
  EXPECT_EQ(y.sizes(), (Dims{2, 2, 6, 6}));
  Tensor one = call_op(OpId::conv_transpose1d, make({1, 2}, {1, 1, 2}), make({1, 10}, {1, 1, 2}));
  EXPECT_TRUE(all_close(one, {1, 12, 20}));
}

TEST(Pool, MaxAndAvgPooling) {
  Tensor x = make({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 1, 4, 4});
  EXPECT_TRUE(all_close(max_pool2d(x, {2}), {6, 8, 14, 16}));
  EXPECT_TRUE(all_close(avg_pool2d(x, {2}), {3.5, 5.5, 11.5, 13.5}));
  Tensors r = dispatch(OpId::max_pool2d_with_indices, Args{x, Dims{2}});
  EXPECT_TRUE(all_close(r[1], {5, 7, 13, 15}));
  EXPECT_EQ(call_op(OpId::max_pool2d, x, Dims{3}, Dims{2}, Dims{0}, Dims{1}, true).sizes(), (Dims{1, 1, 2, 2}));
  EXPECT_TRUE(all_close(call_op(OpId::adaptive_avg_pool2d, x, Dims{1}), {8.5}));
}

}  // namespace
}  // namespace amps::rt
