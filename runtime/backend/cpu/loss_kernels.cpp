// CPU loss kernels (cross_entropy, nll_loss, mse/l1/smooth_l1, BCE, BCE-with-logits, cosine embedding) and
// cosine_similarity. They compute in double and return the input's dtype: dense operands of one shape and dtype in
// place (vectorised sums), the rest on host copies.
#include <algorithm>
#include <cmath>

#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

using common::Reduction;
using common::parse_reduction;

// [v] as a [dt] tensor of [shape] on the host device [dev], built without dispatching (a kernel must not
// re-enter the dispatch layers).
Tensor doubles_on(const std::vector<double>& v, const Dims& shape, DType dt, Device dev) {
  Tensor out = Tensor::empty(shape, dt, dev);
  copy_into(out, Tensor::from_doubles(v, shape, DType::float64));
  return out;
}

// Applies [red] to per-element losses; mean divides by [denominator] (count or total weight). The result
// is tagged [dev] (the kernel's device: emulated xla/xpu results keep their tag).
Tensor reduce_losses(const std::vector<double>& l, const Dims& shape, Reduction red, double denominator, DType dt,
                     Device dev) {
  if (red == Reduction::none) return doubles_on(l, shape, dt, dev);
  double s = 0;
  for (double v : l) s += v;
  return doubles_on({red == Reduction::sum ? s : s / denominator}, {}, dt, dev);
}

// [x] as row-major doubles after broadcasting to [shape].
std::vector<double> doubles_as(const Tensor& x, const Dims& shape) { return native::expand(x, shape).to_doubles(); }

// Moves the class dim (1) last: [N, C, d...] -> [N, d..., C] row-major ([input] itself for a contiguous [N, C]),
// [C] -> [1, C]; rows = N * d...
Tensor class_matrix(const Tensor& input, int64_t& rows, int64_t& C) {
  Tensor x = input.dim() == 1 ? native::unsqueeze(input, 0) : input;
  C = x.size(1);
  Dims perm{0};
  for (int64_t d = 2; d < x.dim(); ++d) perm.push_back(d);
  perm.push_back(1);
  rows = C ? x.numel() / C : 0;
  return contiguous(native::permute(x, perm));
}

// class_matrix's values as doubles.
std::vector<double> class_rows(const Tensor& input, int64_t& rows, int64_t& C) {
  return class_matrix(input, rows, C).to_doubles();
}

void log_softmax_rows(std::vector<double>& v, int64_t rows, int64_t C) {
  for (int64_t r = 0; r < rows; ++r) {
    double* x = v.data() + r * C;
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < C; ++c) m = std::max(m, x[c]);
    for (int64_t c = 0; c < C; ++c) s += std::exp(x[c] - m);
    for (int64_t c = 0; c < C; ++c) x[c] -= m + std::log(s);
  }
}

struct ClassLossArgs {
  Tensor target, weight;
  int64_t ignore_index = -100;
  Reduction red = Reduction::mean;
  double smoothing = 0;
  Device dev;
};

// The class weights of [a] (all 1 when none was given); one per class or an error.
std::vector<double> class_weights(const ClassLossArgs& a, int64_t C) {
  std::vector<double> w = a.weight.defined() ? a.weight.to_doubles() : std::vector<double>(size_t(C), 1.0);
  AMPS_CHECK(int64_t(w.size()) == C, "weight tensor should be defined either for all {} classes or no classes but "
             "got weight tensor of shape: {}", C, format_shape(a.weight.sizes()));
  return w;
}

// NLL on log-probabilities lp(r, c) of [rows, C] with class-index targets, plus optional label smoothing (which
// alone reads every class of a row).
template <typename LogP>
Tensor nll_from_logp(const LogP& lp, int64_t rows, int64_t C, const ClassLossArgs& a, const Dims& out_shape, DType dt) {
  std::vector<double> w = class_weights(a, C);
  std::vector<double> t = a.target.to_doubles(), loss(size_t(rows), 0.0);
  AMPS_CHECK(int64_t(t.size()) == rows, "Expected target size {}, got {}", format_shape(out_shape),
             format_shape(a.target.sizes()));
  double total_w = 0;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t k = int64_t(t[size_t(r)]);
    if (k == a.ignore_index) continue;
    AMPS_CHECK_INDEX(k >= 0 && k < C, "Target {} is out of bounds.", k);
    double smooth = 0;
    if (a.smoothing != 0)
      for (int64_t c = 0; c < C; ++c) smooth -= w[size_t(c)] * lp(r, c);
    loss[size_t(r)] = (1 - a.smoothing) * -w[size_t(k)] * lp(r, k) + a.smoothing / double(C) * smooth;
    total_w += w[size_t(k)];
  }
  return reduce_losses(loss, out_shape, a.red, total_w, dt, a.dev);
}

Dims target_shape(const Tensor& input) {
  if (input.dim() == 1) return {};
  Dims s{input.size(0)};
  s.insert(s.end(), input.sizes().begin() + 2, input.sizes().end());
  return s;
}

Tensor probs_loss(const std::vector<double>& lp, int64_t rows, int64_t C, const ClassLossArgs& a, const Tensor& input) {
  std::vector<double> w = class_weights(a, C);
  int64_t r2 = 0, c2 = 0;
  std::vector<double> t = class_rows(a.target, r2, c2), loss(size_t(rows), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < C; ++c) {
      double p = t[size_t(r * C + c)] * (1 - a.smoothing) + a.smoothing / double(C);
      loss[size_t(r)] -= w[size_t(c)] * p * lp[size_t(r * C + c)];
    }
  return reduce_losses(loss, target_shape(input), a.red, double(rows), input.dtype(), a.dev);
}

Tensors k_cross_entropy(const ArgReader& a, const KernelContext& kc) {
  Tensor input = a.tensor(0);
  AMPS_CHECK(is_floating(input.dtype()), "cross_entropy: expected a floating point input, got {}",
             dtype_name(input.dtype()));
  ClassLossArgs c{a.tensor(1), a.opt_tensor(2), a.i64(3), parse_reduction(a.str(4)), a.f64(5), kc.device};
  AMPS_CHECK_VALUE(c.smoothing >= 0 && c.smoothing <= 1, "label_smoothing must be between 0.0 and 1.0. Got: {}",
                   c.smoothing);
  int64_t rows = 0, C = 0;
  std::vector<double> lp = class_rows(input, rows, C);
  log_softmax_rows(lp, rows, C);
  if (is_floating(c.target.dtype())) {
    AMPS_CHECK(c.target.sizes() == input.sizes(), "cross_entropy: target of probabilities must have the input's "
               "shape {}, got {}", format_shape(input.sizes()), format_shape(c.target.sizes()));
    return one_tensor(probs_loss(lp, rows, C, c, input));
  }
  const auto at = [&lp, C](int64_t r, int64_t k) { return lp[size_t(r * C + k)]; };
  return one_tensor(nll_from_logp(at, rows, C, c, target_shape(input), input.dtype()));
}

Tensors k_nll_loss(const ArgReader& a, const KernelContext& kc) {
  Tensor input = a.tensor(0);
  ClassLossArgs c{a.tensor(1), a.opt_tensor(2), a.i64(3), parse_reduction(a.str(4)), 0.0, kc.device};
  AMPS_CHECK(!is_floating(c.target.dtype()), "nll_loss: expected target of class indices (int64), got {}",
             dtype_name(c.target.dtype()));
  int64_t rows = 0, C = 0;
  const Tensor m = class_matrix(input, rows, C);  // read in place: one value per row, not rows x C doubles
  return one_tensor(AMPS_DISPATCH_FLOAT(m.dtype(), "nll_loss", T, [&] {
    const T* p = m.data<T>();
    const auto at = [p, C](int64_t r, int64_t k) { return double(compute_t<T>(p[r * C + k])); };
    return nll_from_logp(at, rows, C, c, target_shape(input), input.dtype());
  }));
}

// Σ f(x[i], y[i]) in double over [n] values: fixed blocks summed in double lanes in parallel, the block sums added
// in order, so the result is the same for any thread count.
template <typename T, typename F> double dense_loss_sum(const T* x, const T* y, int64_t n, F f) {
  constexpr int64_t kBlock = 1 << 16;
  std::vector<double> parts(size_t((n + kBlock - 1) / kBlock));
  parallel_for(int64_t(parts.size()), 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) parts[size_t(b)] = lane_sum(x + b * kBlock, y + b * kBlock, std::min(kBlock, n - b * kBlock), f);
  });
  double s = 0;
  for (double p : parts) s += p;
  return s;
}

// f(x, y) per element, in double, for dense floating [x] and [y] of one shape and dtype, reduced as [red] and rounded
// once to the dtype (as the general path below, without its copies into double vectors); undefined otherwise.
template <typename F> Tensor dense_loss(const Tensor& x, const Tensor& y, Reduction red, Device dev, F f) {
  if (x.sizes() != y.sizes() || x.dtype() != y.dtype() || !is_floating(x.dtype()) || !x.is_contiguous() ||
      !y.is_contiguous() || x.numel() == 0)
    return Tensor();
  return AMPS_DISPATCH_FLOAT(x.dtype(), "loss", T, [&] {
    using C = compute_t<T>;
    if (red == Reduction::none) {
      Tensor out = Tensor::empty(x.sizes(), x.dtype(), dev);
      map2<T, T>(out, x, y, [f](C a, C b) { return C(f(double(a), double(b))); });
      return out;
    }
    const double s = dense_loss_sum(x.data<T>(), y.data<T>(), x.numel(), f);
    return doubles_on({red == Reduction::sum ? s : s / double(x.numel())}, {}, x.dtype(), dev);
  });
}

// Pointwise regression losses over broadcast input/target.
template <typename F> Tensor pointwise_loss(const ArgReader& a, Device dev, Reduction red, F f) {
  Tensor x = a.tensor(0), y = a.tensor(1);
  Dims shape = broadcast_pair(x, y, op_name(a.op()));
  if (Tensor fast = dense_loss(x, y, red, dev, f); fast.defined()) return fast;
  std::vector<double> xs = doubles_as(x, shape), ys = doubles_as(y, shape), l(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) l[i] = f(xs[i], ys[i]);
  return reduce_losses(l, shape, red, double(l.size()), promote(x.dtype(), y.dtype()), dev);
}

Tensors k_mse_loss(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(
      pointwise_loss(a, kc.device, parse_reduction(a.str(2)), [](double x, double y) { return (x - y) * (x - y); }));
}

Tensors k_l1_loss(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(
      pointwise_loss(a, kc.device, parse_reduction(a.str(2)), [](double x, double y) { return std::fabs(x - y); }));
}

Tensors k_smooth_l1_loss(const ArgReader& a, const KernelContext& kc) {
  const double beta = a.f64(3);
  AMPS_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  return {pointwise_loss(a, kc.device, parse_reduction(a.str(2)), [beta](double x, double y) {
    double d = std::fabs(x - y);
    return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
  })};
}

std::vector<double> optional_weights(const Tensor& w, const Dims& shape) {
  return w.defined() ? doubles_as(w, shape) : std::vector<double>(size_t(numel_of(shape)), 1.0);
}

Tensors k_bce(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), y = a.tensor(1);
  AMPS_CHECK(x.sizes() == y.sizes(), "Using a target size ({}) that is different to the input size ({}) is "
             "deprecated. Please ensure they have the same size.", format_shape(y.sizes()), format_shape(x.sizes()));
  std::vector<double> xs = x.to_doubles(), ys = y.to_doubles(), w = optional_weights(a.opt_tensor(2), x.sizes());
  std::vector<double> l(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    AMPS_CHECK(xs[i] >= 0 && xs[i] <= 1, "all elements of input should be between 0 and 1");
    l[i] = -w[i] * (ys[i] * std::max(std::log(xs[i]), -100.0) + (1 - ys[i]) * std::max(std::log1p(-xs[i]), -100.0));
  }
  return one_tensor(reduce_losses(l, x.sizes(), parse_reduction(a.str(3)), double(l.size()), x.dtype(), kc.device));
}

Tensors k_bce_logits(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), y = a.tensor(1), pw = a.opt_tensor(4);
  AMPS_CHECK(x.sizes() == y.sizes(), "Target size ({}) must be the same as input size ({})", format_shape(y.sizes()),
             format_shape(x.sizes()));
  if (!a.opt_tensor(2).defined() && !pw.defined()) {
    const auto loss = [](double v, double t) { return (1 - t) * v + std::log1p(std::exp(-std::fabs(v))) + std::max(-v, 0.0); };
    if (Tensor fast = dense_loss(x, y, parse_reduction(a.str(3)), kc.device, loss); fast.defined()) return one_tensor(fast);
  }
  std::vector<double> xs = x.to_doubles(), ys = y.to_doubles(), w = optional_weights(a.opt_tensor(2), x.sizes());
  std::vector<double> p = pw.defined() ? doubles_as(pw, x.sizes()) : std::vector<double>(xs.size(), 1.0), l(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    double lw = (p[i] - 1) * ys[i] + 1;
    l[i] = w[i] * ((1 - ys[i]) * xs[i] + lw * (std::log1p(std::exp(-std::fabs(xs[i]))) + std::max(-xs[i], 0.0)));
  }
  return one_tensor(reduce_losses(l, x.sizes(), parse_reduction(a.str(3)), double(l.size()), x.dtype(), kc.device));
}

// Cosine of rows of [x1], [x2] ([N, D] or [D]); eps guards the norms as PyTorch's EPSILON (1e-12).
std::vector<double> row_cosines(const Tensor& x1, const Tensor& x2, double eps, bool clamp_each) {
  Tensor a = x1.dim() == 1 ? native::unsqueeze(x1, 0) : x1, b = x2.dim() == 1 ? native::unsqueeze(x2, 0) : x2;
  const int64_t N = a.size(0), D = a.size(1);
  std::vector<double> av = a.to_doubles(), bv = b.to_doubles(), cos(static_cast<size_t>(N));
  for (int64_t n = 0; n < N; ++n) {
    double ab = 0, aa = 0, bb = 0;
    for (int64_t d = 0; d < D; ++d) {
      double p = av[size_t(n * D + d)], q = bv[size_t(n * D + d)];
      ab += p * q, aa += p * p, bb += q * q;
    }
    cos[size_t(n)] = clamp_each ? ab / (std::max(std::sqrt(aa), eps) * std::max(std::sqrt(bb), eps))
                                : ab / std::sqrt((aa + eps) * (bb + eps));
  }
  return cos;
}

Tensors k_cosine_embedding_loss(const ArgReader& a, const KernelContext& kc) {
  Tensor x1 = a.tensor(0), x2 = a.tensor(1), y = a.tensor(2);
  AMPS_CHECK(x1.sizes() == x2.sizes() && x1.dim() >= 1 && x1.dim() <= 2, "cosine_embedding_loss: expected input1 "
             "and input2 of equal 1-D or 2-D shape, got {} and {}", format_shape(x1.sizes()), format_shape(x2.sizes()));
  std::vector<double> cos = row_cosines(x1, x2, 1e-12, false), t = y.to_doubles(), l(cos.size());
  AMPS_CHECK(t.size() == cos.size(), "cosine_embedding_loss: target must have {} elements, got {}", cos.size(), t.size());
  const double margin = a.f64(3);
  for (size_t i = 0; i < l.size(); ++i) l[i] = t[i] > 0 ? 1 - cos[i] : std::max(0.0, cos[i] - margin);
  Dims shape = x1.dim() == 1 ? Dims{} : Dims{x1.size(0)};
  return one_tensor(reduce_losses(l, shape, parse_reduction(a.str(4)), double(l.size()), x1.dtype(), kc.device));
}

Tensors k_cosine_similarity(const ArgReader& a, const KernelContext& kc) {
  Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  Dims shape = broadcast_pair(x1, x2, "cosine_similarity");
  int64_t dim = wrap_dim(a.i64(2), int64_t(shape.size()));
  Tensor p = reshape(contiguous(native::transpose(native::expand(x1, shape), dim, -1)), {-1, shape[size_t(dim)]});
  Tensor q = reshape(contiguous(native::transpose(native::expand(x2, shape), dim, -1)), {-1, shape[size_t(dim)]});
  Dims out_shape = shape;
  out_shape.erase(out_shape.begin() + dim);
  return one_tensor(
      doubles_on(row_cosines(p, q, a.f64(3), true), out_shape, promote(x1.dtype(), x2.dtype()), kc.device));
}

}  // namespace

void register_loss_kernels(KernelTable& t) {
  t.add(OpId::cross_entropy, k_cross_entropy, kFloatDTypes);
  t.add(OpId::nll_loss, k_nll_loss, kFloatDTypes);
  t.add(OpId::mse_loss, k_mse_loss, kFloatDTypes);
  t.add(OpId::l1_loss, k_l1_loss, kFloatDTypes);
  t.add(OpId::smooth_l1_loss, k_smooth_l1_loss, kFloatDTypes);
  t.add(OpId::binary_cross_entropy, k_bce, kFloatDTypes);
  t.add(OpId::binary_cross_entropy_with_logits, k_bce_logits, kFloatDTypes);
  t.add(OpId::cosine_embedding_loss, k_cosine_embedding_loss, kFloatDTypes);
  t.add(OpId::cosine_similarity, k_cosine_similarity, kFloatDTypes);
}

}  // namespace amps::rt::cpu
