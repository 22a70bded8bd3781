#include "runtime/backend/common/product_composites.hpp"

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
  if (dim) return wrap_dim(*dim, n);
  for (int64_t d = 0; d < n; ++d)
    if (shape[size_t(d)] == 3) return d;
  AMPS_FAIL("no dimension of size 3 in input");
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

}  // namespace amps::rt::common
