// Gradients of cholesky, inverse, qr, svd, linalg_det, linalg_slogdet, linalg_solve, linalg_solve_triangular,
// linalg_eigh, linalg_lu_factor_ex and linalg_matrix_exp: PyTorch 1.13's formulas
// (torch/csrc/autograd/FunctionsManual.cpp), real case, written with dispatched ops so they differentiate again under
// create_graph.
#include "runtime/autograd/linalg_rules.hpp"

#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
Tensor eye_n(int64_t n, const Tensor& like) { return eye(n, std::nullopt, like.dtype(), like.device()); }
// [v] [..., ] as [..., 1, 1] times the n x n identity.
Tensor scaled_eye(const Tensor& v, int64_t n) { return v.unsqueeze(-1).unsqueeze(-1) * eye_n(n, v); }

// det: gA = g det A^{-T}, as the solve A^T X = g det I. PyTorch 1.13's first-order gradient is 0 at a singular
// matrix (its det factor is 0), so those matrices are swapped for the identity before the solve.
Tensors det_rule(C c) {
  const Tensor A = c.in(0), d = c.out(0);
  const int64_t n = A.size(-1);
  const Tensor safe = where(ne(d, 0).unsqueeze(-1).unsqueeze(-1), A, eye_n(n, A));
  return {call_op(O::linalg_solve, mT(safe), scaled_eye(c.g() * d, n))};
}

// slogdet: only logabsdet is differentiable (sign is piecewise constant): gA = g A^{-T}; a singular A is the solve's
// error.
Tensors slogdet_rule(C c) {
  const Tensor A = c.in(0);
  if (!c.flowed(1)) return {zeros_like(A)};
  return {call_op(O::linalg_solve, mT(A), scaled_eye(c.g(1), A.size(-1)))};
}

// solve: gB = solve(A^T, gX) (the same side), gA = -gB X^T when left, -X^T gB when not; X one dim short of A is a
// batch of vectors.
Tensors solve_rule(C c) {
  const Tensor A = c.in(0), X = c.out(0);
  const bool left = c.a.boolean(2), vec = X.dim() == A.dim() - 1;
  const Tensor gB = call_op(O::linalg_solve, mT(A), c.g(), left);
  return c.grads([&] {
    if (vec) return neg(gB.unsqueeze(-1) * X.unsqueeze(-2));
    return neg(left ? matmul(gB, mT(X)) : matmul(mT(X), gB));
  }, [&] { return gB; });
}

// solve_triangular: gB = solve_triangular(A^T, gX, !upper), gA = -gB X^T (-X^T gB when not left) kept to A's
// triangle (without the diagonal when unitriangular).
Tensors solve_triangular_rule(C c) {
  const Tensor A = c.in(0), X = c.out(0);
  const bool upper = c.a.boolean(2), left = c.a.boolean(3), unit = c.a.boolean(4);
  const Tensor gB = call_op(O::linalg_solve_triangular, mT(A), c.g(), !upper, left, unit);
  return c.grads([&] {
    const Tensor gA = neg(left ? matmul(gB, mT(X)) : matmul(mT(X), gB));
    return upper ? call_op(O::triu, gA, int64_t(unit ? 1 : 0)) : call_op(O::tril, gA, int64_t(unit ? -1 : 0));
  }, [&] { return gB; });
}

// eigh: gA = V (skew(V^T gV) / E + diag(gL)) V^T with skew(M) = (M - M^T) / 2 and E_ij = L_j - L_i (1 on the
// diagonal); with gL alone, V diag(gL) V^T.
Tensors eigh_rule(C c) {
  const Tensor L = c.out(0), V = c.out(1);
  if (!c.flowed(1)) return {matmul(V * c.g(0).unsqueeze(-2), mT(V))};
  const Tensor VtgV = matmul(mT(V), c.g(1));
  const Tensor E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye_n(L.size(-1), L);
  Tensor inner = (VtgV - mT(VtgV)) * 0.5 / E;
  if (c.flowed(0)) inner = inner + c.g(0).unsqueeze(-1) * eye_n(L.size(-1), L);
  return {matmul(V, matmul(inner, mT(V)))};
}

Tensor tril(const Tensor& x, int64_t d = 0) { return call_op(O::tril, x, d); }
Tensor triu(const Tensor& x, int64_t d = 0) { return call_op(O::triu, x, d); }
Tensor tri_solve(const Tensor& A, const Tensor& B, bool upper, bool left, bool unit = false) {
  return call_op(O::linalg_solve_triangular, A, B, upper, left, unit);
}

// PyTorch's linalg_lu_backward for A = P L U (L m x k, U k x n): square, wide (m < n, U = [U1 U2]) and tall
// (m > n, L = [L1; L2]) cases.
Tensor lu_backward(const Tensor& gL, const Tensor& gU, const Tensor& P, const Tensor& L, const Tensor& U) {
  const int64_t m = L.size(-2), n = U.size(-1), k = std::min(m, n);
  Tensor gA;
  if (m == n) {  // P L^{-T} [tril(L^T gL, -1) + triu(gU U^T)] U^{-T}
    gA = tri_solve(mT(U), tril(matmul(mT(L), gL), -1) + triu(matmul(gU, mT(U))), false, false);
    gA = tri_solve(mT(L), gA, true, true, true);
  } else if (m < n) {  // P L^{-T} [(tril(L^T gL - triu(gU) U^T, -1) U1^{-T} + triu(gU1)), gU2]
    gA = tril(matmul(mT(L), gL) - matmul(triu(gU), mT(U)), -1);
    gA = tri_solve(mT(U.narrow(-1, 0, k)), gA, false, false);
    gA = cat({gA + triu(gU.narrow(-1, 0, k)), gU.narrow(-1, k, n - k)}, -1);
    gA = tri_solve(mT(L), gA, true, true, true);
  } else {  // P [L1^{-T} triu(gU U^T - L^T tril(gL, -1)) + tril(gL1, -1); gL2] U^{-T}
    gA = triu(matmul(gU, mT(U)) - matmul(mT(L), tril(gL, -1)));
    gA = tri_solve(mT(L.narrow(-2, 0, k)), gA, true, true, true);
    gA = cat({gA + tril(gL.narrow(-2, 0, k), -1), gL.narrow(-2, k, m - k)}, -2);
    gA = tri_solve(mT(U), gA, false, false);
  }
  return matmul(P, gA);
}

// lu_factor_ex: LU's gradient split into L's (its first k columns) and U's (its first k rows), through
// lu_backward with P, L and U unpacked from the saved LU and pivots (PyTorch's lu_factor_ex_backward).
Tensors lu_factor_ex_rule(C c) {
  const Tensor LU = c.out(0), g = c.g(0);
  const int64_t k = std::min(LU.size(-2), LU.size(-1));
  const Tensors plu = dispatch(O::lu_unpack, Args{LU, c.out(1), true, true});
  return {lu_backward(g.narrow(-1, 0, k), g.narrow(-2, 0, k), plu[0], plu[1], plu[2])};
}

// matrix_exp: gA = the upper-right block of exp([[A^T, g], [0, A^T]]) (Mathias' chain rule, as PyTorch's).
Tensors matrix_exp_rule(C c) {
  const Tensor At = mT(c.in(0));
  const int64_t n = At.size(-1);
  const Tensor M = cat({cat({At, c.g()}, -1), cat({zeros_like(At), At}, -1)}, -2);
  return {call_op(O::linalg_matrix_exp, M).narrow(-2, 0, n).narrow(-1, n, n)};
}

Tensors cholesky_rule(C c) {
  const bool upper = c.a.boolean(1);
  Tensor L = upper ? mT(c.out(0)) : c.out(0), gL = upper ? mT(c.g()) : c.g();
  const int64_t n = L.size(-1);
  Tensor half_diag = call_op(O::tril, ones({n, n}, L.dtype(), L.device())) - eye(n, std::nullopt, L.dtype(), L.device()) * 0.5;
  Tensor Linv = call_op(O::inverse, L);
  Tensor phi = call_op(O::tril, matmul(mT(L), gL)) * half_diag;
  Tensor gA = matmul(matmul(mT(Linv), phi), Linv);
  return {(gA + mT(gA)) * 0.5};
}

// ---- QR and SVD: PyTorch's linalg_qr_backward and svd_backward, real case (R^{-1} through inverse rather than a
// triangular solve) ----
Tensor eye_of(const Tensor& v) { return eye_n(v.size(-1), v); }
Tensor diag_embed(const Tensor& v) { return v.unsqueeze(-1) * eye_of(v); }
Tensor skew(const Tensor& x) { return x - mT(x); }
Tensor plus(const Tensor& a, const Tensor& b) { return a.defined() ? a + b : b; }

// A = QR, M = gR R^T - Q^T gQ. m >= n: gA = (gQ + Q (triu(M) + triu(M, 1)^T)) R^{-T}; m < n:
// gA = [Q tril(M^T - M) R1^{-T}, 0] + Q gR with R1 = R[:, :m]. Complete mode with m > n leaves Q's last
// columns undetermined, so (as in PyTorch) it is not differentiable.
Tensors qr_rule(C c) {
  Tensor Q = c.out(0), R = c.out(1), gQ = c.g(0), gR = c.g(1);
  const int64_t m = Q.size(-2), n = R.size(-1);
  AMPS_CHECK(c.a.boolean(1) || m <= n,
             "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  Tensor M = matmul(gR, mT(R)) - matmul(mT(Q), gQ);
  if (m >= n) return {matmul(gQ + matmul(Q, call_op(O::triu, M) + mT(call_op(O::triu, M, 1))), mT(call_op(O::inverse, R)))};
  Tensor gA1 = matmul(matmul(Q, call_op(O::tril, mT(M) - M)), mT(call_op(O::inverse, R.narrow(-1, 0, m))));
  return {cat({gA1, zeros_like(R.narrow(-1, m, n - m))}, -1) + matmul(Q, gR)};
}

// (U, S, V) of an SVD, or their gradients (undefined where nothing flowed).
struct Svd {
  Tensor U, S, V;
};

// U^T gA V for m == n: skew(U^T gU) / E * S_k + S_j * skew(V^T gV) / E + diag(gS), E_jk = S_k^2 - S_j^2 off the
// diagonal (1 on it). Undefined gradients drop their term.
Tensor svd_core(const Svd& f, const Svd& g) {
  Tensor S2 = f.S * f.S, E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye_of(f.S), r;
  if (g.U.defined()) r = skew(matmul(mT(f.U), g.U)) / E * f.S.unsqueeze(-2);
  if (g.V.defined()) r = plus(r, f.S.unsqueeze(-1) * skew(matmul(mT(f.V), g.V)) / E);
  return g.S.defined() ? plus(r, diag_embed(g.S)) : r;
}

// A = U diag(S) V^T (torch.svd's V). Adds (I - U U^T) gU S^{-1} V^T when m > n and U S^{-1} gV^T (I - V V^T) when
// m < n. With gS alone, gA = U diag(gS) V^T (finite for repeated singular values). PyTorch's phase check is for
// complex inputs only: a real pair (u_k, v_k) is fixed up to a joint sign flip, which no continuous loss sees.
Tensor svd_grad(const Svd& f, const Svd& g) {
  const int64_t m = f.U.size(-2), n = f.V.size(-2);
  const Tensor &U = f.U, &V = f.V, Vh = mT(f.V);
  if (!g.U.defined() && !g.V.defined()) return matmul(U * g.S.unsqueeze(-2), Vh);
  Tensor r = svd_core(f, g);
  if (m > n && g.U.defined()) {
    Tensor gUSinv = g.U / f.S.unsqueeze(-2);
    return matmul(matmul(U, r) + gUSinv - matmul(U, matmul(mT(U), gUSinv)), Vh);
  }
  if (m < n && g.V.defined()) {
    Tensor SinvgVh = mT(g.V) / f.S.unsqueeze(-1);
    return matmul(U, matmul(r, Vh) + SinvgVh - matmul(matmul(SinvgVh, V), Vh));
  }
  return matmul(matmul(U, r), Vh);
}

// some=False: only the first k = min(m, n) columns of U and V are determined; the gradients of the others are
// ignored (PyTorch narrows them the same way). compute_uv=False returns zeros for U and V, so, as
// linalg.svdvals' backward, U and V are recomputed from the saved input.
Tensors svd_rule(C c) {
  if (!c.a.boolean(2)) {
    Tensors usv = dispatch(O::svd, Args{c.in(0), true, true});
    return {matmul(usv[0] * c.g(1).unsqueeze(-2), mT(usv[2]))};
  }
  Tensor S = c.out(1);
  const int64_t k = S.size(-1);
  auto grad_k = [&](size_t i) { return c.flowed(i) ? c.g(i).narrow(-1, 0, k) : Tensor(); };
  Svd f{c.out(0).narrow(-1, 0, k), S, c.out(2).narrow(-1, 0, k)};
  return {svd_grad(f, {grad_k(0), c.flowed(1) ? c.g(1) : Tensor(), grad_k(2)})};
}

}  // namespace

void add_factorization_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::cholesky)] = {out_(0), cholesky_rule};
  t[size_t(O::inverse)] = {out_(0), [](C c) {
    const Tensor yt = mT(c.out(0));
    return Tensors{neg(matmul(yt, matmul(c.g(), yt)))}; }};
  t[size_t(O::qr)] = {out_(0) | out_(1), qr_rule};
  t[size_t(O::svd)] = {in_(0) | out_(0) | out_(1) | out_(2), svd_rule};
}

void add_linalg_solve_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::linalg_det)] = {in_(0) | out_(0), det_rule};
  t[size_t(O::linalg_slogdet)] = {in_(0), slogdet_rule};
  t[size_t(O::linalg_solve)] = {in_(0) | out_(0), solve_rule};
  t[size_t(O::linalg_solve_triangular)] = {in_(0) | out_(0), solve_triangular_rule};
  t[size_t(O::linalg_eigh)] = {out_(0) | out_(1), eigh_rule};
  t[size_t(O::linalg_lu_factor_ex)] = {out_(0) | out_(1), lu_factor_ex_rule};
  t[size_t(O::linalg_matrix_exp)] = {in_(0), matrix_exp_rule};
}

}  // namespace amps::rt::autograd
