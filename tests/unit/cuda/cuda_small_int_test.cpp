// uint8/int8/int16 on CUDA against the CPU backend: casts (floats into the small integers through int64, as
// PyTorch's static_cast_with_inter_type), wrapping arithmetic and promotion, unary keep-dtype ops and clamp,
// comparisons and bitwise ops, where/masked_fill with a uint8 condition, reductions and scans in int64, sort/topk,
// index_select/gather/cat and matmul's refusal where CUDA has no integer kernel.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"

namespace amps::rt {
namespace {

const DType kSmallInts[] = {DType::uint8, DType::int8, DType::int16};

// Values spanning each small type's range (and past it, so the casts wrap).
Tensor ints(const Dims& shape, DType dt, double phase = 0.0) {
  std::vector<double> v = wavy(numel_of(shape), phase);
  for (double& x : v) x = std::trunc(x * 150.0);
  return make(v, shape, DType::int64).to(dt);
}

TEST_F(Cuda, SmallIntCastsMatchTheCpu) {
  const Tensor f = make({1.7, -1.7, 300.0, -3.2, 255.9, 0.0, -129.5, 70000.0}, {8}, DType::float32);
  for (DType dt : kSmallInts) {
    EXPECT_TRUE(same_on_cuda(OpId::to, {f, dt}));
    // not 70000, which is inf in float16: inf into an integer is undefined (the host's conversion gives 0, the
    // device's saturates to 255), as in PyTorch
    EXPECT_TRUE(same_on_cuda(OpId::to, {f.narrow(0, 0, 7).to(DType::float16), dt}));
    EXPECT_TRUE(same_on_cuda(OpId::to, {f.to(DType::float64), dt}));
    EXPECT_TRUE(same_on_cuda(OpId::to, {make({70000, -3, 255, -1}, {4}, DType::int64), dt}));
    for (DType to : {DType::float32, DType::bfloat16, DType::int64, DType::bool_, DType::uint8, DType::int8, DType::int16})
      EXPECT_TRUE(same_on_cuda(OpId::to, {ints({3, 5}, dt), to}));
  }
}

TEST_F(Cuda, SmallIntElementwiseMatchesTheCpu) {
  for (DType dt : kSmallInts) {
    const Tensor x = ints({4, 6}, dt), y = ints({4, 6}, dt, 0.7), other = ints({6}, DType::int8, 0.3);
    for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::maximum, OpId::eq, OpId::gt, OpId::bitwise_and})
      EXPECT_TRUE(same_on_cuda(op, {x, y}));
    EXPECT_TRUE(same_on_cuda(OpId::add, {x, other}));                        // promotion (uint8 with int8: int16)
    EXPECT_TRUE(same_on_cuda(OpId::add, {x, wrap_number(Scalar(int64_t(1000)))}));  // a Python int wraps
    EXPECT_TRUE(same_on_cuda(OpId::div, {x, wrap_number(Scalar(int64_t(3)))}));     // true division: float32
    std::vector<double> nonzero(24);
    for (size_t i = 0; i < nonzero.size(); ++i) nonzero[i] = double(1 + i % 9);
    const Tensor divisor = make(nonzero, {4, 6}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::floor_divide, {x, divisor}));
    EXPECT_TRUE(same_on_cuda(OpId::remainder, {x, divisor}));
    for (OpId op : {OpId::neg, OpId::abs, OpId::sign, OpId::relu, OpId::sqrt})
      EXPECT_TRUE(same_on_cuda(op, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::clamp, {x, Scalar(int64_t(-5)), Scalar(int64_t(100))}));
    std::vector<double> bits(24);  // a uint8 mask holds 0 and 1 only (other values are PyTorch's error)
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = double((i * 7 / 3) % 2);
    const Tensor mask = make(bits, {4, 6}, DType::uint8);
    EXPECT_TRUE(same_on_cuda(OpId::where, {mask, x, y}));
    EXPECT_TRUE(same_on_cuda(OpId::masked_fill, {x, mask, Scalar(int64_t(7))}));
  }
}

TEST_F(Cuda, SmallIntReductionsMatchTheCpu) {
  for (DType dt : kSmallInts) {
    const Tensor x = ints({5, 7}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x, Dims{1}, false, dt}));
    EXPECT_TRUE(same_on_cuda(OpId::prod, {x, int64_t(1)}));
    EXPECT_TRUE(same_on_cuda(OpId::prod, {x, int64_t(0), false, dt}));
    EXPECT_TRUE(same_on_cuda(OpId::cumsum, {x, int64_t(1)}));
    EXPECT_TRUE(same_on_cuda(OpId::cumsum, {x, int64_t(0), dt}));
    EXPECT_TRUE(same_on_cuda(OpId::max, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::argmax, {x, int64_t(1)}));
    EXPECT_TRUE(same_on_cuda(OpId::sort, {x, int64_t(1), true}));
    EXPECT_TRUE(same_on_cuda(OpId::topk, {x, int64_t(3)}));
  }
}

TEST_F(Cuda, SmallIntIndexingMatchesTheCpu) {
  for (DType dt : kSmallInts) {
    const Tensor x = ints({4, 5}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::index_select, {x, int64_t(1), make({4, 0, 2}, {3}, DType::int64)}));
    EXPECT_TRUE(same_on_cuda(OpId::gather, {x, int64_t(1), make({0, 4, 1, 1, 2, 3, 0, 0}, {4, 2}, DType::int64)}));
    EXPECT_TRUE(same_on_cuda(OpId::cat, {std::vector<Tensor>{x, ints({2, 5}, dt, 0.4)}, int64_t(0)}));
  }
}

}  // namespace
}  // namespace amps::rt
