// CUDA kernels for the matrix-product family (mm, bmm, matmul, ..., linear): the shared shape logic
// (runtime/backend/common/matmul_kernels.hpp) over one cuBLASLt GEMM (blas.cpp); float dtypes only.
#include "runtime/backend/common/matmul_kernels.hpp"
#include "runtime/backend/cuda/blas.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"

namespace amps::rt::cuda {
namespace {

// The device primitives the shared matrix-product kernels run on.
struct CudaMatmul {
  static void gemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta) {
    cuda::gemm(a, w, dst, alpha, beta);
  }
  static void copy_into(const Tensor& dst, const Tensor& src) { cuda::copy_into(dst, src); }
  static Tensor cast(const Tensor& t, DType dtype) { return cuda::cast(t, dtype); }
  static Tensor reshape(const Tensor& t, const Dims& shape) { return cuda::reshape(t, shape); }
};

}  // namespace

void register_matmul_kernels(KernelTable& t) {
  common::register_matmul_kernels<CudaMatmul>(t, kFloatDTypes);  // cuBLASLt has no int64/int32 GEMM
}

}  // namespace amps::rt::cuda
