// The composite kernels (runtime/backend/common/composite_kernels.cpp, the CUDA backend's norm, logsumexp, all,
// any, losses and slice/select backward) run here on CPU tensors, through their own kernel table, and must agree
// with the CPU backend's native kernels: values, shapes, dtypes and error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/backend/common/composite_kernels.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::make;
using test::throws_error;
using test::wavy;

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

const cpu::KernelTable& composites() {
  static const cpu::KernelTable t = [] {
    cpu::KernelTable table;
    common::register_composite_kernels(table);
    return table;
  }();
  return t;
}

Tensor composite(OpId op, Args args) {
  complete_args(op, args);
  const KernelContext kc{current_context(), Device::cpu()};
  return composites().get(op)(ArgReader(op, args), kc)[0];
}

Tensor native(OpId op, Args args) { return dispatch(op, std::move(args))[0]; }

// Relative tolerance for [dt]: the composites compute in the dtype (float for half types), the CPU in double.
double tol(DType dt) {
  switch (dt) {
    case DType::float64: return 1e-12;
    case DType::float32: return 1e-5;
    case DType::float16: return 2e-3;
    case DType::bfloat16: return 1.6e-2;
    default: return 0;
  }
}

::testing::AssertionResult agree(OpId op, const Args& args) {
  const Tensor want = native(op, args), got = composite(op, args);
  if (got.sizes() != want.sizes() || got.dtype() != want.dtype())
    return ::testing::AssertionFailure() << op_name(op) << ": got " << format_shape(got.sizes()) << " "
                                         << dtype_name(got.dtype()) << ", want " << format_shape(want.sizes()) << " "
                                         << dtype_name(want.dtype());
  const double t = tol(want.dtype());
  return test::all_close(got, want, t, t) << " (" << op_name(op) << ")";
}

constexpr DType kFloats[] = {DType::float64, DType::float32, DType::float16, DType::bfloat16};

TEST(CompositeKernels, SliceAndSelectBackwardWriteIntoZeros) {
  const Tensor g = make(wavy(6), {2, 3});
  EXPECT_TRUE(agree(OpId::slice_backward, {g, Dims{5, 3}, int64_t(0), int64_t(1), int64_t(5), int64_t(2)}));
  EXPECT_TRUE(agree(OpId::slice_backward, {make(wavy(8), {4, 2}), Dims{4, 7}, int64_t(-1), IValue(), int64_t(-2), int64_t(3)}));
  EXPECT_TRUE(agree(OpId::select_backward, {make(wavy(4), {4}), Dims{4, 3}, int64_t(1), int64_t(-1)}));
  EXPECT_TRUE(agree(OpId::select_backward, {make(wavy(6, 1), {2, 3}, DType::bfloat16), Dims{2, 5, 3}, int64_t(1), int64_t(2)}));
}

TEST(CompositeKernels, NormOfEveryOrderDimAndDtype) {
  for (DType dt : kFloats) {
    const Tensor x = make(wavy(24, 0.4), {2, 3, 4}, dt);
    for (double p : {2.0, 1.0, 0.0, 3.0, 0.5, kInf, -kInf}) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " p=" << p);
      EXPECT_TRUE(agree(OpId::norm, {x, Scalar(p)}));
      EXPECT_TRUE(agree(OpId::norm, {x, Scalar(p), Dims{1}, true}));
      EXPECT_TRUE(agree(OpId::norm, {x, Scalar(p), Dims{0, -1}, false}));
    }
  }
  // large half values are squared in float (65504^2 overflows float16)
  EXPECT_TRUE(agree(OpId::norm, {make({60000, -60000, 3}, {3}, DType::float16)}));
  EXPECT_TRUE(agree(OpId::norm, {make(wavy(6), {6}, DType::float16), Scalar(2.0), IValue(), false, DType::float32}));
  EXPECT_TRUE(throws_error([] { composite(OpId::norm, {make({1, 2}, {2}, DType::int64)}); }, "RuntimeError",
                           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got int64"));
}

TEST(CompositeKernels, LogsumexpIsStableAndKeepsInfinities) {
  for (DType dt : kFloats) {
    SCOPED_TRACE(dtype_name(dt));
    const Tensor x = make({1, 2, 3, 100, 101, -50, -kInf, -kInf, -kInf, kInf, 0, 1}, {4, 3}, dt);
    EXPECT_TRUE(agree(OpId::logsumexp, {x, Dims{1}}));
    EXPECT_TRUE(agree(OpId::logsumexp, {x, Dims{-1}, true}));
    EXPECT_TRUE(agree(OpId::logsumexp, {make(wavy(24), {2, 3, 4}, dt), Dims{0, 2}}));
  }
  EXPECT_TRUE(agree(OpId::logsumexp, {make({1, 2, 3}, {3}, DType::int64), Dims{0}}));
}

TEST(CompositeKernels, AllAndAnyCountZerosNanIsNonzero) {
  const Tensor x = make({0, 1, 2, 3, kNan, 5, 0, 0, 0}, {3, 3});
  for (OpId op : {OpId::all, OpId::any}) {
    EXPECT_TRUE(agree(op, {x}));
    EXPECT_TRUE(agree(op, {x, int64_t(0)}));
    EXPECT_TRUE(agree(op, {x, int64_t(1), true}));
    EXPECT_TRUE(agree(op, {x, IValue(), true}));
    EXPECT_TRUE(agree(op, {make({1, 0, 1}, {3}, DType::bool_)}));
    EXPECT_TRUE(agree(op, {make({1, 2, 3}, {3}, DType::int64)}));
  }
}

TEST(CompositeKernels, PointwiseLossesEveryReduction) {
  for (DType dt : kFloats)
    for (const char* red : {"mean", "sum", "none"}) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " " << red);
      const Tensor x = make(wavy(12, 0.1), {3, 4}, dt), y = make(wavy(4, 2.0), {4}, dt);
      EXPECT_TRUE(agree(OpId::mse_loss, {x, y, std::string(red)}));
      EXPECT_TRUE(agree(OpId::l1_loss, {x, y, std::string(red)}));
      for (double beta : {1.0, 0.3, 0.0}) EXPECT_TRUE(agree(OpId::smooth_l1_loss, {x, y, std::string(red), beta}));
    }
  EXPECT_TRUE(agree(OpId::mse_loss, {make({1, 2}, {2}, DType::float16), make({0, 0}, {2}), std::string("sum")}));
  EXPECT_TRUE(throws_error([] { composite(OpId::mse_loss, {make({1, 2}, {2}), make({1, 2, 3}, {3})}); }, "RuntimeError",
                           "not broadcastable"));
  EXPECT_TRUE(throws_error([] { composite(OpId::l1_loss, {make({1}, {1}), make({1}, {1}), std::string("avg")}); },
                           "ValueError", "avg is not a valid value for reduction"));
}

TEST(CompositeKernels, BinaryCrossEntropyWithWeightsAndClampedLogs) {
  for (DType dt : {DType::float64, DType::float32, DType::bfloat16}) {
    SCOPED_TRACE(dtype_name(dt));
    const Tensor p = make({0.0, 0.2, 0.5, 0.9, 1.0, 0.7}, {2, 3}, dt), y = make({0.5, 1, 0.5, 1, 0.5, 0.25}, {2, 3}, dt);
    const Tensor w = make({1, 2, 0.5}, {3}, dt);
    EXPECT_TRUE(agree(OpId::binary_cross_entropy, {p, y}));
    EXPECT_TRUE(agree(OpId::binary_cross_entropy, {p, y, w, std::string("none")}));
    const Tensor logits = make({-100, -2, 0, 0.5, 3, 100}, {2, 3}, dt);
    EXPECT_TRUE(agree(OpId::binary_cross_entropy_with_logits, {logits, y}));
    EXPECT_TRUE(agree(OpId::binary_cross_entropy_with_logits, {logits, y, w, std::string("sum"), make({3, 1, 0.5}, {3}, dt)}));
  }
  EXPECT_TRUE(throws_error([] { composite(OpId::binary_cross_entropy, {make({0.5}, {1}), make({1, 0}, {2})}); },
                           "RuntimeError", "Using a target size ((2,)) that is different to the input size ((1,))"));
}

TEST(CompositeKernels, PreluCosinesGroupNormTrace) {
  for (DType dt : kFloats) {
    SCOPED_TRACE(dtype_name(dt));
    const Tensor x = make(wavy(60, 0.3), {2, 3, 10}, dt);
    EXPECT_TRUE(agree(OpId::prelu, {x, make({0.25}, {1}, dt)}));
    EXPECT_TRUE(agree(OpId::prelu, {x, make({0.1, -0.2, 0.3}, {3}, dt)}));
    EXPECT_TRUE(agree(OpId::prelu, {make({-1, 2, -3}, {3}, dt), make({0.5}, {1}, dt)}));
    const Tensor y = make(wavy(60, 1.3), {2, 3, 10}, dt);
    EXPECT_TRUE(agree(OpId::cosine_similarity, {x, y}));
    EXPECT_TRUE(agree(OpId::cosine_similarity, {x, make(wavy(10, 2.0), {10}, dt), int64_t(-1), 1e-6}));
    EXPECT_TRUE(agree(OpId::cosine_similarity, {make({0, 0, 0}, {1, 3}, dt), make({1, 2, 3}, {1, 3}, dt)}));  // eps
    const Tensor a2 = make(wavy(12, 0.5), {4, 3}, dt), b2 = make(wavy(12, 2.5), {4, 3}, dt);
    for (const char* red : {"mean", "sum", "none"})
      EXPECT_TRUE(agree(OpId::cosine_embedding_loss, {a2, b2, make({1, -1, 1, -1}, {4}), 0.1, std::string(red)}));
    EXPECT_TRUE(agree(OpId::cosine_embedding_loss, {make(wavy(3), {3}, dt), make(wavy(3, 1), {3}, dt), make({-1}, {1})}));
    const Tensor w = make({1.5, -0.5, 2, 1, 0.5, 3}, {6}, dt), b = make({0.1, 0.2, 0.3, -0.1, -0.2, -0.3}, {6}, dt);
    const Tensor img = make(wavy(96, 0.7), {2, 6, 2, 4}, dt);
    EXPECT_TRUE(agree(OpId::group_norm, {img, int64_t(3), w, b}));
    EXPECT_TRUE(agree(OpId::group_norm, {img, int64_t(2)}));
    EXPECT_TRUE(agree(OpId::group_norm, {make(wavy(12), {2, 6}, dt), int64_t(6), w, b, 1e-3}));
    EXPECT_TRUE(agree(OpId::trace, {make(wavy(12), {3, 4}, dt)}));
    EXPECT_TRUE(agree(OpId::trace, {make(wavy(12), {4, 3}, dt).t()}));
  }
  EXPECT_TRUE(agree(OpId::trace, {make({1, 2, 3, 4}, {2, 2}, DType::int64)}));
  EXPECT_TRUE(throws_error([] { composite(OpId::prelu, {make(wavy(6), {2, 3}), make({1, 2}, {2})}); }, "RuntimeError",
                           "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and "
                           "channel size = 3."));
  EXPECT_TRUE(throws_error([] { composite(OpId::group_norm, {make(wavy(12), {2, 6}), int64_t(4)}); }, "RuntimeError",
                           "Expected number of channels in input to be divisible by num_groups"));
  EXPECT_TRUE(throws_error([] { composite(OpId::trace, {make(wavy(3), {3})}); }, "RuntimeError",
                           "trace: expected a matrix, but got tensor with dim 1"));
}

TEST(CompositeKernels, IndexCopyWritesTheSourceSlices) {
  for (DType dt : kFloats) {
    SCOPED_TRACE(dtype_name(dt));
    const Tensor x = make(wavy(24), {4, 6}, dt);
    EXPECT_TRUE(agree(OpId::index_copy, {x, int64_t(0), make({3, 0}, {2}, DType::int64), make(wavy(12, 1), {2, 6}, dt)}));
    EXPECT_TRUE(agree(OpId::index_copy, {x, int64_t(-1), make({5, 1, 2}, {3}, DType::int32), make(wavy(12, 2), {4, 3}, dt)}));
    Tensor y = x.clone();
    composite(OpId::index_copy_, {y, int64_t(1), make({4}, {1}, DType::int64), make(wavy(4, 3), {4, 1}, dt)});
    EXPECT_TRUE(test::all_close(y, native(OpId::index_copy, {x, int64_t(1), make({4}, {1}, DType::int64),
                                                             make(wavy(4, 3), {4, 1}, dt)}), 0, 0));
  }
  EXPECT_TRUE(throws_error([] { composite(OpId::index_copy, {make(wavy(6), {2, 3}), int64_t(0), make({0}, {1}, DType::int64),
                                                             make({1, 2}, {1, 2})}); },
                           "RuntimeError", "index_copy_(): Source/destination tensor must have same slice shapes"));
}

TEST(CompositeKernels, CdistOfEveryOrderAndBatch) {
  for (DType dt : kFloats)
    for (double p : {2.0, 1.0, 0.0, 3.0, kInf}) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " p=" << p);
      EXPECT_TRUE(agree(OpId::cdist, {make(wavy(15), {5, 3}, dt), make(wavy(12, 1), {4, 3}, dt), p}));
      EXPECT_TRUE(agree(OpId::cdist, {make(wavy(30), {2, 5, 3}, dt), make(wavy(12, 1), {4, 3}, dt), p}));
    }
  EXPECT_TRUE(throws_error([] { composite(OpId::cdist, {make(wavy(6), {2, 3}), make(wavy(4), {2, 2})}); },
                           "RuntimeError", "X1 and X2 must have the same number of columns. X1: 3 X2: 2"));
}

TEST(CompositeKernels, IsCloseFollowsPyTorch) {
  const double inf = kInf;
  const Tensor a = make({1.0, inf, kNan, 2.0, -inf, 1e10}, {6}), b = make({1.0 + 1e-7, inf, kNan, 2.1, inf, 1.00001e10}, {6});
  EXPECT_TRUE(test::all_close(native(OpId::isclose, {a, b}), {1, 1, 0, 0, 0, 0}, 0, 0));
  EXPECT_TRUE(test::all_close(native(OpId::isclose, {a, b, 1e-5, 1e-8, true}), {1, 1, 1, 0, 0, 0}, 0, 0));
  EXPECT_TRUE(test::all_close(native(OpId::isclose, {a, b, 0.0, 0.2, true}), {1, 1, 1, 1, 0, 0}, 0, 0));
  EXPECT_TRUE(throws_error([&] { native(OpId::isclose, {a, b, -1.0}); }, "ValueError", "rtol must be greater than or equal to zero"));
}

}  // namespace
}  // namespace amps::rt
