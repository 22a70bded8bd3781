// The LU family's implicit composites declared in lu_composites.hpp.
#include "runtime/backend/common/lu_composites.hpp"

#include <numeric>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/linalg_batch.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
Dims lead_of(const Tensor& t) { return Dims(t.sizes().begin(), t.sizes().end() - 1); }

// A row order and its inverse, int64 [..., m].
struct Perm {
  Tensor order, inverse;
};

// The row order of getrf's 1-based [pivots] [..., k] for m rows (the swaps of steps 0..k-1 applied in turn): row i of
// P^T A is row order[i] of A. Read on the host (a device's pivots are copied down); [bad] is the error for a pivot
// outside 1..m or more pivots than rows.
Perm pivots_to_perm(const Tensor& pivots, int64_t m, std::string_view bad) {
  AMPS_CHECK(pivots.dim() >= 1, "{}", bad);
  const Tensor piv = pivots.to(Device::cpu()).contiguous();
  const int64_t k = piv.size(-1), batch = numel_of(lead_of(piv));
  AMPS_CHECK(k <= m, "{}", bad);
  Dims shape = lead_of(piv);
  shape.push_back(m);
  Tensor order = Tensor::empty(shape, DType::int64), inverse = Tensor::empty(shape, DType::int64);
  const int32_t* p = piv.data<int32_t>();
  int64_t *o = order.data<int64_t>(), *inv = inverse.data<int64_t>();
  for (int64_t b = 0; b < batch; ++b, o += m, inv += m, p += k) {
    std::iota(o, o + m, int64_t(0));
    for (int64_t i = 0; i < k; ++i) {
      AMPS_CHECK(p[i] >= 1 && p[i] <= m, "{}", bad);
      std::swap(o[i], o[p[i] - 1]);
    }
    for (int64_t i = 0; i < m; ++i) inv[o[i]] = i;
  }
  return {order.to(pivots.device()), inverse.to(pivots.device())};
}

// The rows of [x] [..., m, c] taken in [order] [..., m] (batch dims broadcast against x's).
Tensor take_rows(const Tensor& x, const Tensor& order) {
  Dims batch = broadcast_shapes(Dims(x.sizes().begin(), x.sizes().end() - 2), lead_of(order), "linalg.lu_solve");
  Dims xs = batch, is = batch;
  xs.insert(xs.end(), {x.size(-2), x.size(-1)});
  is.push_back(order.size(-1));
  return call_op(O::gather, x.expand(xs), int64_t(-2), order.expand(is).unsqueeze(-1).expand(xs));
}

// PyTorch's checks of linalg.lu_solve(LU, pivots, B, left), in its order.
void check_lu_solve(const Tensor& LU, const Tensor& piv, const Tensor& B, bool left) {
  AMPS_CHECK(is_floating(LU.dtype()), "torch.linalg.lu_solve: Expected a floating point or complex tensor as input. "
             "Got {}", torch_type_name(LU.dtype()));
  AMPS_CHECK(LU.dtype() == B.dtype(), "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
             "{} and B of type {} instead", torch_type_name(LU.dtype()), torch_type_name(B.dtype()));
  AMPS_CHECK(piv.dtype() == DType::int32, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32");
  AMPS_CHECK(LU.dim() >= 2, "torch.linalg.lu_solve: The input tensor A must have at least 2 dimensions.");
  AMPS_CHECK(LU.size(-2) == LU.size(-1), "torch.linalg.lu_solve: A must be batches of square matrices, but they are "
             "{} by {} matrices", LU.size(-2), LU.size(-1));
  AMPS_CHECK(B.dim() >= 2, "linalg.lu_solve: The input tensor B must have at least 2 dimensions.");
  AMPS_CHECK((left ? B.size(-2) : B.size(-1)) == LU.size(-1), "linalg.lu_solve: Incompatible shapes of A and B for the "
             "equation {} ({}x{} and {}x{})", left ? "AX = B" : "XA = B", LU.size(-2), LU.size(-1), B.size(-2),
             B.size(-1));
  AMPS_CHECK(piv.dim() >= 1 && piv.size(-1) == LU.size(-1), "linalg.lu_solve: Number of pivots per batch should be "
             "same as the dimension of the matrix");
  AMPS_CHECK(lead_of(LU) == piv.sizes(), "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, "
             "but got pivots with shape {} instead", list_shape(piv.sizes()));
  AMPS_CHECK(LU.dtype() == DType::float32 || LU.dtype() == DType::float64, "\"linalg.lu_solve_cpu\" not implemented "
             "for '{}'", torch_type_name(LU.dtype()));
}

// X with A X = B (A^T X = B when [adjoint]) for A = P L U packed in [LU]: X = U^{-1} L^{-1} P^T B, or
// X = P L^{-T} U^{-T} B.
Tensor lu_solve_left(const Tensor& LU, const Perm& p, const Tensor& B, bool adjoint) {
  const auto solve = [](const Tensor& A, const Tensor& R, bool upper, bool unit) {
    return call_op(O::linalg_solve_triangular, A, R, upper, true, unit);
  };
  if (!adjoint) return solve(LU, solve(LU, take_rows(B, p.order), false, true), true, false);
  return take_rows(solve(mT(LU), solve(mT(LU), B, false, false), true, true), p.inverse);
}

// linalg_lu_factor_ex without the error check, as torch.lu (and linalg_lu) call it.
Tensors lu_factor_ex(const Tensor& A, bool pivot) { return dispatch(O::linalg_lu_factor_ex, Args{A, pivot, false}); }

}  // namespace

// linalg_lu_factor(A, pivot): lu_factor_ex's LU and pivots; a zero pivot is PyTorch's error.
Tensors linalg_lu_factor_math(Args& args) {
  ArgReader a(O::linalg_lu_factor, args);
  const Tensor A = a.tensor(0);
  Tensors r = lu_factor_ex(A, a.boolean(1));
  const Tensor info = r[2].to(Device::cpu()).to(DType::int64).contiguous();
  const int64_t* i = info.data<int64_t>();
  cpu::check_infos(std::vector<int64_t>(i, i + info.numel()), A.dim() > 2, "torch.linalg.lu_factor",
                   cpu::lu_zero_pivot_message);
  return {r[0], r[1]};
}

// linalg_lu(A, pivot): lu_factor_ex unpacked.
Tensors linalg_lu_math(Args& args) {
  ArgReader a(O::linalg_lu, args);
  const bool pivot = a.boolean(1);
  Tensors r = lu_factor_ex(a.tensor(0), pivot);
  return dispatch(O::lu_unpack, Args{r[0], r[1], true, pivot});
}

// lu_unpack(LU, pivots, unpack_data, unpack_pivots): L = tril(LU[..., :k], -1) + I (m x k), U = triu(LU[..., :k, :])
// (k x n), P [..., m, m] with A = P L U; the ones not asked for are empty.
Tensors lu_unpack_math(Args& args) {
  ArgReader a(O::lu_unpack, args);
  const Tensor LU = a.tensor(0), piv = a.tensor(1);
  AMPS_CHECK(LU.dim() >= 2, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {} instead",
             list_shape(LU.sizes()));
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  Tensor P = zeros({0}, LU.dtype(), LU.device()), L = P, U = P;
  if (a.boolean(3)) {
    AMPS_CHECK(piv.dtype() == DType::int32, "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
               "torch.int32 dtype.\nNote: this function is intended to be used with the output produced by "
               "torch.linalg.lu_factor");
    const Tensor order = pivots_to_perm(piv, m, "pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                                        "inclusive.Did you properly pass the result of lu_factor?").order;
    P = eq(arange(int64_t(0), m, int64_t(1), DType::int64, LU.device()).unsqueeze(-1), order.unsqueeze(-2))
            .to(LU.dtype());
  }
  if (a.boolean(2)) {
    L = call_op(O::tril, LU.narrow(-1, 0, k), int64_t(-1)) + eye(m, k, LU.dtype(), LU.device());
    U = call_op(O::triu, LU.narrow(-2, 0, k));
  }
  return {P, L, U};
}

// linalg_lu_solve(LU, pivots, B, left, adjoint): X A = B is A^T X^T = B^T.
Tensors linalg_lu_solve_math(Args& args) {
  ArgReader a(O::linalg_lu_solve, args);
  const Tensor LU = a.tensor(0), piv = a.tensor(1), B = a.tensor(2);
  const bool left = a.boolean(3), adjoint = a.boolean(4);
  check_lu_solve(LU, piv, B, left);
  const Perm p = pivots_to_perm(piv, LU.size(-1), "Pivots given to lu_solve must all be smaller or equal to "
                                "LU.size(-2). Did you properly pass the result of lu_factor?");
  if (left) return {lu_solve_left(LU, p, B, adjoint)};
  return {mT(lu_solve_left(LU, p, mT(B), !adjoint))};
}

// lu_solve(b, LU, pivots): linalg.lu_solve(LU, pivots, b).
Tensors lu_solve_math(Args& args) {
  ArgReader a(O::lu_solve, args);
  return dispatch(O::linalg_lu_solve, Args{a.tensor(1), a.tensor(2), a.tensor(0), true, false});
}

// _lu_with_info(A, pivot, check_errors): torch.lu's op; PyTorch 1.13 reports a zero pivot in info only, whatever
// check_errors says.
Tensors lu_with_info_math(Args& args) {
  ArgReader a(O::_lu_with_info, args);
  return lu_factor_ex(a.tensor(0), a.boolean(1));
}

// matrix_exp(A): linalg.matrix_exp.
Tensors matrix_exp_math(Args& args) {
  ArgReader a(O::matrix_exp, args);
  return {call_op(O::linalg_matrix_exp, a.tensor(0))};
}

}  // namespace amps::rt::common
