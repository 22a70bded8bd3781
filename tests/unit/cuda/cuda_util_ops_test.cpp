// The torch-namespace reductions, samplers and creation functions (common/util_composites.hpp) on CUDA against the
// CPU: the composites' values, the draws (made on the host from the same seed, so equal numbers), and poisson and
// binomial through the host fallback.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

TEST_F(Cuda, UtilReductionsMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({4, 6}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::msort, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::nanmedian, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::nanmedian_dim, {x, int64_t(1), true}));
    EXPECT_TRUE(same_on_cuda(OpId::mode, {make({1, 2, 2, 3, 3, 3, 0, 0, 5}, {3, 3}, dt), int64_t(1), false}));
  }
}

TEST_F(Cuda, UtilCreationMatchesTheCpu) {
  for (DType dt : kFloats) {
    const Tensor y = input({3, 5}, dt), x = input({5}, dt, 0.3);
    EXPECT_TRUE(same_on_cuda(OpId::vander, {input({4}, dt), int64_t(3), false}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::combinations, {x, int64_t(2), true}));
    EXPECT_TRUE(same_on_cuda(OpId::trapezoid, {y, x}, 5));
    EXPECT_TRUE(same_on_cuda(OpId::trapezoid_dx, {y, Scalar(0.5), int64_t(0)}, 5));
    EXPECT_TRUE(same_on_cuda(OpId::cumulative_trapezoid, {y, x}, 5));
    EXPECT_TRUE(same_on_cuda(OpId::cumulative_trapezoid_dx, {y, Scalar(2.0)}, 5));
  }
  const std::vector<std::pair<OpId, Args>> windows = {{OpId::hann_window, {int64_t(7), true, IValue(), kCuda}},
                                                      {OpId::kaiser_window, {int64_t(7), true, 12.0, IValue(), kCuda}}};
  for (const auto& [op, args] : windows) {
    const Tensor cpu = dispatch(op, {int64_t(7)})[0];
    const Tensor gpu = dispatch(op, Args(args))[0];
    EXPECT_EQ(gpu.device(), kCuda);
    EXPECT_TRUE(test::all_close(gpu.to(Device::cpu()), cpu, 0, 0));
  }
}

// Each sampler drawn on cuda after the same seed as on the CPU gives the CPU's numbers.
TEST_F(Cuda, UtilSamplersDrawTheCpuNumbers) {
  const Tensor rates = input({3, 4}, DType::float32, 0.0, 3.0), prob = input({3, 4}, DType::float32, 0.2, 0.5, 0.4);
  const std::vector<std::pair<OpId, Args>> calls = {
      {OpId::poisson, {rates}},
      {OpId::binomial, {mul(rates, wrap_number(Scalar(4.0))), prob}},
      {OpId::normal_tensor_tensor, {rates, prob}},
      {OpId::exponential_, {rates.clone(), 2.0}},
      {OpId::geometric_, {rates.clone(), 0.3}},
      {OpId::random__from, {rates.clone(), int64_t(-3), int64_t(9)}},
  };
  for (const auto& [op, args] : calls) {
    current_context().generator().manual_seed(11);
    const Tensor want = dispatch(op, Args(args))[0];
    Args on_device;
    for (const IValue& v : args) on_device.push_back(to_cuda(v));
    current_context().generator().manual_seed(11);
    const Tensor got = dispatch(op, on_device)[0];
    EXPECT_EQ(got.device(), kCuda) << op_name(op);
    EXPECT_TRUE(test::all_close(got.to(Device::cpu()), want, 1e-6, 1e-6)) << op_name(op);
  }
}

}  // namespace
}  // namespace amps::rt
