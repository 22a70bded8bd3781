// CPU kernels of the LU family and its relatives: linalg_lu_factor_ex, linalg_det, linalg_slogdet, linalg_solve and
// linalg_solve_triangular (batch dims broadcast, as PyTorch's), and linalg_eigh; float32 and float64 only, as
// PyTorch's CPU LAPACK, with its argument checks and messages.
#include <algorithm>
#include <cmath>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/linalg_algos.hpp"
#include "runtime/backend/cpu/linalg_batch.hpp"

namespace amps::rt::cpu {
namespace {

// The checks PyTorch's squareCheckInputs and checkFloatingOrComplex make, in their order, then the batch.
Mats square_input(const Tensor& x, std::string_view op) {
  AMPS_CHECK(x.dim() >= 2, "{}: The input tensor A must have at least 2 dimensions.", op);
  check_square(x, op);
  check_float_input(x, op);
  return as_mats(x, op);
}

// LU of one n x n matrix [a] (a copy): the sign of its permutation, and U's diagonal in [diag].
template <typename T> int lu_diagonal(const T* a, int64_t n, std::vector<double>& diag) {
  std::vector<T> lu(a, a + n * n);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  linalg::lu_factor(lu.data(), perm.data(), n);
  diag.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) diag[size_t(i)] = double(lu[size_t(i * n + i)]);
  return linalg::permutation_sign(perm.data(), n);
}

// det = sign(P) prod(diag U); a zero pivot gives 0. An empty matrix has determinant 1.
Tensors k_linalg_det(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  Mats m = square_input(x, "linalg.det");
  Tensor out = batch_of(m, {}, kc.device);
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T* o = out.data<T>();
    for_batch(m, [&](int64_t b) {
      std::vector<double> diag;
      double d = lu_diagonal(in + b * m.n * m.n, m.n, diag);
      for (double u : diag) d *= u;
      o[b] = T(d);
    });
  });
  return one_tensor(cast(out, x.dtype()));
}

// slogdet: sign = sign(P) prod(sign(diag U)) (0 when singular), logabsdet = sum log |diag U| (-inf when singular).
Tensors k_linalg_slogdet(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  Mats m = square_input(x, "linalg.slogdet");
  Tensor sign = batch_of(m, {}, kc.device), logabs = batch_of(m, {}, kc.device);
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T *so = sign.data<T>(), *lo = logabs.data<T>();
    for_batch(m, [&](int64_t b) {
      std::vector<double> diag;
      double s = lu_diagonal(in + b * m.n * m.n, m.n, diag), l = 0;
      for (double u : diag) {
        s *= u > 0 ? 1.0 : u < 0 ? -1.0 : 0.0;
        l += std::log(std::fabs(u));
      }
      so[b] = T(s);
      lo[b] = T(l);
    });
  });
  return {cast(sign, x.dtype()), cast(logabs, x.dtype())};
}

// getrf of every matrix of [m] in place in [lu] (a copy of m's data), 1-based pivots into [piv]; the infos.
std::vector<int64_t> lu_factor_batch(const Mats& m, Tensor& lu, Tensor& piv) {
  const int64_t k = std::min(m.m, m.n);
  std::vector<int64_t> infos(size_t(m.batch));
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = lu.data<T>();
    int32_t* p = piv.data<int32_t>();
    for_batch(m, [&](int64_t b) {
      std::vector<int64_t> perm(size_t(m.m));
      infos[size_t(b)] = linalg::lu_factor(o + b * m.m * m.n, perm.data(), m.m, m.n, p + b * k);
    });
  });
  return infos;
}

// linalg_lu_factor_ex(A, pivot, check_errors): getrf of each m x n matrix: LU packed, pivots [..., min(m, n)] and
// info [...] as int32. Only partial pivoting exists on the CPU, as PyTorch's.
Tensors k_linalg_lu_factor_ex(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  AMPS_CHECK(x.dim() >= 2, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: {} instead",
             common::list_shape(x.sizes()));
  AMPS_CHECK(x.dtype() == DType::float32 || x.dtype() == DType::float64, "\"lu_cpu\" not implemented for '{}'",
             common::torch_type_name(x.dtype()));
  AMPS_CHECK(a.boolean(1), "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  Mats m = as_mats(x, "linalg.lu_factor");
  Tensor lu = Tensor::empty(m.data.sizes(), m.data.dtype(), kc.device);  // a copy: as_mats may alias A
  copy_into(lu, m.data);
  Dims ps = m.lead;
  ps.push_back(std::min(m.m, m.n));
  Tensor piv = Tensor::empty(ps, DType::int32, kc.device), info = Tensor::empty(m.lead, DType::int32, kc.device);
  const std::vector<int64_t> infos = lu_factor_batch(m, lu, piv);
  int32_t* io = info.numel() ? info.data<int32_t>() : nullptr;
  for (size_t b = 0; b < infos.size(); ++b) io[b] = int32_t(infos[b]);
  if (a.boolean(2)) check_infos(infos, x.dim() > 2, "torch.linalg.lu_factor_ex", lu_zero_pivot_message);
  return {lu, piv, info};
}

// B is a batch of vectors when it is 1-D or has A's shape without its last dim (PyTorch's
// linalg_solve_is_vector_rhs).
bool vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  return B.dim() == A.dim() - 1 && Dims(A.sizes().begin(), A.sizes().end() - 1) == B.sizes();
}

// A [.., n, n] and B [.., r, k] expanded to their broadcast batch dims.
std::pair<Tensor, Tensor> broadcast_batches(const Tensor& A, const Tensor& B, std::string_view op) {
  Dims batch = broadcast_shapes(Dims(A.sizes().begin(), A.sizes().end() - 2), Dims(B.sizes().begin(), B.sizes().end() - 2), op);
  Dims sa = batch, sb = batch;
  sa.insert(sa.end(), {A.size(-2), A.size(-1)});
  sb.insert(sb.end(), {B.size(-2), B.size(-1)});
  return {native::expand(A, sa), native::expand(B, sb)};
}

// The shared checks of the solves: A square float, B of A's dtype with at least 2 dims, rows matching A's
// (columns when not left).
void check_solve(const Tensor& A, const Tensor& B, bool left, std::string_view op) {
  AMPS_CHECK(A.dim() >= 2, "{}: The input tensor A must have at least 2 dimensions.", op);
  AMPS_CHECK(B.dim() >= 2, "{}: The input tensor B must have at least 2 dimensions.", op);
  check_square(A, op);
  check_float_input(A, op);
  AMPS_CHECK(A.dtype() == B.dtype(), "{}: Expected A and B to have the same dtype, but found A of type {} and B of "
             "type {} instead", op, dtype_name(A.dtype()), dtype_name(B.dtype()));
  AMPS_CHECK((left ? B.size(-2) : B.size(-1)) == A.size(-1), "{}: Incompatible shapes of A and B for the equation {} "
             "({}x{} and {}x{})", op, left ? "AX = B" : "XA = B", A.size(-2), A.size(-1), B.size(-2), B.size(-1));
}

// Solves each A X = B of the broadcast batch (X A = B when not left: A^T X^T = B^T) with [solve](a, b, n, k),
// which overwrites the n x k b and returns a LAPACK-style info.
template <typename Solve> Tensor solve_batches(Tensor A, Tensor B, bool left, Device dev, std::vector<int64_t>& info,
                                               std::string_view op, Solve solve) {
  std::tie(A, B) = broadcast_batches(A, B, op);
  if (!left) {
    A = native::transpose(A, -2, -1);
    B = native::transpose(B, -2, -1);
  }
  Mats ma = as_mats(A, op), mb = as_mats(B, op);
  Tensor X = Tensor::empty(mb.data.sizes(), mb.data.dtype(), dev);  // a copy: as_mats may alias B
  copy_into(X, mb.data);
  info.assign(size_t(ma.batch), 0);
  with_compute_type(ma.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* a = ma.data.data<T>();
    T* x = X.data<T>();
    for_batch(ma, [&](int64_t b) { info[size_t(b)] = solve(a + b * ma.n * ma.n, x + b * mb.m * mb.n, ma.n, mb.n); });
  });
  return left ? X : contiguous(native::transpose(X, -2, -1));
}

// linalg_solve(A, B, left): LU with partial pivoting per matrix; a singular A is PyTorch's error.
Tensors k_linalg_solve(const ArgReader& a, const KernelContext& kc) {
  const Tensor A = a.tensor(0), B = a.tensor(1);
  const bool left = a.boolean(2), vec = A.dim() >= 2 && vector_rhs(A, B);
  AMPS_CHECK(left || !vec, "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. "
             "In this case linalg.solve is equivalent to B / A.squeeze(-1)");
  const Tensor Bm = vec ? native::unsqueeze(B, -1) : B;
  check_solve(A, Bm, left, "linalg.solve");
  std::vector<int64_t> info;
  Tensor X = solve_batches(A, Bm, left, kc.device, info, "linalg.solve", [](auto* m, auto* x, int64_t n, int64_t k) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(m)>>;
    std::vector<T> lu(m, m + n * n);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    if (int64_t bad = linalg::lu_factor(lu.data(), perm.data(), n)) return bad;
    linalg::lu_solve(lu.data(), perm.data(), x, n, k);
    return int64_t(0);
  });
  check_infos(info, A.dim() > 2 || Bm.dim() > 2, "torch.linalg.solve",
              [](int64_t) { return std::string("The solver failed because the input matrix is singular."); });
  X = cast(X, A.dtype());
  return one_tensor(vec ? native::squeeze(X, {-1}) : X);
}

// linalg_solve_triangular(A, B, upper, left, unitriangular): substitution; a zero diagonal gives inf/NaN (no error,
// as PyTorch's trtrs).
Tensors k_linalg_solve_triangular(const ArgReader& a, const KernelContext& kc) {
  const Tensor A = a.tensor(0), B = a.tensor(1);
  const bool upper = a.boolean(2), left = a.boolean(3), unit = a.boolean(4);
  check_solve(A, B, left, "linalg.solve_triangular");
  std::vector<int64_t> info;
  // X A = B is A^T X^T = B^T: A^T's triangle is the other one
  const bool up = left ? upper : !upper;
  Tensor X = solve_batches(A, B, left, kc.device, info, "linalg.solve_triangular",
                           [up, unit](auto* m, auto* x, int64_t n, int64_t k) {
                             linalg::triangular_solve(m, x, n, k, up, unit);
                             return int64_t(0);
                           });
  return one_tensor(cast(X, A.dtype()));
}

// linalg_eigh(A, UPLO): the UPLO triangle mirrored into a symmetric matrix, then cyclic Jacobi.
Tensors k_linalg_eigh(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  const std::string uplo = a.str(1);
  AMPS_CHECK(uplo == "L" || uplo == "U" || uplo == "l" || uplo == "u", "Expected UPLO argument to be 'L' or 'U', but "
             "got {}", uplo);
  Mats m = square_input(x, "linalg.eigh");
  const bool lower = uplo == "L" || uplo == "l";
  Tensor w = batch_of(m, {m.n}, kc.device), v = batch_of(m, {m.n, m.n}, kc.device);
  std::vector<int64_t> bad(size_t(m.batch));
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T *wo = w.data<T>(), *vo = v.data<T>();
    const int64_t n = m.n;
    for_batch(m, [&](int64_t b) {
      std::vector<T> s(size_t(n * n));
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          s[size_t(i * n + j)] = in[b * n * n + ((i >= j) == lower ? i * n + j : j * n + i)];
      bad[size_t(b)] = !linalg::jacobi_eigh(s.data(), wo + b * n, vo + b * n * n, n);
    });
  });
  check_infos(bad, x.dim() > 2, "linalg.eigh", [](int64_t) {
    return std::string("The algorithm failed to converge because the input matrix contained non-finite values.");
  });
  return {cast(w, x.dtype()), cast(v, x.dtype())};
}

}  // namespace

void register_linalg_solve_kernels(KernelTable& t) {
  t.add(OpId::linalg_lu_factor_ex, k_linalg_lu_factor_ex, kAllDTypes);
  t.add(OpId::linalg_det, k_linalg_det, kAllDTypes);
  t.add(OpId::linalg_slogdet, k_linalg_slogdet, kAllDTypes);
  t.add(OpId::linalg_solve, k_linalg_solve, kAllDTypes);
  t.add(OpId::linalg_solve_triangular, k_linalg_solve_triangular, kAllDTypes);
  t.add(OpId::linalg_eigh, k_linalg_eigh, kAllDTypes);
}

}  // namespace amps::rt::cpu
