// float64 matrix products on OpenBLAS (oneDNN has no f64 matmul; the reference loops run 3-4x PyTorch's time).
#pragma once

#include "runtime/tensor.hpp"

namespace amps::rt::cpu::blas {

// dst = alpha * (a @ w) + beta * dst for float64 a [..., M, K], w [..., K, N] and dst [..., M, N], where a's and
// w's batch dims already equal dst's (expanded: stride 0 where broadcast). Any non-negative strides: a matrix with
// a unit stride in either dim and a leading dim that spans the other is handed to BLAS as it is (a transposed view
// costs no copy); others are copied dense first, as is an operand in dst's storage (x.addmm_(x, y)). beta == 0
// ignores dst's old contents (NaN too, as PyTorch's). Threads: OpenBLAS's OpenMP build reads omp_get_max_threads()
// per call (set_num_threads), and runs one thread inside an OpenMP parallel region (the batch loop). Returns false
// (nothing written) when a matrix dim or stride does not fit BLAS's 32-bit int: the caller runs its reference loops.
bool dgemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta);

// OpenBLAS's own thread count (openblas_get_num_threads): omp_get_max_threads() of its last call that ran threaded
// (a call at 1 thread runs on the caller's thread and leaves it as it was).
int openblas_threads();

}  // namespace amps::rt::cpu::blas
