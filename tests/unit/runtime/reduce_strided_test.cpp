// Tests for the strided and split reduction paths: reductions over non-trailing dims give bit-identical
// results to the same reduction of a row-major copy, and reduce-all split across threads stays exact.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::wavy;

// [x] reduced over [dims] by [op] (remaining args [rest]) equals, bit for bit, the reduction of a row-major
// copy permuted so the reduced dims come last (the layout the kernels read in place).
void expect_same_as_dense(OpId op, const Tensor& x, const Dims& dims, const Dims& perm, Args rest) {
  Tensor dense = x.permute(perm).contiguous();
  Dims tail;
  for (size_t i = perm.size() - dims.size(); i < perm.size(); ++i) tail.push_back(int64_t(i));
  Args a{x, dims}, b{dense, tail};
  a.insert(a.end(), rest.begin(), rest.end());
  b.insert(b.end(), rest.begin(), rest.end());
  EXPECT_TRUE(all_close(dispatch(op, a)[0], dispatch(op, b)[0].to_doubles(), 0, 0)) << op_name(op);
}

TEST(ReduceStrided, NonTrailingDimsMatchDenseBitForBit) {
  for (DType dt : {DType::float32, DType::float64, DType::bfloat16}) {
    Tensor x = make(wavy(4 * 5 * 6 * 7, 0.4), {4, 5, 6, 7}, dt);
    for (OpId op : {OpId::sum, OpId::mean, OpId::amax, OpId::amin, OpId::logsumexp}) {
      expect_same_as_dense(op, x, {0}, {1, 2, 3, 0}, {});
      expect_same_as_dense(op, x, {0, 2}, {1, 3, 0, 2}, {});
      expect_same_as_dense(op, x, {1, 3}, {0, 2, 1, 3}, {});
    }
    expect_same_as_dense(OpId::var, x, {0, 2}, {1, 3, 0, 2}, {});
    Tensor xt = x.transpose(1, 3);
    EXPECT_TRUE(all_close(norm(xt, 3.0, Dims{1}), norm(xt.permute({0, 2, 3, 1}).contiguous(), 3.0, Dims{3}).to_doubles(), 0, 0));
  }
  Tensor x = make(wavy(6 * 9), {6, 9});
  Tensor xt = x.t();  // non-contiguous input, reduced over its trailing dim
  EXPECT_TRUE(all_close(sum(xt, Dims{1}), sum(xt.contiguous(), Dims{1}), 0, 0));
  auto [v, i] = max(x, 0);
  auto [vd, id] = max(x.t().contiguous(), 1);
  EXPECT_TRUE(all_close(v, vd, 0, 0));
  EXPECT_TRUE(all_close(i, id, 0, 0));
  EXPECT_TRUE(all_close(call_op(OpId::prod, x, int64_t(0)), call_op(OpId::prod, x.t().contiguous(), int64_t(1)), 0, 0));
  EXPECT_TRUE(all_close(call_op(OpId::any, make({0, 0, 1, 0, 0, 0}, {3, 2}), int64_t(0)), {1, 0}));
  EXPECT_TRUE(all_close(call_op(OpId::all, make({1, 1, 1, 0, 1, 1}, {3, 2}), int64_t(0)), {1, 0}));
}

TEST(ReduceStrided, ColumnSumsOfAWideMatrix) {
  const int64_t R = 3000, K = 70;
  std::vector<double> v = wavy(R * K, 0.8);
  Tensor x = make(v, {R, K});
  std::vector<double> want(size_t(K), 0.0);
  std::vector<double> xs = x.to_doubles();
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) want[size_t(k)] += xs[size_t(r * K + k)];
  EXPECT_TRUE(all_close(sum(x, Dims{0}), want, 1e-4, 1e-6));
  for (double& w : want) w /= double(R);
  EXPECT_TRUE(all_close(mean(x, Dims{0}), want, 1e-6, 1e-6));
}

TEST(ReduceStrided, SplitReduceAllIsExact) {
  const int64_t n = 1 << 21;
  std::vector<double> v = wavy(n, 0.3);
  v[size_t(n / 2 + 5)] = 3.0;  // the maximum sits in the second half, twice
  v[size_t(n - 7)] = 3.0;
  v[size_t(n / 3)] = -3.0;
  Tensor x = make(v, {n}, DType::float64);
  double want = 0;
  for (double d : v) want += d;
  EXPECT_NEAR(sum(x).item<double>(), want, 1e-9);
  EXPECT_EQ(argmax(x).item<int64_t>(), n / 2 + 5);
  EXPECT_EQ(argmin(x).item<int64_t>(), n / 3);
  EXPECT_EQ(max(x).item<double>(), 3.0);
  v[size_t(n - 3)] = NAN;
  v[size_t(n - 2)] = NAN;
  Tensor xn = make(v, {n}, DType::float64);
  EXPECT_EQ(argmax(xn).item<int64_t>(), n - 3);
  EXPECT_TRUE(std::isnan(max(xn).item<double>()));
  EXPECT_TRUE(call_op(OpId::all, make(std::vector<double>(size_t(n), 1.0), {n})).item<bool>());
  std::vector<double> ones(size_t(n), 1.0);
  ones[size_t(n - 1)] = 0;
  EXPECT_FALSE(call_op(OpId::all, make(ones, {n})).item<bool>());
  EXPECT_TRUE(call_op(OpId::any, make(ones, {n})).item<bool>());
}

}  // namespace
}  // namespace amps::rt
