// Autocast with the autograd layer: casts are recorded, gradients reach float32 weights in float32.
#include <gtest/gtest.h>

#include "../runtime/test_util.hpp"
#include "amp/autocast_layer.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/functions.hpp"

namespace amps::amp {
namespace {

using rt::DeviceType;
using rt::DType;
using rt::Tensor;
using rt::test::all_close;
using rt::test::make;

class AutocastAutogradTest : public ::testing::Test {
 protected:
  rt::Context ctx;
  rt::ContextGuard guard{ctx};
  void SetUp() override { rt::autograd::install(ctx); }
};

TEST_F(AutocastAutogradTest, MulBackwardPassesThroughTheLayerOutsideRegions) {
  install_autocast(ctx);
  Tensor a = make({1, 2}, {2});
  a.set_requires_grad(true);
  rt::autograd::backward({rt::sum(rt::mul(a, make({3, 5}, {2})))});
  EXPECT_TRUE(all_close(a.grad(), {3, 5}));
}

TEST_F(AutocastAutogradTest, GradientsOfALowerPrecisionOpReachTheFloat32Weight) {
  auto layer = install_autocast(ctx);
  Tensor w = make({1, 1, 1, 1}, {2, 2});
  w.set_requires_grad(true);
  Tensor y;
  {
    AutocastGuard region(layer, DeviceType::cpu, true, DType::bfloat16, true);
    y = rt::mm(make({1, 1, 1, 1}, {2, 2}), w);
    rt::mm(make({1, 1, 1, 1}, {2, 2}), w);  // second use hits the cache: one recorded cast
  }
  EXPECT_EQ(y.dtype(), DType::bfloat16);
  EXPECT_TRUE(y.requires_grad());
  rt::autograd::backward({rt::sum(y)});
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().dtype(), DType::float32);
  EXPECT_TRUE(all_close(w.grad(), {2, 2, 2, 2}));
}

// PyTorch issue #158232: a weight first cast under no_grad must still give later forwards a grad path.
TEST_F(AutocastAutogradTest, CastCachedUnderNoGradStillCarriesHistory) {
  auto layer = install_autocast(ctx);
  Tensor w = make({1, 2, 3, 4}, {2, 2});
  w.set_requires_grad(true);
  AutocastGuard region(layer, DeviceType::cpu, true, DType::bfloat16, true);
  {
    rt::GradModeGuard no_grad(false);
    EXPECT_FALSE(rt::mm(w, w).requires_grad());
  }
  Tensor y = rt::mm(make({1, 0, 0, 1}, {2, 2}), w);
  EXPECT_TRUE(y.requires_grad());
  rt::autograd::backward({rt::sum(y)});
  EXPECT_TRUE(all_close(w.grad(), {1, 1, 1, 1}));
}

}  // namespace
}  // namespace amps::amp
