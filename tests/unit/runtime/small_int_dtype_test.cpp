// uint8/int8/int16 in the runtime: names and aliases, PyTorch 1.13's whole promotion table (printed by
// torch.promote_types), float casts through int64 on the vectorised and the strided paths, wrapping arithmetic and the
// int64 reductions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/dtype.hpp"
#include "runtime/functions.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {
namespace {

TEST(SmallIntDType, NamesSizesAndAliases) {
  EXPECT_EQ(dtype_name(DType::uint8), "uint8");
  EXPECT_EQ(dtype_name(DType::int8), "int8");
  EXPECT_EQ(dtype_name(DType::int16), "int16");
  EXPECT_EQ(dtype_size(DType::uint8), 1u);
  EXPECT_EQ(dtype_size(DType::int16), 2u);
  EXPECT_EQ(dtype_from_name("byte"), DType::uint8);
  EXPECT_EQ(dtype_from_name("char"), DType::int8);
  EXPECT_EQ(dtype_from_name("short"), DType::int16);
  EXPECT_EQ(dtype_from_name("u8"), DType::uint8);
  EXPECT_TRUE(is_integral(DType::uint8) && is_integral(DType::int8) && is_integral(DType::int16));
  EXPECT_FALSE(is_floating(DType::int16));
}

// torch.promote_types over float64 float32 float16 bfloat16 int64 int32 bool uint8 int8 int16 (dtype.def's order).
TEST(SmallIntDType, PromotionTableIsPyTorchs) {
  const char* want[10][10] = {
    {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64"},
    {"float64", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32"},
    {"float64", "float32", "float16", "float32", "float16", "float16", "float16", "float16", "float16", "float16"},
    {"float64", "float32", "float32", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int64", "int64", "int64", "int64", "int64"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int32", "int32", "int32", "int32", "int32"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int32", "bool", "uint8", "int8", "int16"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int32", "uint8", "uint8", "int16", "int16"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int32", "int8", "int16", "int8", "int16"},
    {"float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int16", "int16", "int16"},
  };
  for (int a = 0; a < dtype_count; ++a)
    for (int b = 0; b < dtype_count; ++b)
      EXPECT_EQ(dtype_name(promote(DType(a), DType(b))), want[a][b]) << dtype_name(DType(a)) << " with " << dtype_name(DType(b));
}

// 1037 floats (past the loops' 256-element chunks, with a tail) cast as PyTorch's CPU: C truncation, then the low
// bits; the same through a transposed copy. The heads and the sums of the casts are torch's.
TEST(SmallIntDType, FloatCastsWrapThroughInt64) {
  const std::vector<double> pattern = {1.7, -1.7, 300.0, -3.2, 255.9, 0.0, -129.5, 65535.0};
  std::vector<double> v;
  for (size_t i = 0; i < 1037; ++i) v.push_back(pattern[i % pattern.size()]);
  const Tensor f = Tensor::from_doubles(v, {1037}, DType::float32);
  const std::pair<DType, std::vector<double>> heads[] = {
      {DType::uint8, {1, 255, 44, 253, 255, 0, 127, 255}},
      {DType::int8, {1, -1, 44, -3, -1, 0, 127, -1}},
      {DType::int16, {1, -1, 300, -3, 255, 0, -129, -1}}};
  const int64_t sums[] = {154318, 21454, 54990};
  for (size_t k = 0; k < 3; ++k) {
    const auto& [dt, head] = heads[k];
    const Tensor c = f.to(dt);
    const std::vector<double> got = c.to_doubles();
    EXPECT_EQ(std::vector<double>(got.begin(), got.begin() + 8), head) << dtype_name(dt);
    EXPECT_EQ(sum(c.to(DType::int64)).item().to_int(), sums[k]) << dtype_name(dt);
    const Tensor strided = f.reshape({61, 17}).t().to(dt).t().contiguous().reshape({1037});
    EXPECT_EQ(strided.to_doubles(), got) << dtype_name(dt);
  }
}

TEST(SmallIntDType, ArithmeticWrapsAndSumsInInt64) {
  const Tensor u = Tensor::from_doubles({200, 3, 0}, {3}, DType::uint8);
  EXPECT_EQ((u + u).to_doubles(), (std::vector<double>{144, 6, 0}));
  EXPECT_EQ((u - Tensor::from_doubles({1, 1, 1}, {3}, DType::uint8)).to_doubles(), (std::vector<double>{199, 2, 255}));
  const Tensor s = Tensor::from_doubles({127, -128, 5}, {3}, DType::int8);
  EXPECT_EQ((s + Tensor::from_doubles({1, -1, 0}, {3}, DType::int8)).to_doubles(), (std::vector<double>{-128, 127, 5}));
  EXPECT_EQ((u + s).dtype(), DType::int16);
  EXPECT_EQ(sum(u).dtype(), DType::int64);
  EXPECT_EQ(sum(u).item().to_int(), 203);
  EXPECT_EQ(Tensor::from_doubles({-1.0, 255.0}, {2}, DType::uint8).to_doubles(), (std::vector<double>{255, 255}));
}

}  // namespace
}  // namespace amps::rt
