// The linear-algebra implicit composites declared in linalg_composites.hpp.
#include "runtime/backend/common/linalg_composites.hpp"

#include <cmath>
#include <limits>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }

void check_matrix(const Tensor& x, std::string_view op, std::string_view name = "A") {
  AMPS_CHECK(x.dim() >= 2, "{}: The input tensor {} must have at least 2 dimensions.", op, name);
}

void check_square(const Tensor& x, std::string_view op) {
  check_matrix(x, op);
  AMPS_CHECK(x.size(-2) == x.size(-1), "{}: A must be batches of square matrices, but they are {} by {} matrices", op,
             x.size(-2), x.size(-1));
}

// The machine epsilon of a float dtype (float32's for the 16-bit ones, which compute in float32).
double epsilon_of(DType t) {
  return t == DType::float64 ? std::numeric_limits<double>::epsilon() : double(std::numeric_limits<float>::epsilon());
}

// PyTorch's get_atol_rtol: atol defaults to 0; rtol to 0 when a positive atol is given, else eps * max(m, n).
std::pair<double, double> atol_rtol(const Tensor& A, std::optional<double> atol, std::optional<double> rtol) {
  const double default_rtol = epsilon_of(A.dtype()) * double(std::max(A.size(-1), A.size(-2)));
  return {atol.value_or(0.0), rtol ? *rtol : atol && *atol > 0 ? 0.0 : default_rtol};
}

// max(atol, rtol * the largest of [S] along its last dim), keepdim.
Tensor tolerance(const Tensor& S, double atol, double rtol) {
  const Tensor largest = call_op(O::amax, S, Dims{-1}, true);
  return maximum(largest * rtol, full({}, atol, S.dtype(), S.device()));
}

// PyTorch's linalg_pinv: V diag(1/S) U^T over the singular values above the tolerance (eigh when hermitian).
Tensor pinv(const Tensor& A, double atol, double rtol, bool hermitian) {
  if (A.numel() == 0) return zeros_like(mT(A)).contiguous();
  if (hermitian) {
    Tensors lv = dispatch(O::linalg_eigh, Args{A, std::string("L")});
    const Tensor absL = abs(lv[0]);
    const Tensor inv = where(gt(absL, tolerance(absL, atol, rtol)), call_op(O::reciprocal, lv[0]), zeros_like(lv[0]));
    return matmul(lv[1] * inv.unsqueeze(-2), mT(lv[1]));
  }
  Tensors usv = dispatch(O::linalg_svd, Args{A, false});
  const Tensor& S = usv[1];
  const Tensor inv = where(gt(S, tolerance(S, atol, rtol)), call_op(O::reciprocal, S), zeros_like(S));
  return matmul(mT(usv[2]), inv.unsqueeze(-1) * mT(usv[0]));
}

// The number of singular values (|eigenvalues| when hermitian) above the tolerance, int64.
Tensor matrix_rank(const Tensor& A, double atol, double rtol, bool hermitian) {
  const Tensor S = hermitian ? abs(call_op(O::linalg_eigvalsh, A, std::string("L"))) : call_op(O::linalg_svdvals, A);
  if (S.size(-1) == 0) return zeros(Dims(A.sizes().begin(), A.sizes().end() - 2), DType::int64, A.device());
  return sum(gt(S, tolerance(S, atol, rtol)), Dims{-1}).to(DType::int64);
}

}  // namespace

// det(A): linalg.det.
Tensors det_math(Args& args) {
  ArgReader a(O::det, args);
  return {call_op(O::linalg_det, a.tensor(0))};
}

// slogdet(A): linalg.slogdet.
Tensors slogdet_math(Args& args) {
  ArgReader a(O::slogdet, args);
  return dispatch(O::linalg_slogdet, Args{a.tensor(0)});
}

// logdet(A): logabsdet where the determinant is positive, NaN where negative (-inf where zero).
Tensors logdet_math(Args& args) {
  ArgReader a(O::logdet, args);
  const Tensor A = a.tensor(0);
  check_square(A, "logdet");
  AMPS_CHECK(is_floating(A.dtype()), "logdet: Expected a floating point or complex tensor as input. Got {}",
             dtype_name(A.dtype()));
  AMPS_CHECK(A.dtype() == DType::float32 || A.dtype() == DType::float64, "logdet: Low precision dtypes not supported. "
             "Got {}", dtype_name(A.dtype()));
  Tensors sl = dispatch(O::linalg_slogdet, Args{A});
  return {where(eq(sl[0], -1.0), full({}, NAN, A.dtype(), A.device()), sl[1])};
}

// linalg_eigvalsh(A, UPLO): the eigenvalues of linalg_eigh.
Tensors linalg_eigvalsh_math(Args& args) {
  ArgReader a(O::linalg_eigvalsh, args);
  return {dispatch(O::linalg_eigh, Args{a.tensor(0), a.str(1)})[0]};
}

// linalg_qr(A, mode): qr(A, some) for 'reduced' and 'complete'; 'r' returns R and an empty Q.
Tensors linalg_qr_math(Args& args) {
  ArgReader a(O::linalg_qr, args);
  const std::string mode = a.str(1);
  AMPS_CHECK(mode == "reduced" || mode == "complete" || mode == "r", "qr received unrecognized mode '{}' but expected "
             "one of 'reduced' (default), 'r', or 'complete'", mode);
  Tensors qr = dispatch(O::qr, Args{a.tensor(0), mode != "complete"});
  if (mode == "r") qr[0] = zeros({0}, qr[1].dtype(), qr[1].device());
  return qr;
}

// linalg_svd(A, full_matrices): torch.svd's (U, S, V) with V transposed into Vh.
Tensors linalg_svd_math(Args& args) {
  ArgReader a(O::linalg_svd, args);
  Tensors usv = dispatch(O::svd, Args{a.tensor(0), !a.boolean(1), true});
  return {usv[0], usv[1], mT(usv[2]).contiguous()};
}

// linalg_svdvals(A): the singular values alone (svd without U and V).
Tensors linalg_svdvals_math(Args& args) {
  ArgReader a(O::linalg_svdvals, args);
  return {dispatch(O::svd, Args{a.tensor(0), true, false})[1]};
}

// cholesky_solve(B, L, upper): A = L L^T (U^T U when upper), X = L^{-T} (L^{-1} B) by two triangular solves.
Tensors cholesky_solve_math(Args& args) {
  ArgReader a(O::cholesky_solve, args);
  const Tensor B = a.tensor(0), F = a.tensor(1);
  AMPS_CHECK(B.dim() >= 2, "b should have at least 2 dimensions, but has {} dimensions instead", B.dim());
  AMPS_CHECK(F.dim() >= 2, "u should have at least 2 dimensions, but has {} dimensions instead", F.dim());
  AMPS_CHECK(B.dtype() == F.dtype(), "Expected b and A to have the same dtype, but found b of type {} and A of type {} "
             "instead.", dtype_name(B.dtype()), dtype_name(F.dtype()));
  AMPS_CHECK(F.size(-1) == B.size(-2), "Incompatible matrix sizes for cholesky_solve: each A matrix is {} by {} but "
             "each b matrix is {} by {}", F.size(-2), F.size(-1), B.size(-2), B.size(-1));
  const Tensor L = a.boolean(2) ? mT(F) : F;
  const Tensor Y = call_op(O::linalg_solve_triangular, L, B, false);
  return {call_op(O::linalg_solve_triangular, mT(L), Y, true)};
}

// cholesky_inverse(L, upper): cholesky_solve of the identity.
Tensors cholesky_inverse_math(Args& args) {
  ArgReader a(O::cholesky_inverse, args);
  const Tensor L = a.tensor(0);
  check_square(L, "cholesky_inverse");
  const Tensor I = eye(L.size(-1), std::nullopt, L.dtype(), L.device()).expand(L.sizes());
  Args inner{I, L, a.boolean(1)};
  return cholesky_solve_math(inner);
}

// triangular_solve(b, A, upper, transpose, unitriangular): linalg_solve_triangular(A or A^T, b) and a copy of A.
Tensors triangular_solve_math(Args& args) {
  ArgReader a(O::triangular_solve, args);
  const Tensor b = a.tensor(0), A = a.tensor(1);
  const bool upper = a.boolean(2), transpose = a.boolean(3);
  AMPS_CHECK(b.dim() >= 2, "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {} "
             "dimensions instead", b.dim());
  AMPS_CHECK(A.dim() >= 2, "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {} "
             "dimensions instead", A.dim());
  const Tensor X =
      call_op(O::linalg_solve_triangular, transpose ? mT(A) : A, b, upper != transpose, true, a.boolean(4));
  Dims batch = broadcast_shapes(Dims(b.sizes().begin(), b.sizes().end() - 2),
                                Dims(A.sizes().begin(), A.sizes().end() - 2), "triangular_solve");
  batch.insert(batch.end(), {A.size(-2), A.size(-1)});
  return {X, A.expand(batch).clone()};
}

// linalg_pinv(A, *, atol, rtol, hermitian).
Tensors linalg_pinv_math(Args& args) {
  ArgReader a(O::linalg_pinv, args);
  const Tensor A = a.tensor(0);
  AMPS_CHECK(A.dim() >= 2 && is_floating(A.dtype()), "linalg.pinv({}{{[{}]}}): expected a tensor with 2 or more "
             "dimensions of float, double, cfloat or cdouble types", dtype_name(A.dtype()), fmt::join(A.sizes(), ", "));
  auto [atol, rtol] = atol_rtol(A, a.opt_f64(1), a.opt_f64(2));
  return {pinv(A, atol, rtol, a.boolean(3))};
}

// pinverse(A, rcond): linalg_pinv with rtol = rcond.
Tensors pinverse_math(Args& args) {
  ArgReader a(O::pinverse, args);
  Args inner{a.tensor(0), IValue(), a.f64(1), false};
  return linalg_pinv_math(inner);
}

// linalg_matrix_rank(A, *, atol, rtol, hermitian).
Tensors linalg_matrix_rank_math(Args& args) {
  ArgReader a(O::linalg_matrix_rank, args);
  const Tensor A = a.tensor(0);
  check_matrix(A, "torch.linalg.matrix_rank", "input");
  auto [atol, rtol] = atol_rtol(A, a.opt_f64(1), a.opt_f64(2));
  return {matrix_rank(A, atol, rtol, a.boolean(3))};
}

// linalg_lstsq(A, B, rcond, driver): X = pinv(A) B (a full-rank A gives LAPACK's solution); rank from the singular
// values (not for 'gels'), singular_values for 'gelsd' and 'gelss', residuals |A X - B|^2 for m > n and a full
// rank (not for 'gelsy', as PyTorch's); the rest empty. B may be a batch of vectors, as linalg.solve's.
Tensors linalg_lstsq_math(Args& args) {
  ArgReader a(O::linalg_lstsq, args);
  const Tensor A = a.tensor(0), B0 = a.tensor(1);
  const std::string driver = a.opt_str(3).value_or("gelsy");
  AMPS_CHECK(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss", "torch.linalg.lstsq: "
             "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
  AMPS_CHECK(A.dim() >= 2, "torch.linalg.lstsq: input must have at least 2 dimensions.");
  AMPS_CHECK(is_floating(A.dtype()) && A.dtype() == B0.dtype(), "torch.linalg.lstsq: Expected input and other to be "
             "floating tensors of the same dtype, but got {} and {}", dtype_name(A.dtype()), dtype_name(B0.dtype()));
  const bool vec = B0.dim() == A.dim() - 1;
  const Tensor B = vec ? B0.unsqueeze(-1) : B0;
  AMPS_CHECK(B.dim() >= 2 && B.size(-2) == A.size(-2), "torch.linalg.lstsq: input.size(-2) should match "
             "other.size(-2)");
  const int64_t m = A.size(-2), n = A.size(-1);
  const double rtol = a.opt_f64(2).value_or(epsilon_of(A.dtype()) * double(std::max(m, n)));
  Tensor X = matmul(pinv(A, 0.0, rtol, false), B);
  const Tensor empty = zeros({0}, A.dtype(), A.device());
  const Tensor rank = driver == "gels" ? zeros({0}, DType::int64, A.device()) : matrix_rank(A, 0.0, rtol, false);
  Tensor residuals = empty;
  const bool full_rank = driver != "gels" && rank.numel() > 0 && all(eq(rank, std::min(m, n))).item<bool>();
  if (m > n && driver != "gelsy" && (full_rank || driver == "gels")) {
    const Tensor r = matmul(A, X) - B;
    residuals = sum(r * r, Dims{-2});
    if (vec) residuals = residuals.squeeze(-1);
  }
  const Tensor sv = driver == "gelsd" || driver == "gelss" ? call_op(O::linalg_svdvals, A) : empty;
  return {vec ? X.squeeze(-1) : X, residuals, rank, sv};
}

}  // namespace amps::rt::common
