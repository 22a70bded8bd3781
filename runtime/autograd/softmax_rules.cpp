// softmax/log_softmax/nll_loss gradients through their gradient ops (one pass each where the kernels allow), and
// those ops' decompositions: the formulas the rules used before the ops existed, which autograd records when a
// gradient op's inputs require grad (create_graph), so double backward differentiates plain ops.
#include "runtime/autograd/softmax_rules.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

IValue opt_in(C c, size_t i) { return c.has(i) ? IValue(c.in(i)) : IValue(); }

Tensors softmax_rule(C c) {
  return {call_op(O::_softmax_backward_data, c.g(), c.out(0), c.a.i64(1), c.meta(0).dtype)};
}

Tensors log_softmax_rule(C c) {
  return {call_op(O::_log_softmax_backward_data, c.g(), c.out(0), c.a.i64(1), c.meta(0).dtype)};
}

Tensors nll_rule(C c) {
  return {call_op(O::nll_loss_backward, c.g(), c.in(1), opt_in(c, 2), c.sizes(0), c.a.i64(3), c.a.str(4))};
}

// output * (grad - sum(grad * output, dim)), in input_dtype.
Tensors decompose_softmax_backward(Args& args) {
  ArgReader a(O::_softmax_backward_data, args);
  Tensor g = a.tensor(0), y = a.tensor(1);
  return {(y * (g - sum(g * y, Dims{a.i64(2)}, true))).to(*a.opt_dtype(3))};
}

// grad - exp(output) * sum(grad, dim), in input_dtype.
Tensors decompose_log_softmax_backward(Args& args) {
  ArgReader a(O::_log_softmax_backward_data, args);
  Tensor g = a.tensor(0);
  return {(g - exp(a.tensor(1)) * sum(g, Dims{a.i64(2)}, true)).to(*a.opt_dtype(3))};
}

// -weight[t] * grad (over the total weight for 'mean') at each target class, 0 elsewhere and on ignored rows (as
// PyTorch, whose kernel writes nothing there: all rows ignored gives zeros, not 0/0).
Tensors decompose_nll_loss_backward(Args& args) {
  ArgReader a(O::nll_loss_backward, args);
  Tensor g = a.tensor(0), t = a.tensor(1), w = a.opt_tensor(2);
  const Dims sizes = a.ints(3);
  const std::string red = a.str(5);
  const int64_t classes = sizes.size() == 1 ? sizes[0] : sizes[1];
  Tensor valid = ne(t, a.i64(4)), safe = where(valid, t, wrap_number(Scalar(int64_t(0))));
  Tensor coef = valid.to(g.dtype());
  if (w.defined()) coef = coef * index_select(w, 0, safe.reshape({-1})).reshape(t.sizes());
  Tensor s = red == "mean" ? coef * g / sum(coef) : coef * g;
  s = where(valid, s, wrap_number(Scalar(0.0)));
  Tensor hot = ne(one_hot(safe, classes), Scalar(int64_t(0)));
  if (hot.dim() > 1) {
    Dims perm{0, hot.dim() - 1};
    for (int64_t d = 1; d < hot.dim() - 1; ++d) perm.push_back(d);
    hot = hot.permute(perm), s = s.unsqueeze(1);
  }
  return {where(hot, neg(s), wrap_number(Scalar(0.0)))};
}

}  // namespace

void add_softmax_rules(std::array<Rule, size_t(op_count)>& t) {
  t[size_t(O::softmax)] = {out_(0), softmax_rule};
  t[size_t(O::log_softmax)] = {out_(0), log_softmax_rule};
  t[size_t(O::nll_loss)] = {in_(1) | in_(2), nll_rule};
  t[size_t(O::_softmax_backward_data)] = {0, nullptr, decompose_softmax_backward};
  t[size_t(O::_log_softmax_backward_data)] = {0, nullptr, decompose_log_softmax_backward};
  t[size_t(O::nll_loss_backward)] = {0, nullptr, decompose_nll_loss_backward};
}

}  // namespace amps::rt::autograd
