// Gradients of grid_sampler_2d / grid_sampler_3d: one backward kernel gives both (PyTorch 1.13's derivatives.yaml
// entry), grad_input computed only when input needs it. The backward kernels have no gradient of their own, as in
// PyTorch (double backward through a grid sampler is unsupported there too).
#include "runtime/autograd/grid_sampler_rules.hpp"

#include "runtime/dispatch.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

Tensors grid_sampler_rule(C c) {
  const O back = c.a.op() == O::grid_sampler_2d ? O::grid_sampler_2d_backward : O::grid_sampler_3d_backward;
  Tensors g = dispatch(back, Args{c.g(), c.in(0), c.in(1), c.a.i64(2), c.a.i64(3), c.a.boolean(4), c.needs(0)});
  return {c.needs(0) ? g[0] : Tensor(), c.needs(1) ? g[1] : Tensor()};
}

}  // namespace

void add_grid_sampler_rules(std::array<Rule, size_t(op_count)>& t) {
  for (O id : {O::grid_sampler_2d, O::grid_sampler_3d}) t[size_t(id)] = {in_(0) | in_(1), grid_sampler_rule};
}

}  // namespace amps::rt::autograd
