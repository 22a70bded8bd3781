// Differentiable decompositions of fused ops, following PyTorch's composite definitions and the CPU
// kernels' formulas (eps placement), so values match the fused kernels up to rounding.
#include "runtime/autograd/decompose.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;

Tensor reduce(const Tensor& loss, const std::string& reduction) {
  if (reduction == "sum") return sum(loss);
  return reduction == "mean" ? mean(loss) : loss;
}

// [w] ([C]) shaped to broadcast along the class dim [cdim] of an [ndim]-dim input.
Tensor along_classes(const Tensor& w, int64_t ndim, int64_t cdim) {
  Dims shape(size_t(ndim), 1);
  shape[size_t(cdim)] = w.numel();
  return w.reshape(shape);
}

// Cross entropy against class probabilities (PyTorch: mean divides by the batch size).
Tensor prob_target_loss(const Tensor& logp, Tensor t, const Tensor& w, const std::string& red, double eps,
                        int64_t cdim) {
  const int64_t C = logp.size(cdim);
  if (eps > 0) t = t * (1 - eps) + eps / double(C);
  Tensor lw = w.defined() ? logp * along_classes(w, logp.dim(), cdim) : logp;
  Tensor loss = neg(sum(t * lw, Dims{cdim}));
  if (red == "mean") return sum(loss) / double(logp.numel() / C);
  return reduce(loss, red);
}

// Label smoothing's uniform term, with ignore_index and weights as PyTorch applies them.
Tensor smooth_term(const Tensor& logp, const Tensor& t, const Tensor& w, int64_t ignore, const std::string& red,
                   int64_t cdim) {
  Tensor valid = ne(t, ignore);
  Tensor lw = w.defined() ? logp * along_classes(w, logp.dim(), cdim) : logp;
  Tensor s = where(valid, neg(sum(lw, Dims{cdim})), wrap_number(0.0));
  if (red != "mean") return reduce(s, red);
  if (!w.defined()) return sum(s) / sum(valid);
  Tensor safe = where(valid, t, wrap_number(int64_t(0)));
  return sum(s) / sum(index_select(w, 0, safe.reshape({-1})) * valid.reshape({-1}));
}

}  // namespace

Tensors decompose_dropout(Args& args) {
  ArgReader a(O::dropout, args);
  if (!a.boolean(2)) return {a.tensor(0)};
  return {dispatch(O::native_dropout, Args{a.tensor(0), a.f64(1), true})[0]};
}

Tensors decompose_cross_entropy(Args& args) {
  ArgReader a(O::cross_entropy, args);
  Tensor x = a.tensor(0), t = a.tensor(1), w = a.opt_tensor(2);
  const int64_t cdim = x.dim() == 1 ? 0 : 1, C = x.size(cdim), ignore = a.i64(3);
  const std::string red = a.str(4);
  const double eps = a.f64(5);
  Tensor logp = log_softmax(x, cdim);
  if (t.is_floating_point()) return {prob_target_loss(logp, t, w, red, eps, cdim)};
  Tensor nll = call_op(O::nll_loss, logp, t, w.defined() ? IValue(w) : IValue(), ignore, red);
  if (eps == 0) return {nll};
  return {nll * (1 - eps) + smooth_term(logp, t, w, ignore, red, cdim) * (eps / double(C))};
}

Tensors decompose_cosine_similarity(Args& args) {
  ArgReader a(O::cosine_similarity, args);
  Dims shape = broadcast_shapes(a.tensor(0).sizes(), a.tensor(1).sizes(), "cosine_similarity");
  Tensor x1 = a.tensor(0).expand(shape), x2 = a.tensor(1).expand(shape);
  Dims d{wrap_dim(a.i64(2), int64_t(shape.size()))};
  const double eps = a.f64(3);
  Tensor n1 = clamp(norm(x1, 2.0, d), eps, std::nullopt), n2 = clamp(norm(x2, 2.0, d), eps, std::nullopt);
  return {sum(x1 * x2, d) / (n1 * n2)};
}

Tensors decompose_cosine_embedding_loss(Args& args) {
  ArgReader a(O::cosine_embedding_loss, args);
  Tensor x1 = a.tensor(0), x2 = a.tensor(1), t = a.tensor(2);
  Dims d{x1.dim() - 1};
  Tensor aa = sum(x1 * x1, d) + 1e-12, bb = sum(x2 * x2, d) + 1e-12;
  Tensor cos = sum(x1 * x2, d) / sqrt(aa * bb);
  Tensor loss = where(gt(t.reshape(cos.sizes()), 0), sub(wrap_number(1.0), cos), clamp(cos - a.f64(3), 0.0, std::nullopt));
  return {reduce(loss, a.str(4))};
}

}  // namespace amps::rt::autograd
