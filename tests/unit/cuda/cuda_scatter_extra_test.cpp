// The scatter family beyond scatter/scatter_add on cuda against the CPU: the composites (select/slice/
// diagonal_scatter, index_put, masked_scatter, put, index_reduce, as_strided and as_strided_scatter, the in-place
// forms) and scatter_reduce, whose CPU kernel runs on host copies (the host fallback).
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"

namespace amps::rt {
namespace {

TEST_F(Cuda, SliceRegionScattersMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({3, 4}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::select_scatter, {x, input({4}, dt, 1.0), int64_t(0), int64_t(-1)}));
    EXPECT_TRUE(same_on_cuda(OpId::slice_scatter, {x, input({3, 2}, dt, 1.0), int64_t(1), int64_t(1), IValue(), int64_t(2)}));
    EXPECT_TRUE(same_on_cuda(OpId::diagonal_scatter, {x, input({3}, dt, 1.0), int64_t(1), int64_t(0), int64_t(1)}));
  }
}

TEST_F(Cuda, IndexPutMaskedScatterAndPutMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({4, 3}, dt), rows = make({1, 1, 3}, {3}, DType::int64), cols = make({0, 0, 2}, {3}, DType::int64);
    for (bool acc : {false, true}) {
      EXPECT_TRUE(same_on_cuda(OpId::index_put, {x, std::vector<Tensor>{make({3, 0}, {2}, DType::int64)}, input({2, 3}, dt, 1.0), acc}));
      EXPECT_TRUE(same_on_cuda(OpId::put, {x, make({5, 0, -2}, {3}, DType::int64), input({3}, dt, 1.0), acc}));
    }
    EXPECT_TRUE(same_on_cuda(OpId::index_put, {x, std::vector<Tensor>{rows, cols}, input({3}, dt, 1.0), true}, 3));
    EXPECT_TRUE(same_on_cuda(OpId::index_put_, {x.clone(), std::vector<Tensor>{make({1, 0, 1, 0}, {4}, DType::bool_)}, input({}, dt), false}));
    EXPECT_TRUE(same_on_cuda(OpId::masked_scatter, {x, make({1, 0, 1}, {3}, DType::bool_), input({12}, dt, 1.0)}));
    EXPECT_TRUE(same_on_cuda(OpId::masked_scatter_, {x.clone(), make({0, 1, 1}, {3}, DType::bool_), input({8}, dt, 1.0)}));
  }
}

TEST_F(Cuda, ScatterReduceAndIndexReduceMatchTheCpu) {
  const Tensor pos = make({0, 1, 0, 1, 2, 1, 2, 2, 0, 0, 1, 2}, {3, 4}, DType::int64);
  for (DType dt : {DType::float32, DType::float64, DType::int64})
    for (const char* red : {"sum", "prod", "mean", "amax", "amin"})
      for (bool self : {true, false}) {
        const Tensor x = input({3, 4}, dt, 0.0, 2.0, 3.0), src = input({3, 4}, dt, 1.0, 2.0, 3.0);
        EXPECT_TRUE(same_on_cuda(OpId::scatter_reduce, {x, int64_t(0), pos, src, red, self}, 4)) << red;
        EXPECT_TRUE(same_on_cuda(OpId::scatter_reduce_, {x.clone(), int64_t(1), pos, src, red, self}, 4)) << red;
        if (std::string(red) == "sum") continue;
        EXPECT_TRUE(same_on_cuda(OpId::index_reduce, {x, int64_t(1), make({3, 0, 3}, {3}, DType::int64),
                                                      input({3, 3}, dt, 2.0, 2.0, 3.0), red, self}, 4)) << red;
      }
}

TEST_F(Cuda, AsStridedAndItsScatterMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({3, 4}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::as_strided, {x, Dims{3, 2}, Dims{1, 3}, int64_t(2)}));
    EXPECT_TRUE(same_on_cuda(OpId::as_strided_scatter, {x, input({2, 2}, dt, 1.0), Dims{2, 2}, Dims{1, 3}, IValue()}));
    // A transposed input scatters into its own memory order: the cuda input is transposed on the device, since a
    // move (to) makes a row-major copy where PyTorch would keep the strides.
    const Tensor src = input({2, 2}, dt, 1.0);
    const Tensor want = dispatch(OpId::as_strided_scatter, {x.t(), src, Dims{2, 2}, Dims{1, 3}, IValue()})[0];
    const Tensor got = dispatch(OpId::as_strided_scatter, {x.to(kCuda).t(), src.to(kCuda), Dims{2, 2}, Dims{1, 3},
                                                           IValue()})[0];
    EXPECT_TRUE(test::all_close(got, want, 0, 0)) << dtype_name(dt);
  }
}

}  // namespace
}  // namespace amps::rt
