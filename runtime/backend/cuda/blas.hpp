// GEMM through cuBLASLt: the one matrix-product primitive the CUDA matmul family is built on.
#pragma once

#include "runtime/tensor.hpp"

namespace amps::rt::cuda {

// dst = alpha * (a @ w) + beta * dst, with a [..., M, K] and w [..., K, N] broadcast to dst's batch dims
// [..., M, N]; all of one float dtype. f16/bf16 run on tensor cores with f32 accumulation, f32 in full
// f32 (no TF32), f64 in f64. Strided operands are used in place when cuBLASLt can read them.
void gemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha = 1.0, double beta = 0.0);

}  // namespace amps::rt::cuda
