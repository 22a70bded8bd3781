// Tests for dtype.def/dtype.hpp (names, sizes, promotion table), half.hpp (exact f16/bf16 rounding) and tensor casts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "runtime/dtype.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {
namespace {

TEST(DType, NamesSizesAndAliases) {
  EXPECT_EQ(dtype_name(DType::bfloat16), "bfloat16");
  EXPECT_EQ(dtype_name(DType::bool_), "bool");
  EXPECT_EQ(dtype_size(DType::float64), 8u);
  EXPECT_EQ(dtype_size(DType::float16), 2u);
  EXPECT_EQ(dtype_size(DType::bool_), 1u);
  EXPECT_EQ(dtype_from_name("f32"), DType::float32);
  EXPECT_EQ(dtype_from_name("float"), DType::float32);
  EXPECT_EQ(dtype_from_name("half"), DType::float16);
  EXPECT_EQ(dtype_from_name("bf16"), DType::bfloat16);
  EXPECT_EQ(dtype_from_name("double"), DType::float64);
  EXPECT_EQ(dtype_from_name("int64"), DType::int64);
  EXPECT_FALSE(dtype_from_name("").has_value());
  EXPECT_FALSE(dtype_from_name("float8").has_value());
  EXPECT_TRUE(is_floating(DType::bfloat16));
  EXPECT_FALSE(is_floating(DType::int32));
  EXPECT_TRUE(is_integral(DType::bool_, true));
  EXPECT_FALSE(is_integral(DType::bool_));
}

TEST(DType, PromotionMatchesPyTorch) {
  EXPECT_EQ(promote(DType::float16, DType::bfloat16), DType::float32);
  EXPECT_EQ(promote(DType::int64, DType::float16), DType::float16);
  EXPECT_EQ(promote(DType::int32, DType::bfloat16), DType::bfloat16);
  EXPECT_EQ(promote(DType::float32, DType::float64), DType::float64);
  EXPECT_EQ(promote(DType::bool_, DType::int32), DType::int32);
  EXPECT_EQ(promote(DType::int32, DType::int64), DType::int64);
  EXPECT_EQ(promote(DType::bool_, DType::bool_), DType::bool_);
  EXPECT_EQ(promote(DType::float16, DType::float32), DType::float32);
  EXPECT_EQ(promote(DType::bfloat16, DType::bool_), DType::bfloat16);
  for (int a = 0; a < dtype_count; ++a) EXPECT_EQ(promote(DType(a), DType(a)), DType(a));
}

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(float(BFloat16(1.00390625f)), 1.0f);         // exact tie, 1.0 is even
  EXPECT_EQ(float(BFloat16(1.01171875f)), 1.015625f);    // exact tie, rounds up to even
  EXPECT_EQ(float(BFloat16(std::nextafter(1.00390625f, 2.0f))), 1.0078125f);  // just above the tie
  EXPECT_EQ(float(BFloat16(-3.0f)), -3.0f);
  EXPECT_EQ(BFloat16(3.4e38f).bits, 0x7f80);             // overflows to inf when rounding up
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::infinity()).bits, 0x7f80);
  EXPECT_EQ(float(BFloat16(1e-40f)), std::bit_cast<float>(uint32_t(0x00010000)) * 1.0f);  // subnormal kept
}

TEST(BFloat16, NaNStaysQuietNaN) {
  const float snan = std::bit_cast<float>(0x7f800001u);
  BFloat16 b(snan);
  EXPECT_TRUE(std::isnan(float(b)));
  EXPECT_EQ(b.bits & 0x0040, 0x0040);
  EXPECT_TRUE(std::isnan(float(BFloat16(-std::nanf("")))));
  EXPECT_EQ(BFloat16(-std::nanf("")).bits & 0x8000, 0x8000);
}

TEST(Half, ExactReferenceValues) {
  EXPECT_TRUE(std::isinf(float(Half(65520.0f))));
  EXPECT_EQ(float(Half(65519.0f)), 65504.0f);
  EXPECT_EQ(float(Half(65504.0f)), 65504.0f);
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
  EXPECT_EQ(float(Half(1.0f + 1.0f / 2048)), 1.0f);               // tie to even (down)
  EXPECT_EQ(float(Half(1.0f + 3.0f / 2048)), 1.0f + 2.0f / 1024);  // tie to even (up)
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).bits, 0x0001);            // smallest subnormal
  EXPECT_EQ(Half(std::ldexp(1.0f, -25)).bits, 0x0000);            // tie below it rounds to even zero
  EXPECT_EQ(Half(std::ldexp(1.5f, -25)).bits, 0x0001);
  EXPECT_EQ(Half(std::ldexp(3.0f, -25)).bits, 0x0002);            // 1.5 ulp tie rounds to even 2
  EXPECT_EQ(Half(std::ldexp(1.0f, -14)).bits, 0x0400);            // smallest normal
  EXPECT_EQ(float(Half::from_bits(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(float(Half::from_bits(0x03ff)), std::ldexp(1023.0f, -24));
  EXPECT_EQ(Half(-0.0f).bits, 0x8000);
}

TEST(Half, NaNAndInfPreserved) {
  EXPECT_EQ(Half(std::numeric_limits<float>::infinity()).bits, 0x7c00);
  EXPECT_EQ(Half(-std::numeric_limits<float>::infinity()).bits, 0xfc00);
  Half n(std::bit_cast<float>(0x7f800001u));  // signalling NaN input
  EXPECT_TRUE(std::isnan(float(n)));
  EXPECT_EQ(n.bits & 0x7e00, 0x7e00);
  EXPECT_TRUE(std::isinf(float(Half::from_bits(0x7c00))));
}

TEST(Half, RoundTripsEveryHalfValue) {
  for (uint32_t b = 0; b < 65536; ++b) {
    Half h = Half::from_bits(uint16_t(b));
    float f = float(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(Half(f).bits, h.bits) << "bits " << b;
  }
}

// Bulk converters must be bit-identical to the scalar reference, including tails and special values.
std::vector<float> awkward_floats(size_t n) {
  std::mt19937 rng(7);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::bit_cast<float>(uint32_t(rng()));
  const float specials[] = {0.f, -0.f, 65520.f, 65519.f, 1.00390625f, 1.01171875f, std::ldexp(1.f, -25),
                            std::numeric_limits<float>::infinity(), std::bit_cast<float>(0x7f800001u),
                            std::bit_cast<float>(0xffc00000u), 3.4e38f, std::ldexp(3.f, -25)};
  for (size_t i = 0; i < std::size(specials); ++i) v[i * 3] = specials[i];
  return v;
}

TEST(HalfBulk, MatchesScalarConversion) {
  auto src = awkward_floats(1003);
  std::vector<Half> h(src.size());
  std::vector<BFloat16> b(src.size());
  convert_float_to_half(src.data(), h.data(), int64_t(src.size()));
  convert_float_to_bf16(src.data(), b.data(), int64_t(src.size()));
  for (size_t i = 0; i < src.size(); ++i) {
    ASSERT_EQ(h[i].bits, Half(src[i]).bits) << half_convert_isa() << " f16 at " << i << " x=" << src[i];
    ASSERT_EQ(b[i].bits, BFloat16(src[i]).bits) << half_convert_isa() << " bf16 at " << i;
  }
  std::vector<float> back(src.size());
  convert_half_to_float(h.data(), back.data(), int64_t(h.size()));
  for (size_t i = 0; i < src.size(); ++i) ASSERT_EQ(bits_of(back[i]), bits_of(float(h[i])));
  convert_bf16_to_float(b.data(), back.data(), int64_t(b.size()));
  for (size_t i = 0; i < src.size(); ++i) ASSERT_EQ(bits_of(back[i]), bits_of(float(b[i])));
}

// Tensor casts (the copy kernels, bulk paths and tails) from float32 and float64 give the exact reference
// values: round to nearest even, overflow to inf, f16 subnormals, inf and NaN preserved.
struct CastCase {
  double in, bf16, f16;
};

void expect_cast(DType from, DType to, const std::vector<CastCase>& cases) {
  std::vector<double> in;
  for (int rep = 0; rep < 7; ++rep)  // 7 copies: long enough for the vector loops, with a ragged tail
    for (const CastCase& c : cases) in.push_back(c.in);
  std::vector<double> out = Tensor::from_doubles(in, {int64_t(in.size())}, from).to(to).to_doubles();
  for (size_t i = 0; i < out.size(); ++i) {
    const CastCase& c = cases[i % cases.size()];
    const double want = to == DType::bfloat16 ? c.bf16 : c.f16;
    const std::string what = fmt::format("{} -> {} of {}", dtype_name(from), dtype_name(to), c.in);
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(out[i])) << what;
    else EXPECT_EQ(out[i], want) << what;
  }
}

TEST(TensorCast, RoundsToExactReferenceValues) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const std::vector<CastCase> cases = {
      {1.00390625, 1.0, 1.00390625},             // bf16 tie: 1.0 is even; f16 keeps 1 + 2^-8 exactly
      {1.01171875, 1.015625, 1.01171875},        // bf16 tie rounds up to even
      {1.0 + 1.0 / 2048, 1.0, 1.0},              // f16 tie to even (down)
      {1.0 + 3.0 / 2048, 1.0, 1.0 + 2.0 / 1024},  // f16 tie to even (up)
      {-3.0, -3.0, -3.0},
      {65504.0, 65536.0, 65504.0},               // f16 max
      {65519.0, 65536.0, 65504.0},               // just below the f16 overflow threshold
      {65520.0, 65536.0, inf},                   // f16 overflow to inf
      {-1e5, -99840.0, -inf},
      {3.4e38, inf, inf},                        // bf16 overflow when rounding up
      {std::ldexp(1.0, -24), std::ldexp(1.0, -24), std::ldexp(1.0, -24)},  // smallest f16 subnormal
      {std::ldexp(1.0, -25), std::ldexp(1.0, -25), 0.0},                   // f16 tie below it: even zero
      {std::ldexp(1.5, -25), std::ldexp(1.5, -25), std::ldexp(1.0, -24)},
      {std::ldexp(3.0, -25), std::ldexp(3.0, -25), std::ldexp(1.0, -23)},  // 1.5 ulp tie rounds to even 2
      {std::ldexp(1023.0, -24), std::ldexp(1.0, -14), std::ldexp(1023.0, -24)},  // largest f16 subnormal
      {inf, inf, inf},
      {-inf, -inf, -inf},
      {nan, nan, nan},
      {-0.0, -0.0, -0.0},
  };
  for (DType from : {DType::float32, DType::float64})
    for (DType to : {DType::bfloat16, DType::float16}) expect_cast(from, to, cases);
}

}  // namespace
}  // namespace amps::rt
