// Tests for simd_bf16_select.hpp and the bfloat16 relu / relu-gradient paths that use it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/backend/cpu/simd_bf16_select.hpp"
#include "runtime/functions.hpp"
#include "runtime/half.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {
namespace {

float widen(uint16_t b) {
  const uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Every bit pattern of x (NaNs, infinities, +-0, subnormals), against the scalar definition, at
// lengths that leave a vector tail and with the output aliasing an input.
TEST(Bf16Select, MatchesTheScalarDefinitionForEveryBitPattern) {
  const int64_t n = 65536 + 7;
  std::vector<uint16_t> x(n), v(n), o(n);
  for (int64_t i = 0; i < n; ++i) x[i] = uint16_t(i * 40503u), v[i] = uint16_t(0x3f80 + i % 97);
  for (float th : {0.0f, -1.5f, 2.0f}) {
    cpu::bf16_zero_where_le(o.data(), v.data(), x.data(), th, n);
    for (int64_t i = 0; i < n; ++i) {
      const uint16_t want = widen(x[i]) <= th ? 0 : v[i];
      ASSERT_EQ(o[i], want) << "x bits " << x[i] << " th " << th;
    }
  }
  std::vector<uint16_t> same = x;
  cpu::bf16_zero_where_le(same.data(), same.data(), same.data(), 0.0f, n);  // relu in place
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(same[i], widen(x[i]) <= 0.0f ? 0 : x[i]);
}

TEST(Bf16Select, ReluOfBfloat16KeepsNanAndZeroesNegativesAndMinusZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::from_doubles({-2.5, -0.0, 0.0, 1.25, nan, -inf, inf, 3e-39, -3e-39}, {9}, DType::bfloat16);
  Tensor y = relu(x).to(DType::float32);
  const float* p = y.data<float>();
  const std::vector<float> want{0.0f, 0.0f, 0.0f, 1.25f, nan, 0.0f, inf, float(BFloat16(3e-39f)), 0.0f};
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(p[i])) << i;
    else EXPECT_EQ(p[i], want[i]) << i;
    EXPECT_FALSE(std::signbit(p[i]) && p[i] == 0.0f) << "relu gives +0, not -0, at " << i;
  }
}

}  // namespace
}  // namespace amps::rt
