// The default dtype and the small tensor gaps on cuda against the CPU backend: factories and integer promotion follow
// the context's default dtype; view(dtype) reinterprets device bytes; linspace/logspace (computed on the host) match;
// scatter_add/index_add of integers are exact above 2^24 (int64 atomics); a uint8 mask with a 2 in it is refused.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

// Integers above 2^24 (float32 would round them), as int64 values of [dt].
Tensor big_ints(const Dims& shape, DType dt, int64_t base) {
  std::vector<double> v(size_t(numel_of(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(base + int64_t(i) * 7 + 1);
  return make(v, shape, DType::int64).to(dt);
}

Tensor ids(std::vector<double> v, const Dims& shape) { return make(std::move(v), shape, DType::int64); }

TEST_F(Cuda, IntegerScatterAddAndIndexAddAreExact) {
  for (DType dt : {DType::int64, DType::int32}) {
    const int64_t base = dt == DType::int64 ? (int64_t(1) << 40) : (int64_t(1) << 25);
    const Tensor x = big_ints({4, 5}, dt, base), src = big_ints({2, 5}, dt, base + 3);
    const Tensor idx = ids({0, 3, 3, 1, 0, 2, 3, 3, 0, 1}, {2, 5});  // repeats accumulate
    EXPECT_TRUE(same_on_cuda(OpId::scatter_add, {x, int64_t(0), idx, src})) << dtype_name(dt);
    EXPECT_TRUE(same_on_cuda(OpId::scatter_add_, {x.clone(), int64_t(0), idx, src})) << dtype_name(dt);
    EXPECT_TRUE(same_on_cuda(OpId::index_add, {x, int64_t(0), ids({3, 0, 3}, {3}), big_ints({3, 5}, dt, base + 5),
                                               Scalar(int64_t(1))}))
        << dtype_name(dt);
    EXPECT_TRUE(same_on_cuda(OpId::index_add, {x, int64_t(1), ids({4, 4}, {2}), big_ints({4, 2}, dt, base),
                                               Scalar(int64_t(3))}))
        << dtype_name(dt);
  }
  const Tensor small = make({1, 2, 3, 4}, {4}, DType::int64);
  for (DType dt : {DType::uint8, DType::int8, DType::int16, DType::bool_})  // wraps (bool: any nonzero) as the CPU
    EXPECT_TRUE(same_on_cuda(OpId::scatter_add, {small.to(dt), int64_t(0), ids({1, 1, 3}, {3}),
                                                 make({200, 100, 7}, {3}, DType::int64).to(dt)}))
        << dtype_name(dt);
}

TEST_F(Cuda, ViewDtypeReinterpretsTheDeviceBytes) {
  const Tensor f = make({1.0, -2.5, 3e38, 1e-40, 0.5, 7.0, -0.0, 65504.0}, {2, 4}, DType::float32);
  for (DType to : {DType::int32, DType::int16, DType::uint8, DType::int64, DType::float64, DType::bfloat16})
    EXPECT_TRUE(same_on_cuda(OpId::view_dtype, {f, to})) << dtype_name(to);
  EXPECT_TRUE(same_on_cuda(OpId::view_dtype, {f.to(DType::float16), DType::int16}));
  Tensor dev = f.to(kCuda);
  Tensor bits = dispatch(OpId::view_dtype, {dev, DType::int32})[0];
  dispatch(OpId::fill_, {bits, Scalar(int64_t(0))});  // writes show through the shared storage
  EXPECT_EQ(max(abs(dev.to(Device::cpu()))).item().to_double(), 0.0);
}

// The factory [op] with [args] (device last) made on the CPU and on cuda, compared exactly.
::testing::AssertionResult same_factory(OpId op, Args args) {
  Args on_cuda = args;
  on_cuda.back() = IValue(kCuda);
  const Tensor want = dispatch(op, args)[0], got = dispatch(op, on_cuda)[0];
  if (got.device() != kCuda || got.dtype() != want.dtype()) return ::testing::AssertionFailure() << "device or dtype";
  return test::all_close(got, want, 0.0, 0.0);
}

TEST_F(Cuda, RangesMatchTheCpu) {
  for (DType dt : {DType::int64, DType::int32, DType::int16, DType::uint8, DType::float32, DType::float64}) {
    EXPECT_TRUE(same_factory(OpId::linspace, {Scalar(int64_t(0)), Scalar(int64_t(100)), int64_t(37), dt, IValue()}))
        << dtype_name(dt);
    EXPECT_TRUE(same_factory(OpId::logspace, {Scalar(0.0), Scalar(2.0), int64_t(5), 10.0, dt, IValue()}))
        << dtype_name(dt);
  }
}

TEST_F(Cuda, FactoriesAndPromotionFollowTheDefaultDtype) {
  Context ctx;
  ContextGuard guard(ctx);
  ctx.set_default_dtype(DType::float64);
  EXPECT_EQ(dispatch(OpId::zeros, {Dims{2}, IValue(), kCuda})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::rand, {Dims{2}, IValue(), kCuda})[0].dtype(), DType::float64);
  const Tensor i = make({1, 2, 3}, {3}, DType::int64).to(kCuda);
  EXPECT_EQ(dispatch(OpId::sqrt, {i})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::div, {i, i})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::mul, {i, wrap_number(Scalar(1.5))})[0].dtype(), DType::float64);
}

TEST_F(Cuda, ByteMaskMustHoldZerosAndOnes) {
  const Tensor x = make({1, 2, 3}, {3}, DType::float32);
  const Tensor good = make({1, 0, 1}, {3}, DType::uint8), bad = make({1, 0, 2}, {3}, DType::uint8).to(kCuda);
  EXPECT_TRUE(same_on_cuda(OpId::masked_fill, {x, good, Scalar(5.0)}));
  EXPECT_TRUE(same_on_cuda(OpId::masked_select, {x, good}));
  EXPECT_THROW(dispatch(OpId::masked_fill, {x.to(kCuda), bad, Scalar(5.0)}), Error);
  EXPECT_THROW(dispatch(OpId::masked_select, {x.to(kCuda), bad}), Error);
}

}  // namespace
}  // namespace amps::rt
