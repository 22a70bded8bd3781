// The elementwise extras on cuda against the CPU: the in-place forms derived from their op (derived_inplace.cpp),
// the composites (fmax, copysign, ldexp, clamp_min, ...) and the host-fallback kernels (signbit, nextafter, gcd,
// i0, igamma, frexp, the bitwise ops). Each skips without a GPU.
#include <gtest/gtest.h>

#include <limits>

#include "cuda_test_util.hpp"

namespace amps::rt {
namespace {

using O = OpId;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST_F(Cuda, DerivedInPlaceOpsMatchTheCpu) {
  for (DType dt : kFloats) {
    for (O op : {O::sin_, O::floor_, O::round_, O::exp2_, O::rsqrt_, O::sign_, O::erfinv_, O::frac_, O::sinc_})
      EXPECT_TRUE(same_on_cuda(op, {input({3, 4}, dt, 0.2, 0.0, 0.9)}, 4)) << op_name(op);
    for (O op : {O::atan2_, O::hypot_, O::fmod_, O::eq_, O::lt_, O::logical_and_, O::copysign_, O::clamp_min_})
      EXPECT_TRUE(same_on_cuda(op, {input({3, 4}, dt, 0.1), input({4}, dt, 0.7, 0.5)}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(O::addmv_, {input({3}, dt), input({3, 4}, dt, 0.3), input({4}, dt, 0.5), 0.5, 2.0}, 8));
  }
  EXPECT_TRUE(same_on_cuda(O::float_power_, {input({3, 4}, DType::float64, 0.1, 2.0), input({4}, DType::float64)}));
  const Tensor i = make({12, -7, 0, 9}, {4}, DType::int64), j = make({18, 14, 5, 6}, {4}, DType::int64);
  EXPECT_TRUE(same_on_cuda(O::gcd_, {i, j}));
}

TEST_F(Cuda, ElementwiseExtraOpsMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = make({1.0, kNaN, -2.0, 0.0, -0.0, 3.5}, {6}, dt);
    const Tensor y = make({kNaN, 3.0, -1.0, -0.0, 2.0, 1.0}, {6}, dt);
    for (O op : {O::fmax, O::fmin, O::copysign, O::logical_xor, O::clamp_min, O::clamp_max})
      EXPECT_TRUE(same_on_cuda(op, {x, y})) << op_name(op);
    for (O op : {O::signbit, O::isneginf, O::isposinf, O::isreal, O::i0, O::special_i1, O::frexp})
      EXPECT_TRUE(same_on_cuda(op, {x}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(O::igamma, {input({6}, dt, 0.1, 2.0), input({6}, dt, 0.4, 2.0)}, 8));
    EXPECT_TRUE(same_on_cuda(O::igammac, {input({6}, dt, 0.1, 2.0), input({6}, dt, 0.4, 2.0)}, 8));
    EXPECT_TRUE(same_on_cuda(O::ldexp, {x, make({1, 2, 3, -1, 0, 4}, {6}, DType::int64)}));
    EXPECT_TRUE(same_on_cuda(O::rsub, {x, y, 2.0}));
    if (dt != DType::float16)
      EXPECT_TRUE(same_on_cuda(O::round_decimals, {input({6}, dt, 0.3, 0.0, 50.0), int64_t(1)}));
  }
  EXPECT_TRUE(same_on_cuda(O::nextafter, {make({1, 0, -1}, {3}), make({2, 1, -2}, {3})}));
  const Tensor i = make({12, -7, 0, 5}, {4}, DType::int64), j = make({10, 3, -1, 70}, {4}, DType::int64);
  for (O op : {O::gcd, O::lcm, O::bitwise_and, O::bitwise_or, O::bitwise_xor, O::bitwise_left_shift,
               O::bitwise_right_shift})
    EXPECT_TRUE(same_on_cuda(op, {i, j})) << op_name(op);
  EXPECT_TRUE(same_on_cuda(O::bitwise_not, {i}));
  EXPECT_TRUE(same_on_cuda(O::bitwise_xor_, {make({1, 0, 1}, {3}, DType::bool_), make({1, 1, 0}, {3}, DType::bool_)}));
}

}  // namespace
}  // namespace amps::rt
