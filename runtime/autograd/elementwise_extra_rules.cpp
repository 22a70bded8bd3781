// Gradients of i0 (i1), special.i1 (i0 - i1 / x, 1/2 at 0) and of the regularized incomplete gamma functions with
// respect to their second argument (x^(a-1) e^-x / Gamma(a), negated for igammac). PyTorch 1.13 defines no
// gradient for their first argument and raises when one is needed; so does amps.
#include "runtime/autograd/elementwise_extra_rules.hpp"

#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

Tensors i0_rule(C c) { return {c.g() * call_op(O::special_i1, c.in(0))}; }

Tensors i1_rule(C c) {
  const Tensor x = c.in(0);
  const Tensor d = call_op(O::i0, x) - c.out(0) / x;
  return {c.g() * where(eq(x, Scalar(0.0)), wrap_number(Scalar(0.5)), d)};
}

Tensors igamma_rule(C c) {
  const bool upper = c.a.op() == O::igammac || c.a.op() == O::igammac_;
  return c.grads(
      [&]() -> Tensor {
        throw Error("NotImplementedError", fmt::format("the derivative for '{}: input' is not implemented.",
                                                       upper ? "igammac" : "igamma"));
      },
      [&] {
        const Tensor a = c.in(0), x = c.in(1);
        const Tensor d = exp((a - 1.0) * log(x) - x - call_op(O::lgamma, a));
        return c.g() * (upper ? neg(d) : d);
      });
}

}  // namespace

void add_elementwise_extra_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::i0)] = {in_(0), i0_rule};
  t[size_t(O::special_i1)] = {in_(0) | out_(0), i1_rule};
  t[size_t(O::igamma)] = {in_(0) | in_(1), igamma_rule};
  t[size_t(O::igammac)] = {in_(0) | in_(1), igamma_rule};
}

}  // namespace amps::rt::autograd
