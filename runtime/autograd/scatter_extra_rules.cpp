// Gradients of as_strided (a view) and of scatter_reduce(input, dim, index, src, reduce, include_self), PyTorch 1.13's
// scatter_reduce_backward: sum passes grad (gathered for src); mean divides it by the number of values folded into
// each position; prod multiplies by the product of the others (zeros handled exactly: a lone zero gets the product
// of the rest); amax/amin share it evenly among the values equal to the result. Without include_self, input's
// gradient is zero where some index points.
#include "runtime/autograd/scatter_extra_rules.hpp"

#include <algorithm>

#include "runtime/backend/common/scatter_extra_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

struct Parts {
  Tensor self, src;
};

Tensor scatter_red(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce,
                   bool include_self) {
  return call_op(O::scatter_reduce, x, dim, index, src, reduce, include_self);
}

Parts mean_grads(const Tensor& g, int64_t dim, const Tensor& index, const Tensor& src, bool include_self) {
  Tensor n = include_self ? ones_like(g) : zeros_like(g);
  n = call_op(O::scatter_add, n, dim, index, ones_like(src).to(g.dtype()));
  n = masked_fill(n, eq(n, Scalar(0.0)), 1.0);
  return {g / n, call_op(O::gather, g, dim, index) / call_op(O::gather, n, dim, index)};
}

Parts prod_grads(const Tensor& g, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                 const Tensor& result, bool include_self) {
  const Tensor masked_self = masked_fill(self, eq(self, Scalar(0.0)), 1.0);
  const Tensor masked_self_result = scatter_red(masked_self, dim, index, src, "prod", include_self);
  const Tensor src_zero = eq(src, Scalar(0.0));
  const Tensor zeros_at = call_op(O::scatter_add, zeros_like(self), dim, index, src_zero.to(self.dtype()));
  const Tensor single_zero = call_op(O::logical_and, src_zero, eq(call_op(O::gather, zeros_at, dim, index), Scalar(1.0)));
  const Tensor masked_src_result = scatter_red(self, dim, index, masked_fill(src, single_zero, 1.0), "prod",
                                               include_self);
  Tensor grad_src = where(single_zero, call_op(O::gather, g * masked_src_result, dim, index),
                          call_op(O::gather, g * result, dim, index) / masked_fill(src, src_zero, 1.0));
  return {g * masked_self_result / masked_self, grad_src};
}

Parts extreme_grads(const Tensor& g, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                    const Tensor& result) {
  const Tensor value = call_op(O::gather, result, dim, index);
  const Tensor self_is = eq(self, result), src_is = eq(src, value);
  const Tensor n = call_op(O::scatter_add, self_is.to(g.dtype()), dim, index, src_is.to(g.dtype()));
  const Tensor shared = g / n;
  return {self_is * shared, src_is * call_op(O::gather, shared, dim, index)};
}

Tensors scatter_reduce_rule(C c) {
  const int64_t dim = c.a.i64(1);
  const std::string reduce = c.a.str(4);
  const bool include_self = c.a.boolean(5);
  const Tensor g = c.g(), index = c.in(2);
  Parts p;
  if (reduce == "sum") p = {g, call_op(O::gather, g, dim, index)};
  else if (reduce == "mean") p = mean_grads(g, dim, index, c.in(3), include_self);
  else if (reduce == "prod") p = prod_grads(g, c.in(0), dim, index, c.in(3), c.out(0), include_self);
  else p = extreme_grads(g, c.in(0), dim, index, c.in(3), c.out(0));
  if (!include_self && c.needs(0)) p.self = call_op(O::scatter, p.self, dim, index, wrap_number(Scalar(0.0)));
  return {c.needs(0) ? p.self : Tensor(), Tensor(), Tensor(), c.needs(3) ? p.src : Tensor()};
}

// as_strided: the output's gradient added into a zero copy of input's storage at the positions the output reads,
// read back at input's positions (divided by how many of input's elements share each position, as PyTorch's
// as_strided_backward for overlapping inputs).
Tensors as_strided_rule(C c) {
  const Tensor x = c.in(0), g = c.g();
  const int64_t n = int64_t(x.storage()->nbytes() / dtype_size(x.dtype()));
  const Dims size = c.a.ints(1), stride = c.a.ints(2);
  const int64_t offset = c.a.opt_i64(3).value_or(x.storage_offset());
  const Tensor out_pos = common::strided_positions(size, stride, offset, g.device()).reshape({-1});
  const Tensor in_pos = common::strided_positions(x.sizes(), x.strides(), x.storage_offset(), g.device()).reshape({-1});
  const Tensor flat = call_op(O::index_add, zeros({n}, g.dtype(), g.device()), int64_t(0), out_pos, g.reshape({-1}),
                              Scalar(int64_t(1)));
  Tensor grad = index_select(flat, 0, in_pos);
  if (x.numel() > 0 && std::find(x.strides().begin(), x.strides().end(), 0) != x.strides().end()) {
    const Tensor shared = call_op(O::index_add, zeros({n}, g.dtype(), g.device()), int64_t(0), in_pos,
                                  ones({in_pos.numel()}, g.dtype(), g.device()), Scalar(int64_t(1)));
    grad = grad / index_select(shared, 0, in_pos);
  }
  return {grad.reshape(x.sizes())};
}

}  // namespace

void add_scatter_extra_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::scatter_reduce)] = {in_(0) | in_(2) | in_(3) | out_(0), scatter_reduce_rule};
  t[size_t(O::as_strided)] = {in_(0), as_strided_rule};  // replaces its implicit composite's decomposition
}

}  // namespace amps::rt::autograd
