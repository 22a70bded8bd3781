// The product composites declared in product_composites.hpp.
#include "runtime/backend/common/product_composites.hpp"

#include <limits>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// The dim cross() works along: [dim] wrapped, or the first dim of size 3 when None (torch.cross's old default).
int64_t cross_dim(const Dims& shape, std::optional<int64_t> dim) {
  const int64_t n = int64_t(shape.size());
  AMPS_CHECK_INDEX(!dim || n > 0, "Dimension specified as {} but tensor has no dimensions", dim.value_or(0));
  if (dim) return wrap_dim(*dim, n);
  for (int64_t d = 0; d < n; ++d)
    if (shape[size_t(d)] == 3) return d;
  AMPS_FAIL("no dimension of size 3 in input");
}


// The cheapest split of each chain [i, j] of the matrices sized p[k] x p[k + 1] (the textbook dynamic program,
// as PyTorch's matrix_chain_order): split[i][j] = k multiplies [i, k] and [k + 1, j] last.
std::vector<std::vector<size_t>> chain_order(const std::vector<int64_t>& p) {
  const size_t n = p.size() - 1;
  std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
  std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
  for (size_t len = 1; len < n; ++len)
    for (size_t i = 0; i + len < n; ++i) {
      const size_t j = i + len;
      cost[i][j] = std::numeric_limits<int64_t>::max();
      for (size_t k = i; k < j; ++k) {
        const int64_t q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (q < cost[i][j]) cost[i][j] = q, split[i][j] = k;
      }
    }
  return split;
}

Tensor chain_product(const std::vector<Tensor>& t, const std::vector<std::vector<size_t>>& split, size_t i, size_t j) {
  if (i == j) return t[i];
  return mm(chain_product(t, split, i, split[i][j]), chain_product(t, split, split[i][j] + 1, j));
}

// The product of 2-D [t] (n >= 2): PyTorch's order (the cheaper of the two for three matrices, ties to the left).
Tensor multi_product(const std::vector<Tensor>& t) {
  if (t.size() == 2) return mm(t[0], t[1]);
  if (t.size() == 3) {
    const int64_t a = t[0].size(0), b = t[1].size(0), c = t[2].size(0), d = t[2].size(1);
    return a * c * (b + d) > b * d * (a + c) ? mm(t[0], mm(t[1], t[2])) : mm(mm(t[0], t[1]), t[2]);
  }
  std::vector<int64_t> p;
  for (const Tensor& m : t) p.push_back(m.size(0));
  p.push_back(t.back().size(1));
  return chain_product(t, chain_order(p), 0, t.size() - 1);
}

// PyTorch's multi_dot checks: the ends 1-D or 2-D, the middle 2-D, one dtype, chained sizes.
void check_multi_dot(const std::vector<Tensor>& in, const std::vector<Tensor>& t) {
  for (size_t i = 1; i + 1 < t.size(); ++i)
    AMPS_CHECK(t[i].dim() == 2, "multi_dot(): tensor {} must be 2D but got {}D", i, t[i].dim());
  for (size_t i = 1; i < t.size(); ++i) {
    AMPS_CHECK(t[i].dtype() == t[0].dtype(), "multi_dot(): all tensors must have be the same dtype but tensor 0 is {} "
               "and tensor {} {}", dtype_name(t[0].dtype()), i, dtype_name(t[i].dtype()));
    AMPS_CHECK(t[i - 1].size(-1) == t[i].size(0), "multi_dot(): tensors {} and {} with shapes [{}] and [{}] cannot be "
               "multiplied", i - 1, i, fmt::join(in[i - 1].sizes(), ", "), fmt::join(in[i].sizes(), ", "));
  }
}

// The dims of [dims] wrapped to [rank], each at most once.
std::vector<bool> dim_set(const Dims& dims, int64_t rank) {
  std::vector<bool> in(size_t(rank), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, rank);
    AMPS_CHECK(!in[size_t(w)], "dim {} appears multiple times in the list of dims", w);
    in[size_t(w)] = true;
  }
  return in;
}

}  // namespace

// vdot(input, other): dot of two 1-D tensors (conjugating the first, a no-op for real dtypes).
Tensors vdot_math(Args& args) {
  ArgReader a(O::vdot, args);
  return {call_op(O::dot, a.tensor(0), a.tensor(1))};
}

// cross(input, other, dim=None): the 3-vector cross product along dim, input and other broadcast together.
Tensors cross_math(Args& args) {
  ArgReader a(O::cross, args);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  AMPS_CHECK(x.dim() == y.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  const Dims shape = broadcast_shapes(x.sizes(), y.sizes(), "cross");
  const int64_t d = cross_dim(shape, a.opt_i64(2));
  AMPS_CHECK(x.size(d) == 3 && y.size(d) == 3, "linalg.cross: inputs dimension {} must have length 3. Got {} and {}",
             d, x.size(d), y.size(d));
  auto part = [d](const Tensor& t, int64_t i) { return t.narrow(d, i, 1); };
  auto term = [&](int64_t i, int64_t j) { return sub(mul(part(x, i), part(y, j)), mul(part(x, j), part(y, i))); };
  return {cat({term(1, 2), term(2, 0), term(0, 1)}, d)};
}

// bilinear(input1 [..., I], input2 [..., J], weight [O, I, J], bias [O]): y[..., o] = input1 W[o] input2 + bias[o],
// as one matrix product of input1 with W laid out [I, O * J], then a contraction with input2.
Tensors bilinear_math(Args& args) {
  ArgReader a(O::bilinear, args);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1), w = a.tensor(2), b = a.opt_tensor(3);
  AMPS_CHECK(x1.dim() == x2.dim(), "bilinear(): input dimensions do not match: got {} and {}", x1.dim(), x2.dim());
  AMPS_CHECK(x1.dim() >= 1, "bilinear(): input1 needs at least one dimension");
  for (int64_t i = 0; i + 1 < x1.dim(); ++i)
    AMPS_CHECK(x1.size(i) == x2.size(i), "bilinear(): input batch dimensions do not match: got {} and {}",
               x1.size(i), x2.size(i));
  AMPS_CHECK(w.dim() == 3, "bilinear(): weight must be three-dimensional, got {} dimensions", w.dim());
  const int64_t I = w.size(1), J = w.size(2), O_ = w.size(0);
  AMPS_CHECK(x1.size(-1) == I, "bilinear(): input1 size does not match weight size: got {} but expected {}",
             x1.size(-1), I);
  AMPS_CHECK(x2.size(-1) == J, "bilinear(): input2 size does not match weight size: got {} but expected {}",
             x2.size(-1), J);
  AMPS_CHECK(!b.defined() || (b.dim() == 1 && b.size(0) == O_), "bilinear(): bias size does not match weight size: "
             "got {} but expected {}", b.defined() ? b.size(-1) : 0, O_);
  Dims lead(x1.sizes().begin(), x1.sizes().end() - 1);
  const Tensor rows1 = x1.reshape({-1, I}), rows2 = x2.reshape({-1, J});
  const Tensor t = matmul(rows1, w.permute({1, 0, 2}).reshape({I, O_ * J})).reshape({-1, O_, J});
  Tensor y = sum(mul(t, rows2.unsqueeze(1)), Dims{-1});
  if (b.defined()) y = add(y, b);
  lead.push_back(O_);
  return {y.reshape(lead)};
}

// linalg_cross(input, other, dim=-1): cross along dim, with linalg.cross's messages (the dim as given).
Tensors linalg_cross_math(Args& args) {
  ArgReader a(O::linalg_cross, args);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  const int64_t dim = a.i64(2);
  AMPS_CHECK(x.dim() == y.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  AMPS_CHECK_INDEX(x.dim() > 0, "Dimension specified as {} but tensor has no dimensions", dim);
  const int64_t d = wrap_dim(dim, x.dim());
  AMPS_CHECK(x.size(d) == 3 && y.size(d) == 3, "linalg.cross: inputs dimension {} must have length 3. Got {} and {}",
             dim, x.size(d), y.size(d));
  return {call_op(O::cross, x, y, d)};
}

// linalg_vecdot(x, y, dim=-1): sum(x * y) along dim, broadcasting.
Tensors linalg_vecdot_math(Args& args) {
  ArgReader a(O::linalg_vecdot, args);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  AMPS_CHECK(x.dtype() == y.dtype(), "linalg.vecdot: Expected x and y to have the same dtype, but found x of type {} "
             "and y of type {} instead", dtype_name(x.dtype()), dtype_name(y.dtype()));
  return {sum(mul(x, y), Dims{a.i64(2)})};
}

// tensordot(a, b, dims_a, dims_b): the contracted dims moved to the end of a and the front of b, one mm (a size-1
// dim against a larger one is summed away first, as PyTorch's).
Tensors tensordot_math(Args& args) {
  ArgReader a(O::tensordot, args);
  Tensor x = a.tensor(0), y = a.tensor(1);
  const Dims da = a.ints(2), db = a.ints(3);
  AMPS_CHECK(da.size() == db.size(), "both dimension lists should have same length");
  for (const auto& [t, dims] : {std::pair{&x, &da}, std::pair{&y, &db}})
    for (int64_t d : *dims) {
      AMPS_CHECK_INDEX(t->dim() > 0, "Dimension specified as {} but tensor has no dimensions", d);
      wrap_dim(d, t->dim());  // its range error
    }
  int64_t csize = 1;
  for (size_t i = 0; i < da.size(); ++i) {
    const int64_t s1 = x.size(da[i]), s2 = y.size(db[i]);
    if (s2 == 1) x = sum(x, Dims{da[i]}, true);
    else if (s1 == 1) y = sum(y, Dims{db[i]}, true);
    else AMPS_CHECK(s1 == s2, "contracted dimensions need to match, but first has size {} in dim {} and second has "
                    "size {} in dim {}", s1, da[i], s2, db[i]);
    if (s1 == s2) csize *= s1;
  }
  const std::vector<bool> ca = dim_set(da, x.dim()), cb = dim_set(db, y.dim());
  Dims pa, pb, out;
  int64_t size1 = 1, size2 = 1;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (!ca[size_t(d)]) pa.push_back(d), size1 *= x.size(d), out.push_back(x.size(d));
  for (int64_t d : da) pa.push_back(wrap_dim(d, x.dim()));
  for (int64_t d : db) pb.push_back(wrap_dim(d, y.dim()));
  for (int64_t d = 0; d < y.dim(); ++d)
    if (!cb[size_t(d)]) pb.push_back(d), size2 *= y.size(d), out.push_back(y.size(d));
  return {mm(x.permute(pa).reshape({size1, csize}), y.permute(pb).reshape({csize, size2})).reshape(out)};
}

// matrix_power(A, n): binary powering from the lowest bit (PyTorch's order of products); n < 0 powers the inverse,
// n = 0 gives identities.
Tensors matrix_power_math(Args& args) {
  ArgReader a(O::matrix_power, args);
  Tensor A = a.tensor(0);
  int64_t n = a.i64(1);
  AMPS_CHECK(A.dim() >= 2, "linalg.matrix_power: The input tensor A must have at least 2 dimensions.");
  AMPS_CHECK(A.size(-1) == A.size(-2), "linalg.matrix_power: A must be batches of square matrices, but they are {} by "
             "{} matrices", A.size(-2), A.size(-1));
  if (n == 0) return {eye(A.size(-1), std::nullopt, A.dtype(), A.device()).expand(A.sizes()).clone()};
  if (n < 0) A = call_op(O::inverse, A), n = -n;
  if (n == 1) return {A.is_same(a.tensor(0)) ? A.clone() : A};
  if (n == 2) return {matmul(A, A)};
  if (n == 3) return {matmul(matmul(A, A), A)};
  Tensor z, r;
  for (; n > 0; n /= 2) {
    z = z.defined() ? matmul(z, z) : A;
    if (n % 2) r = r.defined() ? matmul(r, z) : z;
  }
  return {r};
}

// chain_matmul(matrices): 2-D matrices only; one is copied, more multiply as linalg.multi_dot.
Tensors chain_matmul_math(Args& args) {
  ArgReader a(O::chain_matmul, args);
  const std::vector<Tensor> t = a.tensors(0);
  for (const Tensor& m : t) AMPS_CHECK(m.dim() == 2, "Tensor dimension is {}, expected 2 instead.", m.dim());
  AMPS_CHECK(!t.empty(), "chain_matmul(): Expected one or more matrices");
  if (t.size() == 1) return {t[0].clone()};
  check_multi_dot(t, t);
  return {multi_product(t)};
}

// linalg_multi_dot(tensors): a 1-D first (last) tensor is a row (column) vector, dropped from the result's shape.
Tensors linalg_multi_dot_math(Args& args) {
  ArgReader a(O::linalg_multi_dot, args);
  const std::vector<Tensor> in = a.tensors(0);
  AMPS_CHECK(in.size() >= 2, "multi_dot(): expected at least 2 tensors but got {}", in.size());
  std::vector<Tensor> t = in;
  Dims shape;
  AMPS_CHECK(t[0].dim() == 1 || t[0].dim() == 2, "multi_dot(): the first tensor must be 1D or 2D but got {}D",
             t[0].dim());
  if (t[0].dim() == 1) t[0] = t[0].unsqueeze(0);
  else shape.push_back(t[0].size(0));
  AMPS_CHECK(t.back().dim() == 1 || t.back().dim() == 2, "multi_dot(): the last tensor must be 1D or 2D but got {}D",
             t.back().dim());
  if (t.back().dim() == 1) t.back() = t.back().unsqueeze(-1);
  else shape.push_back(t.back().size(1));
  check_multi_dot(in, t);
  return {multi_product(t).reshape(shape)};
}

}  // namespace amps::rt::common
