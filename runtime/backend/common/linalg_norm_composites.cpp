// The torch.linalg norm composites declared in linalg_norm_composites.hpp.
#include "runtime/backend/common/linalg_norm_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

std::string dims_text(const Dims& d) { return fmt::format("[{}]", fmt::join(d, ", ")); }

// A matrix norm's input: at least 2-D, floating (after dtype=), and its two distinct dims wrapped.
std::pair<int64_t, int64_t> matrix_dims(const Tensor& A, const Dims& dim) {
  AMPS_CHECK(A.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  AMPS_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got {}", dims_text(dim));
  const int64_t d0 = wrap_dim(dim[0], A.dim()), d1 = wrap_dim(dim[1], A.dim());
  AMPS_CHECK(d0 != d1, "linalg.matrix_norm: dims must be different. Got ({}, {})", dim[0], dim[1]);
  AMPS_CHECK(is_floating(A.dtype()), "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {}",
             dtype_name(A.dtype()));
  return {d0, d1};
}

// [A] with dims d0, d1 moved to the end (in that order), and the permutation that undoes it.
std::pair<Tensor, Dims> dims_to_back(const Tensor& A, int64_t d0, int64_t d1) {
  Dims perm;
  for (int64_t d = 0; d < A.dim(); ++d)
    if (d != d0 && d != d1) perm.push_back(d);
  perm.insert(perm.end(), {d0, d1});
  Dims back(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) back[size_t(perm[i])] = int64_t(i);
  return {A.permute(perm), back};
}

// A reduction [f] of the singular values of A over dims (d0, d1), keepdim putting two 1s back in their places.
template <typename F> Tensor over_singular_values(const Tensor& A, int64_t d0, int64_t d1, bool keepdim, F f) {
  auto [moved, back] = dims_to_back(A, d0, d1);
  Tensor r = f(call_op(O::linalg_svdvals, moved));
  return keepdim ? r.unsqueeze(-1).unsqueeze(-1).permute(back) : r;
}

Tensor with_dtype(const Tensor& A, std::optional<DType> dt) { return dt ? A.to(*dt) : A; }

Tensor extreme(const Tensor& t, double ord, int64_t dim, bool keepdim) {
  return call_op(ord > 0 ? O::amax : O::amin, t, Dims{dim}, keepdim);
}

// ord 1, -1, inf, -inf: the max (min) over one dim of the abs sums over the other; ord 2, -2: of the singular values.
Tensor numeric_matrix_norm(const Tensor& A, double ord, const Dims& dim, bool keepdim, std::optional<DType> dt) {
  auto [d0, d1] = matrix_dims(with_dtype(A, dt), dim);
  const double a = std::fabs(ord);
  AMPS_CHECK(a == 2 || a == 1 || std::isinf(a), "linalg.matrix_norm: Order {} not supported.", ord);
  if (a == 2) {
    auto pick = [ord](const Tensor& s) { return extreme(s, ord, -1, false); };
    return over_singular_values(with_dtype(A, dt), d0, d1, keepdim, pick);
  }
  if (std::isinf(a)) std::swap(d0, d1);
  if (!keepdim && d0 < d1) --d1;  // the first reduction removed a dim in front of d1
  const Tensor sums = call_op(O::linalg_vector_norm, A, Scalar(1.0), Dims{d0}, keepdim, dt ? IValue(*dt) : IValue());
  return extreme(sums, ord, d1, keepdim);
}

// 'fro': the 2-norm of the elements; 'nuc': the sum of the singular values.
Tensor string_matrix_norm(const Tensor& A, const std::string& ord, const Dims& dim, bool keepdim,
                          std::optional<DType> dt) {
  auto [d0, d1] = matrix_dims(with_dtype(A, dt), dim);
  AMPS_CHECK(ord == "fro" || ord == "nuc", "linalg.matrix_norm: Order {} not supported.", ord);
  if (ord == "fro")
    return call_op(O::linalg_vector_norm, A, Scalar(2.0), Dims{d0, d1}, keepdim, dt ? IValue(*dt) : IValue());
  return over_singular_values(with_dtype(A, dt), d0, d1, keepdim, [](const Tensor& s) { return sum(s, Dims{-1}); });
}

// linalg.norm's dim checks: 1 or 2 dims when given; else a 1-D or 2-D input when ord is.
void check_norm_dims(const Tensor& A, const std::optional<Dims>& dim, bool has_ord) {
  if (dim) {
    AMPS_CHECK(dim->size() == 1 || dim->size() == 2, "linalg.norm: If dim is specified, it must be of length 1 or 2. "
               "Got {}", dims_text(*dim));
  } else if (has_ord) {
    AMPS_CHECK(A.dim() == 1 || A.dim() == 2, "linalg.norm: If dim is not specified but ord is, the input must be 1D "
               "or 2D. Got {}D.", A.dim());
  }
}

}  // namespace

// linalg_vector_norm(x, ord, dim, keepdim, dtype): the norm op (PyTorch's vector norm, ord 0 and ±inf included).
Tensors linalg_vector_norm_math(Args& args) {
  ArgReader a(O::linalg_vector_norm, args);
  return {call_op(O::norm, a.tensor(0), a.scalar(1), a.opt_ints(2) ? IValue(*a.opt_ints(2)) : IValue(), a.boolean(3),
                  a.opt_dtype(4) ? IValue(*a.opt_dtype(4)) : IValue())};
}

Tensors linalg_matrix_norm_math(Args& args) {
  ArgReader a(O::linalg_matrix_norm, args);
  return {numeric_matrix_norm(a.tensor(0), a.scalar(1).to_double(), a.ints(2), a.boolean(3), a.opt_dtype(4))};
}

Tensors linalg_matrix_norm_str_ord_math(Args& args) {
  ArgReader a(O::linalg_matrix_norm_str_ord, args);
  return {string_matrix_norm(a.tensor(0), a.str(1), a.ints(2), a.boolean(3), a.opt_dtype(4))};
}

// linalg_norm(A, ord, dim, keepdim, dtype): a matrix norm when ord is given with two dims (or a 2-D input and no
// dim), else a vector norm (2 when ord is None).
Tensors linalg_norm_math(Args& args) {
  ArgReader a(O::linalg_norm, args);
  const Tensor A = a.tensor(0);
  const std::optional<Scalar> ord = a.opt_scalar(1);
  const std::optional<Dims> dim = a.opt_ints(2);
  check_norm_dims(A, dim, ord.has_value());
  if (ord && ((dim && dim->size() == 2) || (!dim && A.dim() == 2)))
    return {numeric_matrix_norm(A, ord->to_double(), dim.value_or(Dims{0, 1}), a.boolean(3), a.opt_dtype(4))};
  return {call_op(O::norm, A, ord.value_or(Scalar(2.0)), dim ? IValue(*dim) : IValue(), a.boolean(3),
                  a.opt_dtype(4) ? IValue(*a.opt_dtype(4)) : IValue())};
}

// linalg_norm(A, 'fro' or 'nuc', dim, keepdim, dtype): the matrix norm over dim (0, 1 when None).
Tensors linalg_norm_ord_str_math(Args& args) {
  ArgReader a(O::linalg_norm_ord_str, args);
  const Tensor A = a.tensor(0);
  const std::optional<Dims> dim = a.opt_ints(2);
  check_norm_dims(A, dim, true);
  return {string_matrix_norm(A, a.str(1), dim.value_or(Dims{0, 1}), a.boolean(3), a.opt_dtype(4))};
}

}  // namespace amps::rt::common
