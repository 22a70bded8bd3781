#include "runtime/backend/common/loss_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/implicit_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

Tensor clamp_min0(const Tensor& t) { return clamp(t, Scalar(0.0), std::nullopt); }

// PyTorch's pairwise_distance: ||x1 - x2 + eps||_p over the last dim.
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps) {
  return call_op(O::norm, x1 - x2 + eps, Scalar(p), Dims{-1}, false);
}

}  // namespace

// max(0, -target * (input1 - input2) + margin).
Tensors margin_ranking_loss_math(Args& args) {
  ArgReader a(O::margin_ranking_loss, args);
  const Tensor loss = clamp_min0(neg(a.tensor(2)) * (a.tensor(0) - a.tensor(1)) + a.f64(3));
  return {reduce_loss(loss, a.str(4), "margin_ranking_loss")};
}

// input where target is 1, max(0, margin - input) where it is -1 (PyTorch's two where's, summed).
Tensors hinge_embedding_loss_math(Args& args) {
  ArgReader a(O::hinge_embedding_loss, args);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  const Tensor zeros = zeros_like(x);
  const Tensor margin_part = where(ne(y, 1.0), clamp_min0(neg(x) + a.f64(2)), zeros);
  const Tensor self_part = where(ne(y, -1.0), x, zeros);
  return {reduce_loss(margin_part + self_part, a.str(3), "hinge_embedding_loss")};
}

// log(1 + exp(-target * input)).
Tensors soft_margin_loss_math(Args& args) {
  ArgReader a(O::soft_margin_loss, args);
  const Tensor loss = call_op(O::log1p, exp(neg(a.tensor(0)) * a.tensor(1)));
  return {reduce_loss(loss, a.str(2), "soft_margin_loss")};
}

// max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance (swap: the smaller of
// d(anchor, negative) and d(positive, negative)).
Tensors triplet_margin_loss_math(Args& args) {
  ArgReader a(O::triplet_margin_loss, args);
  const Tensor &an = a.tensor(0), &pos = a.tensor(1), &negative = a.tensor(2);
  const double margin = a.f64(3), p = a.f64(4), eps = a.f64(5);
  AMPS_CHECK(an.dim() == pos.dim() && an.dim() == negative.dim(), "The anchor, positive, and negative tensors are "
             "expected to have the same number of dimensions, but got: anchor {}D, positive {}D, and negative {}D "
             "inputs", an.dim(), pos.dim(), negative.dim());
  const Tensor d_pos = pairwise_distance(an, pos, p, eps);
  Tensor d_neg = pairwise_distance(an, negative, p, eps);
  if (a.boolean(6)) d_neg = minimum(d_neg, pairwise_distance(pos, negative, p, eps));
  return {reduce_loss(clamp_min0(d_pos - d_neg + margin), a.str(7), "triplet_margin_loss")};
}

// exp(input) - target * input (log_input), else input - target * log(input + eps); full adds Stirling's term
// target * log(target) - target + log(2 pi target) / 2 where target > 1.
Tensors poisson_nll_loss_math(Args& args) {
  ArgReader a(O::poisson_nll_loss, args);
  const Tensor& x = a.tensor(0);
  const Tensor& t = a.tensor(1);
  Tensor loss = a.boolean(2) ? exp(x) - t * x : x - t * log(x + a.f64(4));
  if (a.boolean(3)) {
    const Tensor stirling = t * log(t) - t + log(t * (2.0 * M_PI)) * 0.5;
    loss = loss + where(gt(t, 1.0), stirling, zeros_like(stirling));
  }
  return {reduce_loss(loss, a.str(5), "poisson_nll_loss")};
}

// Per sample: sum over the classes j != y of max(0, margin - x[y] + x[j])^p (times weight[y]), over C.
Tensors multi_margin_loss_math(Args& args) {
  ArgReader a(O::multi_margin_loss, args);
  const Tensor x0 = a.tensor(0);
  const Tensor& y = a.tensor(1);
  const int64_t p = a.i64(2);
  AMPS_CHECK(p == 1 || p == 2, "only p == 1 and p == 2 supported");
  AMPS_CHECK(x0.dim() <= 2 && x0.numel() > 0, "Expected non-empty vector or matrix with optional 0-dim batch size, "
             "but got: {}", format_shape(x0.sizes()));
  const Tensor x = x0.dim() < 2 ? x0.reshape({1, -1}) : x0;
  const int64_t n = x.size(0), c = x.size(1);
  const Tensor yi = y.reshape({-1, 1});
  AMPS_CHECK(yi.size(0) == n, "inconsistent target size: {} for input of size: {}", format_shape(y.sizes()),
             format_shape(x0.sizes()));
  const Tensor own = call_op(O::gather, x, int64_t(1), yi);
  Tensor z = clamp_min0(x - own + a.f64(3));
  if (p == 2) z = z * z;
  if (!a.is_none(4)) z = z * call_op(O::index_select, a.tensor(4), int64_t(0), yi.reshape({-1})).reshape({-1, 1});
  const Tensor others = ne(arange(Scalar(c), std::nullopt, int64_t(1), DType::int64, x.device()).reshape({1, -1}), yi);
  Tensor loss = sum(where(others, z, zeros_like(z)), Dims{1}) / double(c);
  if (x0.dim() < 2 && a.str(5) == "none") loss = loss.reshape(y.sizes());
  return {reduce_loss(loss, a.str(5), "multi_margin_loss")};
}

}  // namespace amps::rt::common
