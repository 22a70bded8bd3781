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

// In-place LU with partial pivoting of the m x n matrix [lu] (LAPACK getrf): L (unit diagonal) below the diagonal,
// U on and above it; row k of P A is row perm[k] of A ([perm] has m entries). When [ipiv] is given, ipiv[k] for
// k < min(m, n) is getrf's 1-based pivot: the row swapped with row k at step k. Returns 0, or the 1-based index of
// the first exactly-zero pivot (that column is skipped, so U is still upper triangular with a zero there).
template <typename T> int64_t lu_factor(T* lu, int64_t* perm, int64_t m, int64_t n, int32_t* ipiv = nullptr);
// lu_factor of the n x n matrix [lu].
template <typename T> int64_t lu_factor(T* lu, int64_t* perm, int64_t n) { return lu_factor(lu, perm, n, n); }
// +1 or -1: the sign of the permutation [perm] of 0..n-1 (det P of lu_factor's P).
int permutation_sign(const int64_t* perm, int64_t n);
// Solves A X = B in place for the n x k matrix [b], given lu_factor's [lu] and [perm] of A (U nonsingular).
template <typename T> void lu_solve(const T* lu, const int64_t* perm, T* b, int64_t n, int64_t k);
// Solves A X = B in place for the n x k matrix [b], A n x n triangular: only its upper (or lower) triangle is read,
// its diagonal taken as ones when [unit]. A zero on the diagonal gives inf/NaN, as LAPACK trtrs' solve.
template <typename T> void triangular_solve(const T* a, T* b, int64_t n, int64_t k, bool upper, bool unit);
// Eigen-decomposition of the symmetric n x n matrix [a] (both triangles read) by cyclic Jacobi: [w] the
// eigenvalues ascending, [v] (n x n) the orthonormal eigenvectors as columns, each with its largest-magnitude
// component positive. Returns false when [a] holds a non-finite value.
template <typename T> bool jacobi_eigh(const T* a, T* w, T* v, int64_t n);

// Householder QR of the m x n matrix [a] (LAPACK geqrf/orgqr conventions): [q] gets the first [qcols]
// columns of Q (m x qcols), [r] the first [rrows] rows of R (rrows x n, zeros below the diagonal).
template <typename T> void householder_qr(const T* a, int64_t m, int64_t n, T* q, int64_t qcols, T* r, int64_t rrows);

// SVD a = U diag(s) V^T of the m x n matrix [a] by one-sided Jacobi; s (min(m, n)) is descending. [u] is
// m x ucols and [v] is n x vcols (ucols, vcols >= min(m, n)); columns beyond the rank are completed to an
// orthonormal set. Returns false when [a] holds a non-finite value.
template <typename T> bool jacobi_svd(const T* a, int64_t m, int64_t n, T* u, int64_t ucols, T* s, T* v, int64_t vcols);

}  // namespace amps::rt::cpu::linalg
