// The CPU loops compiled per instruction set (runtime/backend/cpu/simd.hpp) against scalar definitions written
// here, bit for bit. ctest runs this file three times: with the CPU's widest build, and with
// AMPS_CPU_CAPABILITY=avx2 and =default (tests/CMakeLists.txt), so every build of the loops is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "runtime/backend/cpu/simd.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/half.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// n float32 values with a vector tail (n is odd), exponents from tiny (subnormal products) to large.
std::vector<float> values(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = std::ldexp(float(int32_t(s >> 8) - (1 << 23)) / float(1 << 23), int(s % 60) - 40);
  }
  return v;
}

Tensor f32(const std::vector<float>& v) {
  Tensor t = Tensor::empty({int64_t(v.size())}, DType::float32, Device::cpu());
  std::memcpy(t.data<float>(), v.data(), v.size() * sizeof(float));
  return t;
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(SimdLoops, CapabilityIsKnown) {
  const char* env = std::getenv("AMPS_CPU_CAPABILITY");
  const std::string cap = env ? env : "";
  if (cap == "default") {
    EXPECT_EQ(cpu::cpu_isa(), cpu::Isa::base);
  } else if (cap == "avx2") {
    EXPECT_NE(cpu::cpu_isa(), cpu::Isa::avx512);
  }
}

// add/sub with alpha (the generic map loops) and mul/div (the flat loops), large enough for both threads.
TEST(SimdLoops, ArithmeticMatchesScalarIeeeResultsBitForBit) {
  const int64_t n = 100003;
  const std::vector<float> a = values(n, 1), b = values(n, 2);
  const float alpha = -0.37f;
  const Tensor ta = f32(a), tb = f32(b);
  const Tensor sum = add(ta, tb, alpha), diff = sub(ta, tb, alpha), prod = mul(ta, tb), quot = div(ta, tb);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(bits(sum.data<float>()[i]), bits(a[i] + alpha * b[i])) << i;
    ASSERT_EQ(bits(diff.data<float>()[i]), bits(a[i] - alpha * b[i])) << i;
    ASSERT_EQ(bits(prod.data<float>()[i]), bits(a[i] * b[i])) << i;
    ASSERT_EQ(bits(quot.data<float>()[i]), bits(a[i] / b[i])) << i;
  }
}

// The GradScaler's unscale: scaled values are exact products; one non-finite element anywhere (first, in the
// middle of either thread's half, in the vector tail), of any kind, sets found_inf; finite grads leave it alone.
TEST(SimdLoops, UnscaleScalesAndFindsEveryNonFiniteElement) {
  const int64_t n = 70001;
  const std::vector<float> g = values(n, 3);
  for (int64_t at : {int64_t(-1), int64_t(0), int64_t(20000), n / 2 + 5, n - 1}) {
    for (float bad : {kInf, -kInf, kNaN}) {
      std::vector<float> v = g;
      if (at >= 0) v[size_t(at)] = bad;
      Tensor t = f32(v), found = zeros({1});
      Tensor inv = full({1}, 0.125, DType::float32);
      dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_, Args{std::vector<Tensor>{t}, found, inv});
      ASSERT_EQ(found.data<float>()[0], at >= 0 ? 1.0f : 0.0f) << "at " << at << " value " << bad;
      for (int64_t i = 0; i < n; i += 997) ASSERT_EQ(bits(t.data<float>()[i]), bits(v[i] * 0.125f)) << i;
      if (at < 0) break;
    }
  }
}

TEST(SimdLoops, UnscaleWithInverseOneOnlyChecks) {
  std::vector<float> v = values(40001, 4);
  v[39999] = kNaN;
  Tensor t = Tensor::from_doubles(std::vector<double>(v.begin(), v.end()), {40001}, DType::bfloat16);
  const Tensor before = t.clone();
  Tensor found = zeros({1}), one = ones({1});
  dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_, Args{std::vector<Tensor>{t}, found, one});
  EXPECT_EQ(found.data<float>()[0], 1.0f);
  EXPECT_EQ(std::memcmp(t.raw_data(), before.raw_data(), size_t(t.numel()) * 2), 0);
}

// Column sums of bfloat16 rows (a Linear's bias gradient): each column in order, in double, rounded once.
TEST(SimdLoops, Bfloat16ColumnSumsMatchAnInOrderDoubleSum) {
  const int64_t rows = 256, cols = 1027;
  const std::vector<float> v = values(rows * cols, 5);
  Tensor x = Tensor::from_doubles(std::vector<double>(v.begin(), v.end()), {rows, cols}, DType::bfloat16);
  const Tensor s = sum(x, Dims{0});
  const BFloat16* p = x.data<BFloat16>();
  for (int64_t k = 0; k < cols; ++k) {
    double want = 0;
    for (int64_t r = 0; r < rows; ++r) want += double(float(p[r * cols + k]));
    ASSERT_EQ(s.data<BFloat16>()[k].bits, BFloat16(float(want)).bits) << "column " << k;
  }
}

}  // namespace
}  // namespace amps::rt
