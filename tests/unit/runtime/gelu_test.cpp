// gelu and gelu_backward vs float64 references (both forms, every float dtype, the oneDNN path of large dense
// float32/bfloat16 tensors and the scalar loop), PyTorch's special values, and higher-order gradients.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "autograd_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::make;
using test::wavy;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");
const char* const kModes[] = {"none", "tanh"};
const DType kFloats[] = {DType::float32, DType::bfloat16, DType::float16, DType::float64};

// ---- float64 references: PyTorch's formulas ----
double pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI); }
constexpr double kK = 0.7978845608028654, kKappa = 0.044715;  // sqrt(2 / pi)
double inner(double x) { return kK * (x + kKappa * x * x * x); }
double ref_gelu(double x, bool tanh_form) {
  return tanh_form ? 0.5 * x * (1 + std::tanh(inner(x))) : 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}
double ref_grad(double x, bool tanh_form) {
  if (!tanh_form) return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * pdf(x);
  const double t = std::tanh(inner(x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kK * (1 + 3 * kKappa * x * x);
}
double ref_second(double x, bool tanh_form) {
  if (!tanh_form) return pdf(x) * (2 - x * x);
  const double t = std::tanh(inner(x)), du = kK * (1 + 3 * kKappa * x * x);
  return (1 - t * t) * (du - x * t * du * du + 3 * kKappa * kK * x * x);
}

// Error allowed for a result of [dt] computed from input x: the float32 formula's cancellation in 1 + erf
// (absolute, growing with |x|) plus one rounding to the dtype (relative).
double tolerance(DType dt, double x, double want) {
  if (dt == DType::float64) return 1e-12 * (1 + std::fabs(want));
  const double rel = dt == DType::bfloat16 ? 1.0 / 128 : dt == DType::float16 ? 1.0 / 1024 : 2e-6;
  return 1e-6 * (1 + std::fabs(x)) + rel * std::fabs(want);
}

::testing::AssertionResult near_ref(const Tensor& got, const std::vector<double>& x, const std::vector<double>& want) {
  std::vector<double> g = got.to_doubles();
  for (size_t i = 0; i < g.size(); ++i)
    if (!(std::fabs(g[i] - want[i]) <= tolerance(got.dtype(), x[i], want[i])))
      return ::testing::AssertionFailure() << dtype_name(got.dtype()) << " element " << i << " (x = " << x[i]
                                           << "): got " << g[i] << ", expected " << want[i];
  return ::testing::AssertionSuccess();
}

// [n] inputs over [-8, 8) and beyond, as stored in [dt] (the reference starts from the rounded values).
std::vector<double> inputs(int64_t n, DType dt) {
  std::vector<double> v = wavy(n);
  for (size_t i = 0; i < v.size(); ++i) v[i] *= i % 5 == 0 ? 12.0 : 8.0;
  if (n > 4) v[0] = 1e4, v[1] = -1e4, v[2] = 1e-30, v[3] = -3e-5;
  return make(v, {n}, dt).to_doubles();
}

// 17 elements take the scalar loop everywhere; 70001 take oneDNN for float32/bfloat16 (and several threads).
const int64_t kSizes[] = {17, 70001};

TEST(Gelu, ForwardMatchesFloat64Reference) {
  for (int64_t n : kSizes)
    for (DType dt : kFloats)
      for (const char* mode : kModes) {
        const bool tanh_form = std::string(mode) == "tanh";
        std::vector<double> x = inputs(n, dt), want;
        for (double v : x) want.push_back(ref_gelu(v, tanh_form));
        Tensor got = gelu(make(x, {n}, dt), mode);
        ASSERT_EQ(got.dtype(), dt);
        EXPECT_TRUE(near_ref(got, x, want)) << mode << " n=" << n;
      }
}

TEST(Gelu, BackwardMatchesFloat64Reference) {
  for (int64_t n : kSizes)
    for (DType dt : kFloats)
      for (const char* mode : kModes) {
        const bool tanh_form = std::string(mode) == "tanh";
        std::vector<double> x = inputs(n, dt), g = make(wavy(n, 0.4), {n}, dt).to_doubles(), want;
        for (size_t i = 0; i < x.size(); ++i) want.push_back(g[i] * ref_grad(x[i], tanh_form));
        Tensor got = call_op(OpId::gelu_backward, make(g, {n}, dt), make(x, {n}, dt), std::string(mode));
        ASSERT_EQ(got.dtype(), dt);
        EXPECT_TRUE(near_ref(got, x, want)) << mode << " n=" << n;
      }
}

// The oneDNN path (dense) agrees with the scalar loop (the same values through a strided view).
TEST(Gelu, DenseAndStridedPathsAgree) {
  const int64_t n = 50000;
  for (DType dt : {DType::float32, DType::bfloat16})
    for (const char* mode : kModes) {
      Tensor x = make(inputs(n, dt), {n}, dt), g = make(wavy(n, 1.1), {n}, dt);
      Tensor wide = Tensor::empty({n, 2}, dt);
      wide.select(1, 0).copy_(x);
      Tensor xs = wide.select(1, 0);
      std::vector<double> xv = x.to_doubles();
      EXPECT_TRUE(near_ref(gelu(x, mode), xv, gelu(xs, mode).to_doubles())) << mode;
      Tensor fast = call_op(OpId::gelu_backward, g, x, std::string(mode));
      Tensor slow = call_op(OpId::gelu_backward, g, xs, std::string(mode));
      EXPECT_TRUE(near_ref(fast, xv, slow.to_doubles())) << mode;
    }
}

// PyTorch's results at the edges: gelu(-inf) and gelu'(+-inf) are NaN (inf * 0 in the formulas), -0 gives 0.
TEST(Gelu, SpecialValues) {
  const std::vector<double> x = {kNaN, kInf, -kInf, -0.0, 0.0, 4096, -4096};  // exact in every float dtype
  const std::vector<double> fwd = {kNaN, kInf, kNaN, 0.0, 0.0, 4096, 0.0};
  const std::vector<double> bwd = {kNaN, kNaN, kNaN, 0.5, 0.5, 1.0, 0.0};
  for (int64_t n : {int64_t(7), int64_t(4096)})
    for (DType dt : kFloats)
      for (const char* mode : kModes) {
        std::vector<double> xv(size_t(n), 0.5);
        std::copy(x.begin(), x.end(), xv.begin());
        Tensor t = make(xv, {n}, dt);
        std::vector<double> f = gelu(t, mode).to_doubles();
        std::vector<double> b = call_op(OpId::gelu_backward, ones({n}, dt), t, std::string(mode)).to_doubles();
        for (size_t i = 0; i < x.size(); ++i) {
          auto same = [](double got, double want) { return std::isnan(want) ? std::isnan(got) : got == want; };
          EXPECT_TRUE(same(f[i], fwd[i])) << dtype_name(dt) << " " << mode << " n=" << n << " gelu(" << x[i]
                                          << ") = " << f[i];
          EXPECT_TRUE(same(b[i], bwd[i])) << dtype_name(dt) << " " << mode << " n=" << n << " gelu'(" << x[i]
                                          << ") = " << b[i];
        }
      }
}

TEST(Gelu, BackwardPromotesAndBroadcasts) {
  Tensor g = make({1.0, 2.0, 3.0}, {3}, DType::float64), x = make({-1.0, 0.5, 2.0, 0.0, 1.0, -2.0}, {2, 3});
  Tensor got = call_op(OpId::gelu_backward, g, x, std::string("none"));
  ASSERT_EQ(got.dtype(), DType::float64);
  ASSERT_EQ(got.sizes(), (Dims{2, 3}));
  std::vector<double> xv = x.to_doubles(), want;
  for (size_t i = 0; i < xv.size(); ++i) want.push_back(double(i % 3 + 1) * ref_grad(xv[i], false));
  EXPECT_TRUE(test::all_close(got, want, 1e-6, 1e-6));
  EXPECT_TRUE(test::throws_error([&] { call_op(OpId::gelu_backward, g, x, std::string("fast")); }, "RuntimeError",
                                 "approximate argument must be either none or tanh"));
}

class GeluGrad : public test::AutogradTest {};

// autograd.grad(create_graph=true) twice through gelu: gelu', gelu'' and (by finite differences of the
// reference gelu'') the third derivative, in float64, and float32 on the oneDNN path.
TEST_F(GeluGrad, HigherOrderGradients) {
  for (const char* mode : kModes) {
    const bool tanh_form = std::string(mode) == "tanh";
    for (auto [dt, n] : {std::pair{DType::float64, int64_t(9)}, std::pair{DType::float32, int64_t(4096)}}) {
      std::vector<double> xv = wavy(n);
      for (double& v : xv) v *= 3;
      Tensor x = make(xv, {n}, dt).set_requires_grad(true);
      xv = x.to_doubles();
      Tensor g1 = autograd::grad({sum(gelu(x, mode))}, {x}, {}, std::nullopt, true)[0];
      Tensor g2 = autograd::grad({sum(g1)}, {x}, {}, std::nullopt, true)[0];
      Tensor g3 = autograd::grad({sum(g2)}, {x})[0];
      std::vector<double> w1, w2, w3;
      for (double v : xv) {
        const double h = 1e-5;
        w1.push_back(ref_grad(v, tanh_form));
        w2.push_back(ref_second(v, tanh_form));
        w3.push_back((ref_second(v + h, tanh_form) - ref_second(v - h, tanh_form)) / (2 * h));
      }
      const double tol = dt == DType::float64 ? 1e-9 : 2e-5;
      EXPECT_TRUE(test::all_close(g1, w1, tol, tol)) << mode << " " << dtype_name(dt);
      EXPECT_TRUE(test::all_close(g2, w2, tol, tol)) << mode << " " << dtype_name(dt);
      EXPECT_TRUE(test::all_close(g3, w3, dt == DType::float64 ? 1e-7 : 1e-4, 1e-4)) << mode << " " << dtype_name(dt);
    }
  }
}

}  // namespace
}  // namespace amps::rt
