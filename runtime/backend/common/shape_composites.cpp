// Shape composites (see shape_composites.hpp): stacking, atleast_Nd, broadcasting, rotations, Kronecker and block
// products, written with the dispatching functions so one definition is every backend's kernel and the gradient.
#include "runtime/backend/common/shape_composites.hpp"

#include <cstdlib>
#include <string>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [x] seen with at least [n] dims: PyTorch's atleast_1d/2d/3d layouts ([n] as [1, n, 1] and [m, n] as [m, n, 1]
// for 3 dims). An input that already has them comes back as an expand view (a new tensor over the same data).
Tensor at_least(const Tensor& x, int64_t n) {
  const Dims& s = x.sizes();
  if (x.dim() >= n) return x.expand(s);
  if (x.dim() == 0) return x.reshape(Dims(size_t(n), 1));
  if (n == 2 || x.dim() == 2) return n == 2 ? x.unsqueeze(0) : x.unsqueeze(-1);
  return x.reshape({1, s[0], 1});
}

std::vector<Tensor> all_at_least(const std::vector<Tensor>& ts, int64_t n) {
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(at_least(t, n));
  return out;
}

std::vector<Tensor> nonempty_list(const ArgReader& a, std::string_view op) {
  std::vector<Tensor> ts = a.tensors(0);
  AMPS_CHECK(!ts.empty(), "{} expects a non-empty TensorList", op);
  return ts;
}

}  // namespace

template <int64_t N> Tensors atleast_math(Args& args) {
  ArgReader a(N == 1 ? O::atleast_1d : N == 2 ? O::atleast_2d : O::atleast_3d, args);
  return {at_least(a.tensor(0), N)};
}
template Tensors atleast_math<1>(Args&);
template Tensors atleast_math<2>(Args&);
template Tensors atleast_math<3>(Args&);

// hstack(tensors): cat along dim 1, or dim 0 when the first tensor is (after atleast_1d) 1-D.
Tensors hstack_math(Args& args) {
  std::vector<Tensor> ts = all_at_least(nonempty_list(ArgReader(O::hstack, args), "hstack"), 1);
  return {cat(ts, ts[0].dim() == 1 ? 0 : 1)};
}

// vstack(tensors) and its alias row_stack: cat along dim 0 of atleast_2d of each.
Tensors vstack_math(Args& args) {
  return {cat(all_at_least(nonempty_list(ArgReader(O::vstack, args), "vstack"), 2), 0)};
}

Tensors row_stack_math(Args& args) {
  return {cat(all_at_least(nonempty_list(ArgReader(O::row_stack, args), "row_stack"), 2), 0)};
}

Tensors dstack_math(Args& args) {
  return {cat(all_at_least(nonempty_list(ArgReader(O::dstack, args), "dstack"), 3), 2)};
}

// column_stack(tensors): 0-D and 1-D tensors become [n, 1] columns, then cat along dim 1.
Tensors column_stack_math(Args& args) {
  std::vector<Tensor> ts = nonempty_list(ArgReader(O::column_stack, args), "column_stack");
  for (Tensor& t : ts)
    if (t.dim() <= 1) t = t.reshape({t.numel(), 1});
  return {cat(ts, 1)};
}

// broadcast_to(input, size): expand, with expand's errors.
Tensors broadcast_to_math(Args& args) {
  ArgReader a(O::broadcast_to, args);
  return {a.tensor(0).expand(a.ints(1))};
}

// The broadcast of shapes [a] and [b], with PyTorch's infer_size error.
Dims infer_size(const Dims& a, const Dims& b) {
  const size_t n = std::max(a.size(), b.size());
  Dims out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())], y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    AMPS_CHECK(x == y || x == 1 || y == 1, "The size of tensor a ({}) must match the size of tensor b ({}) at "
               "non-singleton dimension {}", x, y, i);
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// broadcast_tensors(tensors): each expanded to the shape all of them broadcast to.
Tensors broadcast_tensors_math(Args& args) {
  ArgReader a(O::broadcast_tensors, args);
  const std::vector<Tensor> ts = a.tensors(0);
  Dims shape;
  for (const Tensor& t : ts) shape = infer_size(shape, t.sizes());
  Tensors out;
  for (const Tensor& t : ts) out.push_back(t.expand(shape));
  return out;
}

// rot90(input, k, dims): k mod 4 quarter turns; one is a flip of dims[1] and a transpose (PyTorch's definition).
Tensors rot90_math(Args& args) {
  ArgReader a(O::rot90, args);
  const Tensor x = a.tensor(0);
  const Dims dims = a.ints(2);
  AMPS_CHECK(dims.size() == 2, "expected total rotation dims == 2, but got dims = {}", dims.size());
  AMPS_CHECK(x.dim() >= 2, "expected total dims >= 2, but got total dims = {}", x.dim());
  const int64_t d0 = wrap_dim(dims[0], x.dim()), d1 = wrap_dim(dims[1], x.dim());
  AMPS_CHECK(d0 != d1, "expected rotation dims to be different, but got dim0 = {} and dim1 = {}", d0, d1);
  switch (((a.i64(1) % 4) + 4) % 4) {
    case 1: return {call_op(O::flip, x, Dims{d1}).transpose(d0, d1)};
    case 2: return {call_op(O::flip, x, Dims{d0, d1})};
    case 3: return {call_op(O::flip, x, Dims{d0}).transpose(d0, d1)};
    default: return {x.clone()};
  }
}

Tensors fliplr_math(Args& args) {
  ArgReader a(O::fliplr, args);
  AMPS_CHECK(a.tensor(0).dim() >= 2, "Input must be >= 2-d.");
  return {call_op(O::flip, a.tensor(0), Dims{1})};
}

Tensors flipud_math(Args& args) {
  ArgReader a(O::flipud, args);
  AMPS_CHECK(a.tensor(0).dim() >= 1, "Input must be >= 1-d.");
  return {call_op(O::flip, a.tensor(0), Dims{0})};
}

// kron(input, other): both padded to the same rank, input's dims interleaved with 1s against other's, multiplied
// (broadcasting) and the pairs merged.
Tensors kron_math(Args& args) {
  ArgReader a(O::kron, args);
  Tensor x = a.tensor(0), y = a.tensor(1);
  const int64_t n = std::max(x.dim(), y.dim());
  Dims xs(size_t(n - x.dim()), 1), ys(size_t(n - y.dim()), 1);
  xs.insert(xs.end(), x.sizes().begin(), x.sizes().end());
  ys.insert(ys.end(), y.sizes().begin(), y.sizes().end());
  Dims xi, yi, out;
  for (int64_t d = 0; d < n; ++d) {
    xi.insert(xi.end(), {xs[size_t(d)], 1});
    yi.insert(yi.end(), {1, ys[size_t(d)]});
    out.push_back(xs[size_t(d)] * ys[size_t(d)]);
  }
  return {mul(x.reshape(xi), y.reshape(yi)).reshape(out)};
}

// block_diag(tensors): each block (0-D as [1, 1], 1-D as a row) padded with zeros left and right to the total
// width, the padded rows joined by cat (which promotes the dtypes). No tensors: PyTorch's [1, 0].
Tensors block_diag_math(Args& args) {
  ArgReader a(O::block_diag, args);
  std::vector<Tensor> ts = a.tensors(0);
  if (ts.empty()) return {zeros({1, 0})};
  int64_t width = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    AMPS_CHECK(ts[i].dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} "
               "dimensions", i, ts[i].dim());
    if (ts[i].dim() < 2) ts[i] = ts[i].reshape({1, ts[i].numel()});
    width += ts[i].size(1);
  }
  int64_t left = 0;
  for (Tensor& t : ts) {
    const int64_t w = t.size(1);
    t = call_op(O::constant_pad_nd, t, Dims{left, width - left - w}, Scalar(int64_t(0)));
    left += w;
  }
  return {cat(ts, 0)};
}

// cartesian_prod(tensors): meshgrid('ij') of the 1-D tensors, each flattened as a column; one tensor comes back as
// a copy of itself.
Tensors cartesian_prod_math(Args& args) {
  ArgReader a(O::cartesian_prod, args);
  const std::vector<Tensor> ts = a.tensors(0);
  for (const Tensor& t : ts)
    AMPS_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape {}", list_shape(t.sizes()));
  if (ts.size() == 1) return {ts[0].clone()};
  std::vector<Tensor> columns;
  for (const Tensor& g : dispatch(O::meshgrid, Args{ts, std::string("ij")})) columns.push_back(g.reshape({-1}));
  return {stack(columns, 1)};
}

}  // namespace amps::rt::common
