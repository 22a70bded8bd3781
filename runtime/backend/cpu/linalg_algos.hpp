// Dense single-matrix factorizations on row-major host arrays (T = float or double), used by linalg_kernels.
#pragma once

#include <cstdint>

namespace amps::rt::cpu::linalg {

// Cholesky factor of the n x n matrix [a] (only its lower triangle is read) written to [l] (lower
// triangular, zeros above). Returns 0, or the 1-based order of the first leading minor that is not
// positive-definite (LAPACK potrf's info).
template <typename T> int64_t cholesky_lower(const T* a, T* l, int64_t n);

// Inverse of the n x n matrix [a] into [inv] by LU with partial pivoting. Returns 0, or the 1-based index
// of the first exactly-zero pivot of U (LAPACK getrf's info), in which case [inv] is unspecified.
template <typename T> int64_t lu_inverse(const T* a, T* inv, int64_t n);

// Householder QR of the m x n matrix [a] (LAPACK geqrf/orgqr conventions): [q] gets the first [qcols]
// columns of Q (m x qcols), [r] the first [rrows] rows of R (rrows x n, zeros below the diagonal).
template <typename T> void householder_qr(const T* a, int64_t m, int64_t n, T* q, int64_t qcols, T* r, int64_t rrows);

// SVD a = U diag(s) V^T of the m x n matrix [a] by one-sided Jacobi; s (min(m, n)) is descending. [u] is
// m x ucols and [v] is n x vcols (ucols, vcols >= min(m, n)); columns beyond the rank are completed to an
// orthonormal set. Returns false when [a] holds a non-finite value.
template <typename T> bool jacobi_svd(const T* a, int64_t m, int64_t n, T* u, int64_t ucols, T* s, T* v, int64_t vcols);

}  // namespace amps::rt::cpu::linalg
