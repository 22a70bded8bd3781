// Tests of the oneDNN softmax/log_softmax helper (any axis, strided, mixed dtypes) against double loops.
#include "runtime/backend/cpu/dnnl_softmax.hpp"

#include "tests/unit/runtime/dnnl_test_util.hpp"

namespace amps::rt::dnnl_cpu::test {
namespace {

// Calls f(flat indices of one softmax row) for every row along 'axis'.
template <class F>
void each_row(const Dims& d, int axis, F&& f) {
  int64_t inner = 1, outer = 1;
  for (size_t i = axis + 1; i < d.size(); ++i) inner *= d[i];
  for (int i = 0; i < axis; ++i) outer *= d[i];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      std::vector<int64_t> row;
      for (int64_t a = 0; a < d[axis]; ++a) row.push_back((o * d[axis] + a) * inner + in);
      f(row);
    }
}

void run_softmax(DnnlType t, DnnlType out_t, int axis, bool log, Dims perm = {}) {
  const Dims d{3, 4, 5};
  HostTensor x = HostTensor::random(d, t, 1, perm, 1, -4, 4), y = HostTensor::make(d, out_t);
  HostTensor dy = HostTensor::random(d, out_t, 2), dx = HostTensor::make(d, out_t, perm);
  std::vector<double> ry(y.numel()), rdx(y.numel());
  softmax_forward(x.arg(), y.arg(), axis, log);
  each_row(d, axis, [&](const std::vector<int64_t>& row) {
    double mx = -INFINITY, sum = 0, sdy = 0, sdyy = 0;
    for (int64_t i : row) mx = std::max(mx, x.get(i));
    for (int64_t i : row) sum += std::exp(x.get(i) - mx);
    for (int64_t i : row) ry[i] = log ? x.get(i) - mx - std::log(sum) : std::exp(x.get(i) - mx) / sum;
    for (int64_t i : row) sdy += dy.get(i), sdyy += dy.get(i) * y.get(i);
    for (int64_t i : row) rdx[i] = log ? dy.get(i) - std::exp(y.get(i)) * sdy : y.get(i) * (dy.get(i) - sdyy);
  });
  expect_close(y, ry);
  softmax_backward(y.arg(), dy.arg(), dx.arg(), axis, log);
  expect_close(dx, rdx, 0, 1);
}

class SoftmaxTest : public ::testing::TestWithParam<DnnlType> {};

TEST_P(SoftmaxTest, EveryAxis) {
  for (int axis = 0; axis < 3; ++axis) run_softmax(GetParam(), GetParam(), axis, false);
}

TEST_P(SoftmaxTest, LogSoftmaxEveryAxisStrided) {
  for (int axis = 0; axis < 3; ++axis) run_softmax(GetParam(), GetParam(), axis, true, {2, 0, 1});
}

TEST_P(SoftmaxTest, WritesF32FromLowPrecision) { run_softmax(GetParam(), DnnlType::f32, 2, true); }

INSTANTIATE_TEST_SUITE_P(Dtypes, SoftmaxTest,
                         ::testing::Values(DnnlType::f32, DnnlType::bf16, DnnlType::f16));

TEST(SoftmaxErrors, BadAxisThrows) {
  HostTensor x = HostTensor::random({2, 3}, DnnlType::f32, 1), y = HostTensor::make({2, 3}, DnnlType::f32);
  EXPECT_THROW(softmax_forward(x.arg(), y.arg(), 2, false), DnnlError);
}

}  // namespace
}  // namespace amps::rt::dnnl_cpu::test
