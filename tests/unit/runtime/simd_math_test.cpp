// The SLEEF-backed float32 math (runtime/backend/cpu/simd_math.hpp) against double-precision libm: every function
// within its documented error (1 ulp; erfc 1.5; sigmoid and silu add a rounded add and divide), special values as
// libm's, and an element's result independent of its place in the array (a partial last vector computes the same).
// ctest also runs this file with AMPS_CPU_CAPABILITY=avx2 and =default, so each build is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/backend/cpu/simd_math.hpp"

namespace amps::rt::cpu {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Case {
  VecMath f;
  const char* name;
  double (*ref)(double);
  float lo, hi;  // the sampled domain
  double ulps;
};

// PyTorch's formulas over a float32 exp: exp(-x) overflows to inf below x = -88.7, and the result is then 0.
double float_exp_neg(double x) { return std::isinf(float(std::exp(-x))) ? double(kInf) : std::exp(-x); }
double sigmoid_ref(double x) { return 1.0 / (1.0 + float_exp_neg(x)); }
double silu_ref(double x) { return x / (1.0 + float_exp_neg(x)); }

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {VecMath::exp, "exp", [](double x) { return std::exp(x); }, -87, 88, 1},
      {VecMath::log, "log", [](double x) { return std::log(x); }, 1e-30f, 1e30f, 1},
      {VecMath::log2, "log2", [](double x) { return std::log2(x); }, 1e-30f, 1e30f, 1},
      {VecMath::log10, "log10", [](double x) { return std::log10(x); }, 1e-30f, 1e30f, 1},
      {VecMath::log1p, "log1p", [](double x) { return std::log1p(x); }, -0.99f, 1e6f, 1},
      {VecMath::expm1, "expm1", [](double x) { return std::expm1(x); }, -20, 80, 1},
      {VecMath::exp2, "exp2", [](double x) { return std::exp2(x); }, -120, 120, 1},
      {VecMath::sin, "sin", [](double x) { return std::sin(x); }, -100, 100, 1},
      {VecMath::cos, "cos", [](double x) { return std::cos(x); }, -100, 100, 1},
      {VecMath::tan, "tan", [](double x) { return std::tan(x); }, -1.5f, 1.5f, 1},
      {VecMath::tanh, "tanh", [](double x) { return std::tanh(x); }, -12, 12, 1},
      {VecMath::sinh, "sinh", [](double x) { return std::sinh(x); }, -80, 80, 1},
      {VecMath::cosh, "cosh", [](double x) { return std::cosh(x); }, -80, 80, 1},
      {VecMath::asin, "asin", [](double x) { return std::asin(x); }, -1, 1, 1},
      {VecMath::acos, "acos", [](double x) { return std::acos(x); }, -1, 1, 1},
      {VecMath::atan, "atan", [](double x) { return std::atan(x); }, -1e4f, 1e4f, 1},
      {VecMath::asinh, "asinh", [](double x) { return std::asinh(x); }, -1e4f, 1e4f, 1},
      {VecMath::acosh, "acosh", [](double x) { return std::acosh(x); }, 1, 1e4f, 1},
      {VecMath::atanh, "atanh", [](double x) { return std::atanh(x); }, -0.999f, 0.999f, 1},
      {VecMath::erf, "erf", [](double x) { return std::erf(x); }, -5, 5, 1},
      {VecMath::erfc, "erfc", [](double x) { return std::erfc(x); }, -5, 9, 1.5},
      {VecMath::sigmoid, "sigmoid", sigmoid_ref, -80, 80, 2.5},
      {VecMath::silu, "silu", silu_ref, -80, 80, 2.5},
  };
  return c;
}

// n values spread over [lo, hi] (n odd: a partial last vector in every build).
std::vector<float> grid(float lo, float hi, int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = lo + (hi - lo) * float(i) / float(n - 1);
  return v;
}

// The distance from [got] to the exact [want] in units of the float spacing at [want].
double ulps(float got, double want) {
  const float w = float(want);
  const double spacing = std::nextafter(std::fabs(w), kInf) - std::fabs(w);
  return std::fabs(double(got) - want) / (spacing > 0 ? spacing : std::numeric_limits<float>::denorm_min());
}

TEST(SimdMath, EveryFunctionIsWithinItsErrorBound) {
  for (const Case& c : cases()) {
    const std::vector<float> x = grid(c.lo, c.hi, 20001);
    std::vector<float> y(x.size());
    vec_math_f32(c.f, x.data(), y.data(), int64_t(x.size()));
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = c.ref(double(x[i]));
      if (!std::isfinite(float(want))) continue;  // overflow near the domain's edge: the special-value test
      ASSERT_LE(ulps(y[i], want), c.ulps) << c.name << "(" << x[i] << ") = " << y[i] << ", want " << want;
    }
  }
}

TEST(SimdMath, SpecialValuesAreLibms) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, kInf, -kInf, nan, 100.0f, -100.0f};
  for (const Case& c : cases()) {
    std::vector<float> y(x.size());
    vec_math_f32(c.f, x.data(), y.data(), int64_t(x.size()));
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = float(c.ref(double(x[i])));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << c.name << "(" << x[i] << ") = " << y[i];
      } else if (want == 0.0f) {
        EXPECT_EQ(y[i], 0.0f) << c.name << "(" << x[i] << ")";
        EXPECT_EQ(std::signbit(y[i]), std::signbit(want)) << c.name << "(" << x[i] << ")";
      } else if (std::isinf(want) || ulps(y[i], c.ref(double(x[i]))) > c.ulps) {
        EXPECT_EQ(y[i], want) << c.name << "(" << x[i] << ")";
      }
    }
  }
}

// Each length from 1 to 40 (every partial vector of both widths) against the full array: bit for bit.
TEST(SimdMath, ResultsDoNotDependOnTheElementsPlace) {
  const std::vector<float> x = grid(-3.0f, 3.0f, 41);
  for (const Case& c : cases()) {
    std::vector<float> full(x.size());
    vec_math_f32(c.f, x.data(), full.data(), int64_t(x.size()));
    for (size_t start = 0; start < x.size(); ++start) {
      std::vector<float> part(x.size() - start);
      vec_math_f32(c.f, x.data() + start, part.data(), int64_t(part.size()));
      for (size_t i = 0; i < part.size(); ++i)
        if (!std::isnan(full[start + i]))
          ASSERT_EQ(part[i], full[start + i]) << c.name << " at " << start + i << " from " << start;
    }
  }
}

}  // namespace
}  // namespace amps::rt::cpu
