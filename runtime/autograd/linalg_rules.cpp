// Gradients of linalg_det, linalg_slogdet, linalg_solve, linalg_solve_triangular and linalg_eigh: PyTorch 1.13's
// formulas (torch/csrc/autograd/FunctionsManual.cpp), real case, written with dispatched ops so they differentiate
// again under create_graph.
#include "runtime/autograd/linalg_rules.hpp"

#include "runtime/dispatch.hpp"
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

}  // namespace

void add_linalg_solve_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::linalg_det)] = {in_(0) | out_(0), det_rule};
  t[size_t(O::linalg_slogdet)] = {in_(0), slogdet_rule};
  t[size_t(O::linalg_solve)] = {in_(0) | out_(0), solve_rule};
  t[size_t(O::linalg_solve_triangular)] = {in_(0) | out_(0), solve_triangular_rule};
  t[size_t(O::linalg_eigh)] = {out_(0) | out_(1), eigh_rule};
}

}  // namespace amps::rt::autograd
