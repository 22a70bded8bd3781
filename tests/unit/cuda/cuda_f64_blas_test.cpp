// float64 matrix products, the CPU's on OpenBLAS (runtime/backend/cpu/blas_gemm.cpp), against cuda's (cuBLAS): the
// paths the CPU side picks by shape and strides: matrix-vector forms (gemv), sliced and transposed operands bound
// as they are, stride-0 operands copied, batches spread over threads (small) or run one after another (big).
#include "cuda_test_util.hpp"
#include "runtime/views.hpp"

namespace amps::rt {
namespace {

constexpr DType f64 = DType::float64;

TEST_F(Cuda, Float64ProductsOnOpenBlasMatchCuda) {
  Tensor a = input({97, 51}, f64), b = input({51, 204}, f64, 0.2);
  EXPECT_TRUE(same_on_cuda(OpId::mm, {a, b}, 51));
  EXPECT_TRUE(same_on_cuda(OpId::mm, {native::slice(input({97, 80}, f64), 1, 10, 61, 1), native::slice(b, 1, 0, 204, 3)}, 51));
  EXPECT_TRUE(same_on_cuda(OpId::mm, {native::expand(input({1, 51}, f64), {97, 51}), b}, 51));  // stride-0 rows
  EXPECT_TRUE(same_on_cuda(OpId::mv, {a, native::slice(input({102}, f64, 0.3), 0, 0, 102, 2)}, 51));
  EXPECT_TRUE(same_on_cuda(OpId::mv, {a.t(), input({97}, f64, 0.4)}, 97));
  EXPECT_TRUE(same_on_cuda(OpId::dot, {input({300}, f64), input({300}, f64, 0.5)}, 300));
  EXPECT_TRUE(same_on_cuda(OpId::outer, {input({40}, f64), input({30}, f64, 0.6)}));
  EXPECT_TRUE(same_on_cuda(OpId::addmv, {input({97}, f64, 0.7), a, input({51}, f64, 0.8), Scalar(2.0), Scalar(-1.0)}, 51));
  EXPECT_TRUE(same_on_cuda(OpId::addr, {input({40, 30}, f64), input({40}, f64, 0.1), input({30}, f64, 0.2), Scalar(0.5), Scalar(3.0)}));
  EXPECT_TRUE(same_on_cuda(OpId::bmm, {input({300, 5, 7}, f64), input({300, 7, 3}, f64, 0.9)}, 7));
  EXPECT_TRUE(same_on_cuda(OpId::baddbmm, {input({2, 80, 70}, f64), input({2, 80, 90}, f64, 0.1),
                                           native::transpose(input({2, 70, 90}, f64, 0.2), 1, 2), Scalar(-1.0), Scalar(1.0)}, 90));
  EXPECT_TRUE(same_on_cuda(OpId::addbmm, {input({9, 5}, f64), input({6, 9, 7}, f64), input({6, 7, 5}, f64, 0.3)}, 42));
  EXPECT_TRUE(same_on_cuda(OpId::linear, {input({4, 32, 64}, f64), input({48, 64}, f64, 0.4), input({48}, f64, 0.5)}, 64));
  EXPECT_TRUE(same_on_cuda(OpId::matmul, {input({3, 1, 9, 7}, f64), input({4, 7, 5}, f64, 0.6)}, 7));
}

}  // namespace
}  // namespace amps::rt
