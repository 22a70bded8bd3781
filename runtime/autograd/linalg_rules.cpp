// Gradients of cholesky, inverse, qr, svd, linalg_det, linalg_slogdet, linalg_solve, linalg_solve_triangular and
// linalg_eigh: PyTorch 1.13's formulas (torch/csrc/autograd/FunctionsManual.cpp), real case, written with dispatched
// ops so they differentiate again under create_graph.
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
}

}  // namespace amps::rt::autograd
