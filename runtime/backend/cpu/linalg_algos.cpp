// Dense single-matrix factorizations (Cholesky, LU and its solves, triangular solves, Householder QR, one-sided
// Jacobi SVD, cyclic Jacobi symmetric eigen-decomposition) in plain loops; products accumulate in double so
// float32 results stay close to LAPACK's.
#include "runtime/backend/cpu/linalg_algos.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace amps::rt::cpu::linalg {
namespace {

template <typename T, typename U> double dot(const T* x, const U* y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += double(x[i]) * double(y[i]);
  return s;
}

// Row k of the row-major matrix [a] (n columns) swapped with row p.
template <typename T> void swap_rows(T* a, int64_t n, int64_t k, int64_t p) {
  if (k != p) std::swap_ranges(a + k * n, a + (k + 1) * n, a + p * n);
}

// Solves L U x = b in place ([b] has stride [bs]) with the factors from lu_factor.
template <typename T> void lu_solve_column(const T* lu, int64_t n, T* b, int64_t bs) {
  for (int64_t i = 0; i < n; ++i) {
    double s = double(b[i * bs]);
    for (int64_t j = 0; j < i; ++j) s -= double(lu[i * n + j]) * double(b[j * bs]);
    b[i * bs] = T(s);
  }
  for (int64_t i = n - 1; i >= 0; --i) {
    double s = double(b[i * bs]);
    for (int64_t j = i + 1; j < n; ++j) s -= double(lu[i * n + j]) * double(b[j * bs]);
    b[i * bs] = T(s / double(lu[i * n + i]));
  }
}

// LAPACK dlarfg on column j of the row-major m x n matrix [w]: turns w[j:, j] into (beta, v[1:]) with
// H = I - tau v v^T, v[0] = 1, H w[j:, j] = beta e1. Returns tau (0 when the column below j is zero).
template <typename T> T make_reflector(T* w, int64_t m, int64_t n, int64_t j) {
  double xnorm = 0;
  for (int64_t i = j + 1; i < m; ++i) xnorm = std::hypot(xnorm, double(w[i * n + j]));
  if (xnorm == 0) return T(0);
  const double alpha = double(w[j * n + j]), beta = -std::copysign(std::hypot(alpha, xnorm), alpha);
  const double scale = 1.0 / (alpha - beta);
  for (int64_t i = j + 1; i < m; ++i) w[i * n + j] = T(double(w[i * n + j]) * scale);
  w[j * n + j] = T(beta);
  return T((beta - alpha) / beta);
}

// Applies H = I - tau v v^T (v stored below row j of column j of [w], v[0] = 1) to rows j.. of columns
// [c0, c1) of the row-major matrix [x] (ld [ldx]).
template <typename T>
void apply_reflector(const T* w, int64_t m, int64_t n, int64_t j, T tau, T* x, int64_t ldx, int64_t c0, int64_t c1) {
  if (tau == T(0)) return;
  for (int64_t c = c0; c < c1; ++c) {
    double d = double(x[j * ldx + c]);
    for (int64_t i = j + 1; i < m; ++i) d += double(w[i * n + j]) * double(x[i * ldx + c]);
    d *= double(tau);
    x[j * ldx + c] = T(double(x[j * ldx + c]) - d);
    for (int64_t i = j + 1; i < m; ++i) x[i * ldx + c] = T(double(x[i * ldx + c]) - d * double(w[i * n + j]));
  }
}

// Rotates columns x, y (length n) by the Jacobi rotation (c, s).
template <typename T> void rotate(T* x, T* y, int64_t n, double c, double s) {
  for (int64_t i = 0; i < n; ++i) {
    const double xi = double(x[i]), yi = double(y[i]);
    x[i] = T(c * xi - s * yi);
    y[i] = T(s * xi + c * yi);
  }
}

// One Hestenes sweep over the column pairs of the column-major rows x cols [w], rotating [v] (cols x cols,
// column-major) alongside. Returns whether any pair was not yet orthogonal to within [tol].
template <typename T> bool jacobi_sweep(T* w, T* v, int64_t rows, int64_t cols, double tol) {
  bool rotated = false;
  for (int64_t p = 0; p < cols; ++p)
    for (int64_t q = p + 1; q < cols; ++q) {
      T *wp = w + p * rows, *wq = w + q * rows;
      const double alpha = dot(wp, wp, rows), beta = dot(wq, wq, rows), gamma = dot(wp, wq, rows);
      if (gamma == 0 || std::fabs(gamma) <= tol * std::sqrt(alpha * beta)) continue;
      rotated = true;
      const double zeta = (beta - alpha) / (2 * gamma);
      const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::hypot(1.0, zeta));
      const double c = 1 / std::hypot(1.0, t);
      rotate(wp, wq, rows, c, c * t);
      rotate(v + p * cols, v + q * cols, cols, c, c * t);
    }
  return rotated;
}

// Gives the columns of the column-major rows x cols [q] not marked [valid] unit vectors orthogonal to all
// other columns: standard basis vectors, Gram-Schmidt'ed twice, taken in order when enough remains.
template <typename T> void complete_basis(T* q, int64_t rows, int64_t cols, std::vector<bool>& valid) {
  std::vector<double> r(static_cast<size_t>(rows));
  int64_t next = 0;
  for (int64_t c = 0; c < cols; ++c) {
    while (!valid[size_t(c)] && next < rows) {
      std::fill(r.begin(), r.end(), 0.0);
      r[size_t(next++)] = 1;
      for (int pass = 0; pass < 2; ++pass)
        for (int64_t j = 0; j < cols; ++j) {
          if (!valid[size_t(j)]) continue;
          const double d = dot(q + j * rows, r.data(), rows);
          for (int64_t i = 0; i < rows; ++i) r[size_t(i)] -= d * double(q[j * rows + i]);
        }
      const double nrm = std::sqrt(dot(r.data(), r.data(), rows));
      if (nrm * nrm < 0.5 / double(rows)) continue;
      for (int64_t i = 0; i < rows; ++i) q[c * rows + i] = T(r[size_t(i)] / nrm);
      valid[size_t(c)] = true;
    }
  }
}

// Jacobi SVD of the column-major rows x cols [w] (rows >= cols): [u] rows x ucols, [v] cols x cols.
template <typename T> void tall_svd(std::vector<T>& w, int64_t rows, int64_t cols, T* u, int64_t ucols, T* s, T* v) {
  std::vector<T> vw(size_t(cols * cols), T(0));
  for (int64_t j = 0; j < cols; ++j) vw[size_t(j * cols + j)] = T(1);
  const double tol = 4 * double(std::numeric_limits<T>::epsilon());
  for (int sweep = 0; sweep < 64 && jacobi_sweep(w.data(), vw.data(), rows, cols, tol); ++sweep) {}
  std::vector<double> norms(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) norms[size_t(j)] = std::sqrt(dot(&w[size_t(j * rows)], &w[size_t(j * rows)], rows));
  std::vector<int64_t> order(static_cast<size_t>(cols));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return norms[size_t(a)] > norms[size_t(b)]; });
  const double smax = cols ? norms[size_t(order[0])] : 0.0;
  const double tiny = smax * double(std::numeric_limits<T>::epsilon()) * double(rows);
  std::vector<T> uc(size_t(rows * ucols), T(0));
  std::vector<bool> valid(size_t(ucols), false);
  for (int64_t k = 0; k < cols; ++k) {
    const int64_t j = order[size_t(k)];
    s[k] = T(norms[size_t(j)]);
    for (int64_t i = 0; i < cols; ++i) v[i * cols + k] = vw[size_t(j * cols + i)];
    if (norms[size_t(j)] <= tiny || norms[size_t(j)] == 0) continue;
    for (int64_t i = 0; i < rows; ++i) uc[size_t(k * rows + i)] = T(double(w[size_t(j * rows + i)]) / norms[size_t(j)]);
    valid[size_t(k)] = true;
  }
  complete_basis(uc.data(), rows, ucols, valid);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < ucols; ++k) u[i * ucols + k] = uc[size_t(k * rows + i)];
}

// The Jacobi rotation (c, s) that zeroes m[p][q] of the symmetric n x n [m] (Golub & Van Loan's symSchur2),
// applied as m = J^T m J, with v = v J accumulating the eigenvectors.
void jacobi_rotate(std::vector<double>& m, std::vector<double>& v, int64_t n, int64_t p, int64_t q) {
  const double apq = m[size_t(p * n + q)];
  const double tau = (m[size_t(q * n + q)] - m[size_t(p * n + p)]) / (2 * apq);
  const double t = std::copysign(1.0, tau) / (std::fabs(tau) + std::hypot(1.0, tau));
  const double c = 1 / std::hypot(1.0, t), s = t * c;
  auto turn = [c, s](double& x, double& y) {
    const double xp = x, yq = y;
    x = c * xp - s * yq;
    y = s * xp + c * yq;
  };
  for (int64_t k = 0; k < n; ++k) turn(m[size_t(k * n + p)], m[size_t(k * n + q)]);
  for (int64_t k = 0; k < n; ++k) turn(m[size_t(p * n + k)], m[size_t(q * n + k)]);
  for (int64_t k = 0; k < n; ++k) turn(v[size_t(k * n + p)], v[size_t(k * n + q)]);
  m[size_t(p * n + q)] = m[size_t(q * n + p)] = 0;
}

// Sum of squares of the off-diagonal elements of the n x n [m].
double off_diagonal(const std::vector<double>& m, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) s += i == j ? 0 : m[size_t(i * n + j)] * m[size_t(i * n + j)];
  return s;
}

}  // namespace

template <typename T> int64_t cholesky_lower(const T* a, T* l, int64_t n) {
  std::fill(l, l + n * n, T(0));
  for (int64_t j = 0; j < n; ++j) {
    const double d = double(a[j * n + j]) - dot(l + j * n, l + j * n, j);
    if (!(d > 0)) return j + 1;
    const double ljj = std::sqrt(d);
    l[j * n + j] = T(ljj);
    for (int64_t i = j + 1; i < n; ++i) l[i * n + j] = T((double(a[i * n + j]) - dot(l + i * n, l + j * n, j)) / ljj);
  }
  return 0;
}

template <typename T> int64_t lu_factor(T* lu, int64_t* perm, int64_t m, int64_t n, int32_t* ipiv) {
  int64_t info = 0;
  std::iota(perm, perm + m, int64_t(0));
  for (int64_t k = 0; k < std::min(m, n); ++k) {
    int64_t p = k;
    for (int64_t i = k + 1; i < m; ++i)
      if (std::fabs(double(lu[i * n + k])) > std::fabs(double(lu[p * n + k]))) p = i;
    if (ipiv) ipiv[k] = int32_t(p + 1);
    if (lu[p * n + k] == T(0)) {
      if (info == 0) info = k + 1;
      continue;
    }
    swap_rows(lu, n, k, p);
    std::swap(perm[k], perm[p]);
    for (int64_t i = k + 1; i < m; ++i) {
      const T l = lu[i * n + k] /= lu[k * n + k];
      for (int64_t j = k + 1; j < n; ++j) lu[i * n + j] -= l * lu[k * n + j];
    }
  }
  return info;
}

int permutation_sign(const int64_t* perm, int64_t n) {
  std::vector<bool> seen(size_t(n), false);
  int sign = 1;
  for (int64_t i = 0; i < n; ++i) {  // each cycle of length L contributes (-1)^(L-1)
    for (int64_t j = i; !seen[size_t(j)]; j = perm[j]) {
      seen[size_t(j)] = true;
      if (j != i) sign = -sign;
    }
  }
  return sign;
}

template <typename T> void lu_solve(const T* lu, const int64_t* perm, T* b, int64_t n, int64_t k) {
  std::vector<T> pb(size_t(n * k));
  for (int64_t i = 0; i < n; ++i) std::copy(b + perm[i] * k, b + (perm[i] + 1) * k, pb.begin() + i * k);
  for (int64_t c = 0; c < k; ++c) lu_solve_column(lu, n, pb.data() + c, k);
  std::copy(pb.begin(), pb.end(), b);
}

template <typename T> void triangular_solve(const T* a, T* b, int64_t n, int64_t k, bool upper, bool unit) {
  for (int64_t c = 0; c < k; ++c)
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = upper ? n - 1 - step : step;
      double s = double(b[i * k + c]);
      const int64_t j0 = upper ? i + 1 : 0, j1 = upper ? n : i;
      for (int64_t j = j0; j < j1; ++j) s -= double(a[i * n + j]) * double(b[j * k + c]);
      b[i * k + c] = T(unit ? s : s / double(a[i * n + i]));
    }
}

template <typename T> int64_t lu_inverse(const T* a, T* inv, int64_t n) {
  std::vector<T> lu(a, a + n * n);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  if (int64_t info = lu_factor(lu.data(), perm.data(), n)) return info;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < n; ++c) inv[i * n + c] = T(perm[size_t(i)] == c ? 1 : 0);
  for (int64_t c = 0; c < n; ++c) lu_solve_column(lu.data(), n, inv + c, n);
  return 0;
}

template <typename T> void householder_qr(const T* a, int64_t m, int64_t n, T* q, int64_t qcols, T* r, int64_t rrows) {
  std::vector<T> w(a, a + m * n);
  const int64_t k = std::min(m, n);
  std::vector<T> tau(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) {
    tau[size_t(j)] = make_reflector(w.data(), m, n, j);
    apply_reflector(w.data(), m, n, j, tau[size_t(j)], w.data(), n, j + 1, n);
  }
  for (int64_t i = 0; i < rrows; ++i)
    for (int64_t c = 0; c < n; ++c) r[i * n + c] = i <= c ? w[size_t(i * n + c)] : T(0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t c = 0; c < qcols; ++c) q[i * qcols + c] = T(i == c ? 1 : 0);
  for (int64_t j = k - 1; j >= 0; --j) apply_reflector(w.data(), m, n, j, tau[size_t(j)], q, qcols, 0, qcols);
}

template <typename T> bool jacobi_svd(const T* a, int64_t m, int64_t n, T* u, int64_t ucols, T* s, T* v, int64_t vcols) {
  for (int64_t i = 0; i < m * n; ++i)
    if (!std::isfinite(double(a[i]))) return false;
  std::vector<T> w(size_t(m * n));
  if (m < n) {  // A^T = V S U^T is tall; its column-major layout is A's row-major one
    std::copy(a, a + m * n, w.begin());
    tall_svd(w, n, m, v, vcols, s, u);
    return true;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) w[size_t(j * m + i)] = a[i * n + j];
  tall_svd(w, m, n, u, ucols, s, v);
  return true;
}

template <typename T> bool jacobi_eigh(const T* a, T* w, T* v, int64_t n) {
  for (int64_t i = 0; i < n * n; ++i)
    if (!std::isfinite(double(a[i]))) return false;
  std::vector<double> m(a, a + n * n), vv(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) vv[size_t(i * n + i)] = 1;
  double total = 0;  // ||a||_F^2: rotations stop once the off-diagonal part is negligible against it
  for (double x : m) total += x * x;
  const double eps = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 100 && off_diagonal(m, n) > eps * eps * total; ++sweep)
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q)
        if (m[size_t(p * n + q)] != 0) jacobi_rotate(m, vv, n, p, q);
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return m[size_t(x * n + x)] < m[size_t(y * n + y)]; });
  for (int64_t k = 0; k < n; ++k) {
    const int64_t j = order[size_t(k)];
    w[k] = T(m[size_t(j * n + j)]);
    int64_t big = 0;  // the sign convention: the largest-magnitude component positive
    for (int64_t i = 1; i < n; ++i)
      if (std::fabs(vv[size_t(i * n + j)]) > std::fabs(vv[size_t(big * n + j)])) big = i;
    const double flip = vv[size_t(big * n + j)] < 0 ? -1.0 : 1.0;
    for (int64_t i = 0; i < n; ++i) v[i * n + k] = T(flip * vv[size_t(i * n + j)]);
  }
  return true;
}

#define AMPS_LINALG_INSTANTIATE(T)                                                                    \
  template int64_t cholesky_lower<T>(const T*, T*, int64_t);                                          \
  template int64_t lu_inverse<T>(const T*, T*, int64_t);                                              \
  template int64_t lu_factor<T>(T*, int64_t*, int64_t, int64_t, int32_t*);                            \
  template void lu_solve<T>(const T*, const int64_t*, T*, int64_t, int64_t);                          \
  template void triangular_solve<T>(const T*, T*, int64_t, int64_t, bool, bool);                      \
  template bool jacobi_eigh<T>(const T*, T*, T*, int64_t);                                            \
  template void householder_qr<T>(const T*, int64_t, int64_t, T*, int64_t, T*, int64_t);              \
  template bool jacobi_svd<T>(const T*, int64_t, int64_t, T*, int64_t, T*, T*, int64_t);
AMPS_LINALG_INSTANTIATE(float)
AMPS_LINALG_INSTANTIATE(double)
#undef AMPS_LINALG_INSTANTIATE

}  // namespace amps::rt::cpu::linalg
