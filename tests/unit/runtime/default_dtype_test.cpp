// The default dtype belongs to a runtime Context: factories, float-number promotion and integer float math follow
// the current context's, another context keeps its own, and float32 is the default of a fresh one.
#include <gtest/gtest.h>

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

TEST(DefaultDtype, FreshContextsUseFloat32) {
  Context ctx;
  EXPECT_EQ(ctx.default_dtype(), DType::float32);
  ContextGuard guard(ctx);
  EXPECT_EQ(dispatch(OpId::zeros, {Dims{2}})[0].dtype(), DType::float32);
  EXPECT_EQ(Tensor::scalar(Scalar(1.5)).dtype(), DType::float32);
}

TEST(DefaultDtype, FactoriesAndPromotionFollowTheCurrentContext) {
  Context a, b;
  a.set_default_dtype(DType::float64);
  ContextGuard ga(a);
  EXPECT_EQ(default_dtype(), DType::float64);
  for (OpId op : {OpId::zeros, OpId::ones, OpId::empty, OpId::rand, OpId::randn})
    EXPECT_EQ(dispatch(op, {Dims{2}})[0].dtype(), DType::float64) << op_name(op);
  EXPECT_EQ(dispatch(OpId::full, {Dims{2}, Scalar(1.5)})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::full, {Dims{2}, Scalar(int64_t(1))})[0].dtype(), DType::int64);
  EXPECT_EQ(dispatch(OpId::eye, {int64_t(2)})[0].dtype(), DType::float64);
  const Tensor i = test::make({1, 2, 3}, {3}, DType::int64);
  EXPECT_EQ(dispatch(OpId::mul, {i, wrap_number(Scalar(1.5))})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::div, {i, i})[0].dtype(), DType::float64);
  EXPECT_EQ(dispatch(OpId::sqrt, {i})[0].dtype(), DType::float64);
  const Tensor f = test::make({1, 2}, {2}, DType::float32);
  EXPECT_EQ(dispatch(OpId::mul, {f, wrap_number(Scalar(1.5))})[0].dtype(), DType::float32);  // float32 stays
  {
    ContextGuard gb(b);  // another interpreter's context keeps float32
    EXPECT_EQ(dispatch(OpId::zeros, {Dims{2}})[0].dtype(), DType::float32);
    EXPECT_EQ(dispatch(OpId::mul, {i, wrap_number(Scalar(1.5))})[0].dtype(), DType::float32);
  }
  EXPECT_EQ(dispatch(OpId::zeros, {Dims{2}})[0].dtype(), DType::float64);
}

}  // namespace
}  // namespace amps::rt
