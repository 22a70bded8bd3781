// Gradient rules: one short local rule per differentiable primitive of ops.def. Rules are written with
// dispatched ops, so under create_graph they are recorded themselves (higher-order gradients). The
// engine, not the rules, un-broadcasts to input shapes, casts to input dtypes and skips unneeded slots.
#include "runtime/autograd/rules.hpp"

#include <array>
#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/autograd/decompose.hpp"
#include "runtime/autograd/elementwise_extra_rules.hpp"
#include "runtime/autograd/grid_sampler_rules.hpp"
#include "runtime/autograd/linalg_rules.hpp"
#include "runtime/autograd/scatter_extra_rules.hpp"
#include "runtime/autograd/softmax_rules.hpp"
#include "runtime/backend/common/derived_inplace.hpp"
#include "runtime/backend/common/implicit_composites.hpp"
#include "runtime/backend/common/norm_backward.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;
using C = const BackwardCtx&;

template <typename... A> Tensor op(O id, A&&... a) { return call_op(id, std::forward<A>(a)...); }
Tensor num(double v) { return wrap_number(Scalar(v)); }
Tensor scaled(const Tensor& g, double s) { return s == 1.0 ? g : g * s; }
Tensor rsub(double s, const Tensor& t) { return sub(num(s), t); }
// [g] where [cond] holds, else 0.
Tensor keep_where(const Tensor& cond, const Tensor& g) { return where(cond, g, num(0)); }
Tensor zeros_of(C c, size_t i) { return zeros(c.sizes(i), c.meta(i).dtype, c.meta(i).device); }

// The gradient of an op that picks input elements along [dim] (sort, topk): the incoming gradient added at the
// picked positions (output 1 holds their indices), zero elsewhere.
Tensor scatter_back(C c, int64_t dim) {
  if (c.sizes(0).empty()) return c.g();
  return op(O::scatter_add, zeros_of(c, 0).to(c.g().dtype()), dim, c.out(1), c.g());
}
Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
Tensor sign(const Tensor& t) { return op(O::sign, t); }
double sc(C c, size_t i) { return c.a.scalar(i).to_double(); }
// [t] as a matrix of [last] columns: every leading dim flattened into rows (explicit, since -1 is ambiguous
// for an empty tensor with last == 0, as linear's zero in_features).
Tensor rows(const Tensor& t, int64_t last) {
  int64_t n = 1;
  for (int64_t d = 0; d + 1 < t.dim(); ++d) n *= t.size(d);
  return t.reshape({n, last});
}
Tensor land(const Tensor& a, const Tensor& b) { return op(O::logical_and, a, b); }

// ---- reductions: the reduction result in keepdim form, and the reduced element count ----
Dims reduced_shape(const Dims& in, const std::optional<Dims>& dims) {
  Dims shape = in;
  if (!dims || dims->empty()) std::fill(shape.begin(), shape.end(), 1);
  else for (int64_t d : *dims) shape[size_t(wrap_dim(d, int64_t(in.size())))] = 1;
  return shape;
}
Tensor unreduce(const Tensor& t, const Dims& in, const std::optional<Dims>& dims) {
  return t.reshape(reduced_shape(in, dims));
}
Tensor expand_back(const Tensor& t, const Dims& in, const std::optional<Dims>& dims) {
  return unreduce(t, in, dims).expand(in);
}
double reduced_count(const Dims& in, const std::optional<Dims>& dims) {
  return double(numel_of(in)) / double(numel_of(reduced_shape(in, dims)));
}
// Gradient shared evenly among the elements of [x] equal to the reduced value [y] (max, min, amax).
Tensor even_share(const Tensor& g, const Tensor& x, const Tensor& y, const std::optional<Dims>& dims) {
  Tensor mask = eq(x, unreduce(y, x.sizes(), dims));
  Tensor count = sum(mask, dims, true);
  return keep_where(mask, unreduce(g, x.sizes(), dims) / count);
}
std::optional<Dims> dims_opt(const Dims& d) { return d.empty() ? std::nullopt : std::optional<Dims>(d); }

Tensors prod_rule(C c) {
  Tensor x = c.in(0), y = c.out(0);
  std::optional<Dims> dims = c.a.is_none(1) ? std::nullopt : std::optional<Dims>(Dims{c.a.i64(1)});
  Tensor zero = eq(x, 0), yk = unreduce(y, x.sizes(), dims), gk = unreduce(c.g(), x.sizes(), dims);
  Tensor zeros_n = sum(zero, dims, true);
  Tensor others = unreduce(op(O::prod, where(zero, num(1), x), dims ? IValue((*dims)[0]) : IValue(), true),
                           x.sizes(), dims);  // product of the non-zero elements
  Tensor no_zero = yk / where(zero, num(1), x);
  Tensor one_zero = keep_where(zero, others.expand(x.sizes()));
  return {gk * where(eq(zeros_n, 0), no_zero, keep_where(eq(zeros_n, 1), one_zero))};
}

Tensors norm_rule(C c) {
  Tensor x = c.in(0), y = c.out(0);
  double p = c.a.is_none(1) ? 2.0 : sc(c, 1);
  std::optional<Dims> dims = c.a.opt_ints(2);
  Tensor gk = unreduce(c.g(), x.sizes(), dims), yk = unreduce(y, x.sizes(), dims);
  if (p == 0) return {zeros_like(x)};
  if (p == 1) return {gk * sign(x)};
  if (std::isinf(p)) return {even_share(c.g(), abs(x), y, dims) * sign(x)};
  if (p == 2) return {keep_where(ne(yk, 0), gk * x / yk)};
  Tensor t = x * op(O::pow, abs(x), num(p - 2)) / op(O::pow, yk, num(p - 1));
  return {keep_where(ne(yk, 0), gk * t)};
}

// d var / dx = 2 (x - mean) / (N - correction), on the keepdim-form gradient [gk].
Tensor var_grad(C c, const Tensor& x, const Tensor& gk) {
  std::optional<Dims> dims = c.a.opt_ints(1);
  double corr = c.a.is_none(2) ? 1.0 : sc(c, 2);
  double n = reduced_count(x.sizes(), dims);
  return gk * (x - mean(x, dims, true)) * (2.0 / (n - corr));
}

// ---- shape helpers ----
Tensors permute_rule(C c) {
  Dims p = c.a.ints(1), inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[size_t(wrap_dim(p[i], int64_t(p.size())))] = int64_t(i);
  return {c.g().permute(inv)};
}

Tensors cat_rule(C c) {
  int64_t dim = 0, off = 0;
  for (size_t i = 0; i < c.slots(); ++i)
    if (c.sizes(i) != Dims{0}) dim = wrap_dim(c.a.i64(1), int64_t(c.sizes(i).size()));
  Tensors r(c.slots());
  for (size_t i = 0; i < c.slots(); ++i) {
    if (c.sizes(i) == Dims{0}) continue;
    int64_t n = c.sizes(i)[size_t(dim)];
    if (c.needs(i)) r[i] = c.g().narrow(dim, off, n);
    off += n;
  }
  return r;
}

Tensors stack_rule(C c) {
  int64_t dim = wrap_dim(c.a.i64(1), c.g().dim());
  Tensors r(c.slots());
  for (size_t i = 0; i < c.slots(); ++i)
    if (c.needs(i)) r[i] = c.g().select(dim, int64_t(i));
  return r;
}

// split/chunk: the pieces' gradients (zeros where none flowed) joined again.
Tensors unsplit_rule(C c) {
  std::vector<Tensor> parts;  // cat() takes a tensor list
  const Dims& in = c.sizes(0);
  int64_t dim = wrap_dim(c.a.i64(2), int64_t(in.size())), covered = 0;
  for (size_t k = 0; covered < in[size_t(dim)]; ++k) {
    parts.push_back(c.g(k));
    covered += parts.back().size(dim);
  }
  return {cat(parts, dim)};
}

// ---- matrix products ----
Tensors matmul_rule(C c) {
  Tensor a = c.in(0), b = c.in(1), g = c.g();
  if (a.dim() == 1 && b.dim() == 1) return c.grads([&] { return g * b; }, [&] { return g * a; });
  if (b.dim() == 1)
    return c.grads([&] { return matmul(g.unsqueeze(-1), b.unsqueeze(0)); },
                   [&] { return matmul(mT(a), g.unsqueeze(-1)).squeeze(-1); });
  if (a.dim() == 1)
    return c.grads([&] { return matmul(g.unsqueeze(-2), mT(b)).squeeze(-2); },
                   [&] { return matmul(a.unsqueeze(-1), g.unsqueeze(-2)); });
  // A batched input times one matrix (x[*, K] @ w[K, N], as linear): w's gradient is one [K, rows] x [rows, N]
  // product, not a batch of products summed afterwards (PyTorch folds it the same way).
  if (b.dim() == 2 && a.dim() > 2)
    return c.grads([&] { return matmul(g, mT(b)); }, [&] { return mm(rows(a, a.size(-1)).t(), rows(g, g.size(-1))); });
  return c.grads([&] { return matmul(g, mT(b)); }, [&] { return matmul(mT(a), g); });
}

Tensors linear_rule(C c) {
  Tensor x = c.in(0), w = c.in(1), g = c.g();
  return c.grads([&] { return matmul(g, w); },
                 [&] { return x.dim() == 1 ? op(O::outer, g, x) : mm(rows(g, w.size(0)).t(), rows(x, w.size(1))); },
                 [&] { return g; });
}

// beta * input + alpha * product: the shared part of the add* rules.
template <typename F1, typename F2> Tensors addprod(C c, F1 d1, F2 d2) {
  double beta = sc(c, 3), alpha = sc(c, 4);
  return c.grads([&] { return scaled(c.g(), beta); }, [&] { return scaled(d1(), alpha); },
                 [&] { return scaled(d2(), alpha); });
}

// ---- convolution: the gradients are the backward ops (oneDNN's backward primitives), whose own rules
// are convolutions again (forward or backward), so double backward composes ----
int conv_dims(C c) { return int(c.sizes(1).size()) - 2; }
O conv_op(int nd) { return nd == 1 ? O::conv1d : nd == 2 ? O::conv2d : O::conv3d; }
O convt_op(int nd) { return nd == 1 ? O::conv_transpose1d : nd == 2 ? O::conv_transpose2d : O::conv_transpose3d; }

struct ConvArgs {
  Dims stride, pad, dil, outpad;
  int64_t groups;
  bool transposed;
};

ConvArgs conv_args(C c, int nd, bool transposed) {
  const size_t n = size_t(nd);
  if (!transposed) return {c.a.ints(3, n), c.a.ints(4, n), c.a.ints(5, n), {}, c.a.i64(6), false};
  return {c.a.ints(3, n), c.a.ints(4, n), c.a.ints(7, n), c.a.ints(5, n), c.a.i64(6), true};
}

// The arguments of convolution_backward_input/_weight (stride at 3 ... groups at 8).
ConvArgs backward_conv_args(C c) {
  return {c.a.ints(3), c.a.ints(4), c.a.ints(5), c.a.ints(7), c.a.i64(8), c.a.boolean(6)};
}

// The forward op p describes (conv{N}d or conv_transpose{N}d) of batched [x] with [w] and [bias].
Tensor conv_forward(const Tensor& x, const Tensor& w, const IValue& bias, const ConvArgs& p) {
  const int nd = int(w.dim()) - 2;
  if (!p.transposed) return op(conv_op(nd), x, w, bias, p.stride, p.pad, p.dil, p.groups);
  return op(convt_op(nd), x, w, bias, p.stride, p.pad, p.outpad, p.groups, p.dil);
}

Tensor conv_input_grad(const Tensor& g, const Tensor& w, const Dims& in_sizes, const ConvArgs& p) {
  return op(O::convolution_backward_input, g, w, in_sizes, p.stride, p.pad, p.dil, p.transposed, p.outpad, p.groups);
}

Tensors conv_weight_bias_grads(const Tensor& g, const Tensor& x, const Dims& w_sizes, const ConvArgs& p) {
  return dispatch(O::convolution_backward_weight,
                  Args{g, x, w_sizes, p.stride, p.pad, p.dil, p.transposed, p.outpad, p.groups});
}

// conv{N}d and conv_transpose{N}d: input, weight and bias gradients (weight and bias from one call).
Tensors conv_rule(C c, bool transposed) {
  const int nd = conv_dims(c);
  const ConvArgs p = conv_args(c, nd, transposed);
  const bool unbatched = int(c.sizes(0).size()) == nd + 1;
  Tensor x = unbatched ? c.in(0).unsqueeze(0) : c.in(0), w = c.in(1), g = unbatched ? c.g().unsqueeze(0) : c.g();
  Tensors wb;
  auto weight_bias = [&](size_t k) {
    if (wb.empty()) wb = conv_weight_bias_grads(g, x, w.sizes(), p);
    return wb[k];
  };
  return c.grads([&] {
                   Tensor gx = conv_input_grad(g, w, x.sizes(), p);
                   return unbatched ? gx.squeeze(0) : gx;
                 },
                 [&] { return weight_bias(0); }, [&] { return weight_bias(1); });
}

// Both backward ops are linear in each argument: their gradients are the forward and the other backward op.
Tensors conv_input_grad_rule(C c) {
  const ConvArgs p = backward_conv_args(c);
  Tensor g = c.in(0), w = c.in(1), gg = c.g();
  return c.grads([&] { return conv_forward(gg, w, IValue(), p); },
                 [&] { return conv_weight_bias_grads(g, gg, w.sizes(), p)[0]; });
}

Tensors conv_weight_grad_rule(C c) {
  const ConvArgs p = backward_conv_args(c);
  Tensor g = c.in(0), x = c.in(1), ggw = c.g(0);
  return c.grads([&] { return conv_forward(x, ggw, c.g(1), p); }, [&] { return conv_input_grad(g, ggw, x.sizes(), p); });
}

// ---- max pooling: the gradient goes to each window's argmax, found again in the saved input ----
// e - 1 for pow's gradient. A Python-number exponent stays a float64 wrapped number (as PyTorch's double
// Scalar): e - 1.0 of two wrapped numbers would promote to float32 and round 1/3 to 0.33333334.
Tensor exponent_minus_one(const Tensor& e) {
  if (!e.impl()->is_wrapped_number) return e - 1.0;
  const Scalar v = e.item();
  return wrap_number(v.is_floating() ? Scalar(v.to_double() - 1.0) : Scalar(v.to_int() - 1));
}

Tensors max_pool_rule(C c) {
  return {op(O::max_pool2d_backward, c.g(), c.in(0), c.a.ints(1, 2), c.a.ints(2), c.a.ints(3, 2), c.a.ints(4, 2),
             c.a.boolean(5))};
}

// d/dgrad_output: the incoming gradient read back at the argmaxes; the input only selects (no gradient).
Tensors max_pool_backward_rule(C c) {
  Tensor idx;
  {
    GradModeGuard no_grad(false);
    idx = dispatch(O::max_pool2d_with_indices, Args{c.in(1), c.a.ints(2, 2), c.a.ints(3), c.a.ints(4, 2),
                                                    c.a.ints(5, 2), c.a.boolean(6)})[1];
  }
  return c.grads([&] { return op(O::gather, c.g().flatten(-2), -1, idx.flatten(-2)).reshape(idx.sizes()); }, nullptr);
}

// ---- normalisation: each norm's backward op computes the input, weight and bias gradients together (one fused
// pass where the backend has one), run once, when the first needed one is asked for; under create_graph it is
// recorded through its definition (common/norm_backward.cpp), so higher orders follow ----
struct NormGrads {
  O op;
  Args args;
  Tensors out = {};
  Tensor operator()(size_t i) {
    if (out.empty()) out = dispatch(op, args);
    return out[i];
  }
};
IValue opt_in(C c, size_t i) { return c.has(i) ? IValue(c.in(i)) : IValue(); }

Tensors layer_norm_rule(C c) {
  NormGrads d{O::layer_norm_backward, {c.g(), c.in(0), c.a.ints(1), opt_in(c, 2), c.a.f64(4), c.needs(3)}};
  return c.grads([&] { return d(0); }, nullptr, [&] { return d(1); }, [&] { return d(2); });
}

Tensors batch_norm_rule(C c) {
  NormGrads d{O::batch_norm_backward,
              {c.g(), c.in(0), opt_in(c, 1), opt_in(c, 2), opt_in(c, 3), c.a.boolean(5), c.a.f64(7), c.needs(4)}};
  return c.grads([&] { return d(0); }, nullptr, nullptr, [&] { return d(1); }, [&] { return d(2); });
}

Tensors group_norm_rule(C c) {
  NormGrads d{O::group_norm_backward, {c.g(), c.in(0), c.a.i64(1), opt_in(c, 2), c.a.f64(4), c.needs(3)}};
  return c.grads([&] { return d(0); }, nullptr, [&] { return d(1); }, [&] { return d(2); });
}

using common::all_but_channel;
using common::per_channel;

// ---- losses ----
// The upstream gradient of an elementwise loss over [shape]: as is ('none'), expanded ('sum'), or
// expanded and divided by the element count ('mean').
Tensor loss_grad(C c, size_t red_arg, const Dims& shape) {
  std::string r = c.a.str(red_arg);
  if (r == "none") return c.g();
  Tensor g = c.g().expand(shape);
  return r == "mean" ? g / double(std::max<int64_t>(numel_of(shape), 1)) : g;
}

Dims pair_shape(C c) { return broadcast_shapes(c.sizes(0), c.sizes(1), "loss"); }
Tensor weighted(C c, size_t i, const Tensor& t) { return c.has(i) ? t * c.in(i) : t; }

Tensors bce_rule(C c) {
  Tensor x = c.in(0), t = c.in(1), gr = loss_grad(c, 3, c.sizes(0));
  return c.grads([&] { return weighted(c, 2, gr * (x - t) / clamp(x * rsub(1, x), 1e-12, std::nullopt)); },
                 [&] {
                   Tensor l1 = clamp(log(rsub(1, x)), -100.0, std::nullopt), l0 = clamp(log(x), -100.0, std::nullopt);
                   return weighted(c, 2, gr * (l1 - l0));
                 });
}

Tensors bce_logits_rule(C c) {
  Tensor x = c.in(0), t = c.in(1), gr = loss_grad(c, 3, pair_shape(c));
  Tensor sp_neg = op(O::softplus, neg(x)), sp = op(O::softplus, x);
  const bool pw = c.has(4);
  auto gx = [&] {
    Tensor d = pw ? (c.in(4) * t + rsub(1, t)) * sigmoid(x) - c.in(4) * t : sigmoid(x) - t;
    return weighted(c, 2, gr * d);
  };
  auto gt = [&] { return weighted(c, 2, gr * (pw ? c.in(4) * sp_neg - sp : neg(x))); };
  return c.grads(gx, gt, nullptr, nullptr, [&] { return weighted(c, 2, gr * t * sp_neg); });
}

Tensors smooth_l1_rule(C c) {
  Tensor d = c.in(0) - c.in(1), gr = loss_grad(c, 2, pair_shape(c));
  double beta = c.a.f64(3);
  Tensor s = beta == 0 ? sign(d) : where(lt(abs(d), beta), d / beta, sign(d));
  return c.grads([&] { return gr * s; }, [&] { return neg(gr * s); });
}

// ---- linear algebra ----
Tensors cdist_rule(C c) {
  Tensor x1 = c.in(0), x2 = c.in(1), yk = c.out(0).unsqueeze(-1), gk = c.g().unsqueeze(-1);
  Tensor diff = x1.unsqueeze(-2) - x2.unsqueeze(-3);
  double p = c.a.f64(2);
  Tensor t;
  if (p == 0) t = zeros_like(diff);
  else if (p == 1) t = sign(diff);
  else if (p == 2) t = keep_where(ne(yk, 0), diff / yk);
  else if (std::isinf(p)) t = sign(diff) * eq(abs(diff), yk);
  else t = keep_where(ne(diff, 0) * ne(yk, 0), diff * op(O::pow, abs(diff), num(p - 2)) / op(O::pow, yk, num(p - 1)));
  Tensor gt = gk * t;
  return c.grads([&] { return sum(gt, Dims{-2}); }, [&] { return neg(sum(gt, Dims{-3})); });
}

// maximum/minimum: the gradient goes to the larger (smaller) input, split evenly on ties.
Tensors extremum(C c, bool max) {
  Tensor a = c.in(0), b = c.in(1), g = c.g(), half = g * 0.5;
  auto pick = [&](const Tensor& x, const Tensor& y) { return where(eq(x, y), half, keep_where(max ? gt(x, y) : lt(x, y), g)); };
  return c.grads([&] { return pick(a, b); }, [&] { return pick(b, a); });
}

// gelu''(x), composite (only double backward needs it). Erf form: pdf(x) (2 - x^2). Tanh form, with
// t = tanh(u), u = k (x + a x^3): (1 - t^2) (u' - x t u'^2 + x u'' / 2), u' = k (1 + 3 a x^2), u'' = 6 a k x.
Tensor gelu_second_derivative(const Tensor& x, const std::string& mode) {
  Tensor x2 = x * x;
  if (mode != "tanh") return exp(x2 * -0.5) * (0.5 * M_2_SQRTPI * M_SQRT1_2) * rsub(2, x2);
  const double k = std::sqrt(2.0 / M_PI), a = 0.044715;
  Tensor t = tanh((x + x2 * x * a) * k), du = (x2 * (3 * a) + 1.0) * k;
  return rsub(1, t * t) * (du - x * t * du * du + x2 * (3 * a * k));
}

using Table = std::array<Rule, size_t(op_count)>;

void elementwise_rules(Table& t) {
  t[size_t(O::add)] = {0, [](C c) { return c.grads([&] { return c.g(); }, [&] { return scaled(c.g(), sc(c, 2)); }); }};
  t[size_t(O::sub)] = {0, [](C c) { return c.grads([&] { return c.g(); }, [&] { return scaled(c.g(), -sc(c, 2)); }); }};
  t[size_t(O::mul)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return c.g() * c.in(1); }, [&] { return c.g() * c.in(0); }); }};
  t[size_t(O::div)] = {in_(0) | in_(1), [](C c) {
    if (!c.a.is_none(2)) return c.grads([&] { return zeros_like(c.g()); }, [&] { return zeros_like(c.g()); });
    Tensor b = c.in(1);
    return c.grads([&] { return c.g() / b; }, [&] { return neg(c.g() * c.in(0) / (b * b)); }); }};
  t[size_t(O::pow)] = {in_(0) | in_(1) | out_(0), [](C c) {
    Tensor a = c.in(0), e = c.in(1), g = c.g();
    return c.grads([&] { return where(eq(e, 0), num(0), g * e * pow(a, exponent_minus_one(e))); },
                   [&] { return where(land(eq(a, 0), ge(e, 0)), num(0), g * c.out(0) * log(a)); }); }};
  // d/dy atan2(y, x) = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
  t[size_t(O::atan2)] = {in_(0) | in_(1), [](C c) {
    Tensor y = c.in(0), x = c.in(1), r = y * y + x * x;
    return c.grads([&] { return c.g() * x / r; }, [&] { return neg(c.g() * y / r); }); }};
  t[size_t(O::maximum)] = {in_(0) | in_(1), [](C c) { return extremum(c, true); }};
  t[size_t(O::minimum)] = {in_(0) | in_(1), [](C c) { return extremum(c, false); }};
  t[size_t(O::neg)] = {0, [](C c) { return Tensors{neg(c.g())}; }};
  t[size_t(O::abs)] = {in_(0), [](C c) { return Tensors{c.g() * sign(c.in(0))}; }};
  t[size_t(O::square)] = {in_(0), [](C c) { return Tensors{c.g() * c.in(0) * 2.0}; }};
  t[size_t(O::sqrt)] = {out_(0), [](C c) { return Tensors{c.g() / (c.out(0) * 2.0)}; }};
  t[size_t(O::rsqrt)] = {out_(0), [](C c) { Tensor y = c.out(0); return Tensors{c.g() * y * y * y * -0.5}; }};
  t[size_t(O::exp)] = {out_(0), [](C c) { return Tensors{c.g() * c.out(0)}; }};
  t[size_t(O::log)] = {in_(0), [](C c) { return Tensors{c.g() / c.in(0)}; }};
  t[size_t(O::log2)] = {in_(0), [](C c) { return Tensors{c.g() / (c.in(0) * std::log(2.0))}; }};
  t[size_t(O::log1p)] = {in_(0), [](C c) { return Tensors{c.g() / (c.in(0) + 1.0)}; }};
  t[size_t(O::expm1)] = {out_(0), [](C c) { return Tensors{c.g() * (c.out(0) + 1.0)}; }};
  t[size_t(O::sin)] = {in_(0), [](C c) { return Tensors{c.g() * op(O::cos, c.in(0))}; }};
  t[size_t(O::cos)] = {in_(0), [](C c) { return Tensors{neg(c.g() * op(O::sin, c.in(0)))}; }};
  t[size_t(O::tanh)] = {out_(0), [](C c) { Tensor y = c.out(0); return Tensors{c.g() * rsub(1, y * y)}; }};
  t[size_t(O::sigmoid)] = {out_(0), [](C c) { Tensor y = c.out(0); return Tensors{c.g() * y * rsub(1, y)}; }};
  t[size_t(O::relu)] = {out_(0), [](C c) { return Tensors{op(O::threshold_backward, c.g(), c.out(0), 0.0)}; }};
  // d/dgrad_output: the same mask applied to the incoming gradient; self only selects (no gradient).
  t[size_t(O::threshold_backward)] = {in_(1), [](C c) {
    return Tensors{op(O::threshold_backward, c.g(), c.in(1), c.a.scalar(2))}; }};
  // One fused op (PyTorch's gelu_backward); its own rule below gives the higher orders.
  t[size_t(O::gelu)] = {in_(0), [](C c) { return Tensors{op(O::gelu_backward, c.g(), c.in(0), c.a.str(1))}; }};
  // Linear in grad_output: its gradient is gelu_backward again; self's is grad_output * gelu''(self).
  t[size_t(O::gelu_backward)] = {in_(0) | in_(1), [](C c) {
    const std::string mode = c.a.str(2);
    return c.grads([&] { return op(O::gelu_backward, c.g(), c.in(1), mode); },
                   [&] { return c.g() * c.in(0) * gelu_second_derivative(c.in(1), mode); }); }};
  t[size_t(O::silu)] = {in_(0), [](C c) {
    Tensor x = c.in(0), s = sigmoid(x);
    return Tensors{c.g() * s * (x * rsub(1, s) + 1.0)}; }};
  t[size_t(O::leaky_relu)] = {in_(0), [](C c) {
    return Tensors{where(gt(c.in(0), 0), c.g(), c.g() * sc(c, 1))}; }};
  t[size_t(O::softplus)] = {in_(0), [](C c) {
    Tensor bx = c.in(0) * sc(c, 1);
    return Tensors{where(gt(bx, sc(c, 2)), c.g(), c.g() * sigmoid(bx))}; }};
  t[size_t(O::prelu)] = {in_(0) | in_(1), [](C c) {
    Tensor x = c.in(0), w = c.in(1), g = c.g(), pos = gt(x, 0);
    const bool shared = w.numel() == 1 || x.dim() < 2;
    Tensor wb = shared ? w.reshape({}) : per_channel(w, x.dim());
    return c.grads([&] { return where(pos, g, g * wb); }, [&] {
      Tensor gw = where(pos, num(0), g * x);
      return (shared ? sum(gw) : sum(gw, all_but_channel(x.dim()))).reshape(w.sizes()); }); }};
  t[size_t(O::erf)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() * exp(neg(x * x)) * M_2_SQRTPI}; }};
  t[size_t(O::erfinv)] = {out_(0), [](C c) {
    Tensor y = c.out(0);
    return Tensors{c.g() * exp(y * y) * (std::sqrt(M_PI) / 2)}; }};
  t[size_t(O::erfc)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() * exp(neg(x * x)) * -M_2_SQRTPI}; }};
  t[size_t(O::asinh)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() * rsqrt(x * x + 1.0)}; }};
  t[size_t(O::acosh)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() * rsqrt(x * x - 1.0)}; }};
  t[size_t(O::atanh)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() / rsub(1, x * x)}; }};
  t[size_t(O::lgamma)] = {in_(0), [](C c) { return Tensors{c.g() * op(O::digamma, c.in(0))}; }};
  t[size_t(O::digamma)] = {in_(0), [](C c) { return Tensors{c.g() * op(O::polygamma, int64_t(1), c.in(0))}; }};
  // polygamma(n, x): n is an int (no gradient); d/dx = polygamma(n + 1, x)
  t[size_t(O::polygamma)] = {in_(1), [](C c) {
    return c.grads(nullptr, [&] { return c.g() * op(O::polygamma, c.a.i64(0) + 1, c.in(1)); }); }};
  t[size_t(O::exp2)] = {out_(0), [](C c) { return Tensors{c.g() * c.out(0) * M_LN2}; }};
  t[size_t(O::tan)] = {out_(0), [](C c) { Tensor y = c.out(0); return Tensors{c.g() * (y * y + 1.0)}; }};
  t[size_t(O::sinh)] = {in_(0), [](C c) { return Tensors{c.g() * op(O::cosh, c.in(0))}; }};
  t[size_t(O::cosh)] = {in_(0), [](C c) { return Tensors{c.g() * op(O::sinh, c.in(0))}; }};
  t[size_t(O::asin)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() * rsqrt(rsub(1, x * x))}; }};
  t[size_t(O::acos)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{neg(c.g() * rsqrt(rsub(1, x * x)))}; }};
  t[size_t(O::atan)] = {in_(0), [](C c) { Tensor x = c.in(0); return Tensors{c.g() / (x * x + 1.0)}; }};
  t[size_t(O::log10)] = {in_(0), [](C c) { return Tensors{c.g() / (c.in(0) * std::log(10.0))}; }};
  t[size_t(O::reciprocal)] = {out_(0), [](C c) { Tensor y = c.out(0); return Tensors{neg(c.g() * y * y)}; }};
  t[size_t(O::nan_to_num)] = {in_(0), [](C c) { return Tensors{keep_where(isfinite(c.in(0)), c.g())}; }};
  // Piecewise constant: zero almost everywhere (PyTorch's zeros_like(grad)).
  for (O id : {O::floor, O::ceil, O::round, O::trunc, O::sign})
    t[size_t(id)] = {0, [](C c) { return Tensors{zeros_like(c.g())}; }};
  // a - floor(a / b) * b (PyTorch: other gets -grad * self.div(other, rounding_mode="floor")).
  t[size_t(O::remainder)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return c.g(); }, [&] { return neg(c.g() * div(c.in(0), c.in(1), "floor")); }); }};
  // a - trunc(a / b) * b (PyTorch: other gets -grad * self.div(other, rounding_mode="trunc")).
  t[size_t(O::fmod)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return c.g(); }, [&] { return neg(c.g() * div(c.in(0), c.in(1), "trunc")); }); }};
  t[size_t(O::clamp)] = {in_(0), [](C c) {
    Tensor x = c.in(0), g = c.g();
    if (!c.a.is_none(1)) g = keep_where(ge(x, c.a.scalar(1)), g);
    if (!c.a.is_none(2)) g = keep_where(le(x, c.a.scalar(2)), g);
    return Tensors{g}; }};
  t[size_t(O::where)] = {in_(0), [](C c) {
    Tensor cond = c.in(0);
    return c.grads(nullptr, [&] { return keep_where(cond, c.g()); }, [&] { return where(cond, num(0), c.g()); }); }};
  t[size_t(O::masked_fill)] = {in_(1), [](C c) { return Tensors{where(c.in(1), num(0), c.g())}; }};
  t[size_t(O::addcmul)] = {in_(1) | in_(2), [](C c) {
    double v = sc(c, 3);
    return c.grads([&] { return c.g(); }, [&] { return scaled(c.g() * c.in(2), v); },
                   [&] { return scaled(c.g() * c.in(1), v); }); }};
  t[size_t(O::addcdiv)] = {in_(1) | in_(2), [](C c) {
    double v = sc(c, 3);
    Tensor t2 = c.in(2);
    return c.grads([&] { return c.g(); }, [&] { return scaled(c.g() / t2, v); },
                   [&] { return scaled(neg(c.g() * c.in(1) / (t2 * t2)), v); }); }};
  t[size_t(O::lerp)] = {in_(0) | in_(1) | in_(2), [](C c) {
    Tensor w = c.in(2);
    return c.grads([&] { return c.g() * rsub(1, w); }, [&] { return c.g() * w; },
                   [&] { return c.g() * (c.in(1) - c.in(0)); }); }};
}

// ---- cumprod: d/dx_i of out_j = prod_{m<=j} x_m, never dividing by a zero ----
// Per slice along [d], with z the first zero of x and z2 the second: before z, sum_{j>=i} g_j out_j / x_i (a
// reversed cumulative sum); at z, prod_{m<z} x_m * sum_{z<=j<z2} g_j prod_{z<m<=j} x_m; after z, 0 (every product
// holds x_z). Masks, not a host check for zeros, so no sync; dispatched ops, so higher orders follow.
Tensor reversed_cumsum(const Tensor& t, int64_t d) {
  return op(O::flip, op(O::cumsum, op(O::flip, t, Dims{d}), d), Dims{d});
}

// The same gradient as an n x n product per slice: sum_{j>=i} g_j prod_{m<=j, m!=i} x_m, each product a cumprod of x
// with x_i replaced by 1. No masks on x's values, so its own gradient is exact at zeros too (PyTorch's O(n^2) path
// for double backward); taken only under create_graph.
Tensor cumprod_grad_quadratic(const Tensor& x, const Tensor& g, int64_t d) {
  const Tensor xt = x.transpose(d, -1), gt = g.transpose(d, -1);
  const int64_t n = xt.size(-1);
  Dims square = xt.sizes();
  square.push_back(n);
  const Tensor self = eye(n, n, DType::bool_, x.device());                       // [i, m]: m == i
  const Tensor later = op(O::triu, ones({n, n}, DType::bool_, x.device()), 0);  // [i, j]: j >= i
  const Tensor products = op(O::cumprod, where(self, num(1), xt.unsqueeze(-2).expand(square)), -1);
  return sum(keep_where(later, products * gt.unsqueeze(-2)), Dims{-1}).transpose(d, -1);
}

Tensors cumprod_rule(C c) {
  const int64_t d = c.a.i64(1);
  const Tensor out = c.out(0), g = c.g(), x = c.in(0).to(out.dtype()), one = ones_like(x);
  if (x.dim() == 0) return {g};
  if (in_create_graph()) return {cumprod_grad_quadratic(x, g, d)};
  const Tensor zero = eq(x, 0), zeros_so_far = op(O::cumsum, zero, d);
  const Tensor before = eq(zeros_so_far, 0), first_run = eq(zeros_so_far, 1);  // [0, z) and [z, z2)
  const Tensor grad_before = keep_where(before, reversed_cumsum(out * g, d) / where(before, x, one));
  const Tensor after_z = op(O::cumprod, where(op(O::logical_and, first_run, op(O::logical_not, zero)), x, one), d);
  const Tensor at_z = prod(where(before, x, one), d, true) * sum(keep_where(first_run, g * after_z), Dims{d}, true);
  return {grad_before + keep_where(op(O::logical_and, zero, first_run), at_z)};
}

void reduction_rules(Table& t) {
  t[size_t(O::sum)] = {0, [](C c) { return Tensors{expand_back(c.g(), c.sizes(0), c.a.opt_ints(1))}; }};
  t[size_t(O::mean)] = {0, [](C c) {
    std::optional<Dims> d = c.a.opt_ints(1);
    return Tensors{expand_back(c.g(), c.sizes(0), d) / reduced_count(c.sizes(0), d)}; }};
  t[size_t(O::prod)] = {in_(0) | out_(0), prod_rule};
  t[size_t(O::max)] = {in_(0) | out_(0), [](C c) { return Tensors{even_share(c.g(), c.in(0), c.out(0), std::nullopt)}; }};
  t[size_t(O::min)] = t[size_t(O::max)];
  t[size_t(O::amax)] = {in_(0) | out_(0), [](C c) {
    return Tensors{even_share(c.g(), c.in(0), c.out(0), dims_opt(c.a.ints(1)))}; }};
  t[size_t(O::amin)] = t[size_t(O::amax)];
  t[size_t(O::max_dim)] = {out_(1), [](C c) {
    std::optional<Dims> d = Dims{c.a.i64(1)};
    Tensor idx = unreduce(c.out(1), c.sizes(0), d), g = unreduce(c.g(), c.sizes(0), d);
    return Tensors{op(O::scatter_add, zeros_of(c, 0).to(g.dtype()), c.a.i64(1), idx, g)}; }};
  t[size_t(O::min_dim)] = t[size_t(O::max_dim)];
  // cummax/cummin: each running extreme's gradient goes back to the element it came from (indices, output 1).
  t[size_t(O::cummax)] = {out_(1), [](C c) {
    Tensor g = c.g();
    return Tensors{op(O::scatter_add, zeros_of(c, 0).to(g.dtype()), c.a.i64(1), c.out(1), g)}; }};
  t[size_t(O::cummin)] = t[size_t(O::cummax)];
  // sort/topk: each value's gradient goes back to the input element it came from (indices, output 1).
  t[size_t(O::sort)] = {out_(1), [](C c) { return Tensors{scatter_back(c, c.a.i64(1))}; }};
  t[size_t(O::topk)] = {out_(1), [](C c) { return Tensors{scatter_back(c, c.a.i64(2))}; }};
  t[size_t(O::var)] = {in_(0), [](C c) {
    Tensor x = c.in(0);
    return Tensors{var_grad(c, x, unreduce(c.g(), x.sizes(), c.a.opt_ints(1)))}; }};
  t[size_t(O::std)] = {in_(0) | out_(0), [](C c) {
    Tensor x = c.in(0);
    std::optional<Dims> d = c.a.opt_ints(1);
    Tensor yk = unreduce(c.out(0), x.sizes(), d), gk = unreduce(c.g(), x.sizes(), d);
    return Tensors{var_grad(c, x, keep_where(ne(yk, 0), gk / (yk * 2.0)))}; }};
  t[size_t(O::norm)] = {in_(0) | out_(0), norm_rule};
  t[size_t(O::logsumexp)] = {in_(0) | out_(0), [](C c) {
    Tensor x = c.in(0);
    std::optional<Dims> d = dims_opt(c.a.ints(1));
    return Tensors{unreduce(c.g(), x.sizes(), d) * exp(x - unreduce(c.out(0), x.sizes(), d))}; }};
  t[size_t(O::cumprod)] = {in_(0) | out_(0), cumprod_rule};
  t[size_t(O::cumsum)] = {0, [](C c) {
    Tensor g = c.g();
    int64_t d = c.a.i64(1);
    return Tensors{sum(g, Dims{d}, true) - op(O::cumsum, g, d) + g}; }};
}

// The gradient of scatter/scatter_add's src (slot 3): grad_output gathered where index points, in index's shape;
// zero-padded to src's shape where src is larger than index (its elements past index's extent were not read). A
// 0-dim src (a number) is reduced by the engine.
Tensor scattered_source_grad(C c) {
  Tensor g = op(O::gather, c.g(), c.a.i64(1), c.in(2));
  const Dims& src = c.sizes(3);
  if (src.size() != g.sizes().size() || src == g.sizes()) return g;
  Dims pad;
  for (size_t d = src.size(); d-- > 0;) pad.insert(pad.end(), {0, src[d] - g.size(int64_t(d))});
  return op(O::constant_pad_nd, g, pad);
}

void shape_rules(Table& t) {
  Rule same_shape{0, [](C c) { return Tensors{c.g().reshape(c.sizes(0))}; }};
  for (O id : {O::view, O::reshape, O::flatten, O::squeeze, O::contiguous, O::clone}) t[size_t(id)] = same_shape;
  t[size_t(O::transpose)] = {0, [](C c) { return Tensors{c.g().transpose(c.a.i64(1), c.a.i64(2))}; }};
  t[size_t(O::t)] = {0, [](C c) { return Tensors{c.g().t()}; }};
  t[size_t(O::permute)] = {0, permute_rule};
  t[size_t(O::slice)] = {0, [](C c) {
    return Tensors{op(O::slice_backward, c.g(), c.sizes(0), c.a.i64(1), c.a.opt_i64(2), c.a.opt_i64(3), c.a.i64(4))}; }};
  t[size_t(O::select)] = {0, [](C c) {
    return Tensors{op(O::select_backward, c.g(), c.sizes(0), c.a.i64(1), c.a.i64(2))}; }};
  t[size_t(O::narrow)] = {0, [](C c) {
    int64_t d = wrap_dim(c.a.i64(1), int64_t(c.sizes(0).size())), s = c.a.i64(2);
    if (s < 0) s += c.sizes(0)[size_t(d)];
    return Tensors{op(O::slice_backward, c.g(), c.sizes(0), d, s, s + c.a.i64(3), 1)}; }};
  t[size_t(O::expand)] = {0, [](C c) { return Tensors{sum_to(c.g(), c.sizes(0))}; }};
  t[size_t(O::unsqueeze)] = {0, [](C c) { return Tensors{c.g().squeeze(c.a.i64(1))}; }};
  t[size_t(O::to)] = {0, [](C c) { return Tensors{op(O::to, c.g(), c.meta(0).dtype, c.meta(0).device)}; }};
  t[size_t(O::copy_)] = {0, [](C c) { return c.grads([&] { return zeros_like(c.g()); }, [&] { return c.g(); }); }};
  t[size_t(O::zero_)] = {0, [](C c) { return Tensors{zeros_like(c.g())}; }};
  t[size_t(O::fill_)] = t[size_t(O::zero_)];
  for (O id : {O::normal_, O::uniform_, O::bernoulli_}) t[size_t(id)] = t[size_t(O::zero_)];  // old values overwritten
  t[size_t(O::cat)] = {0, cat_rule};
  t[size_t(O::stack)] = {0, stack_rule};
  t[size_t(O::split)] = {0, unsplit_rule};
  t[size_t(O::split_sizes)] = {0, unsplit_rule};
  t[size_t(O::chunk)] = {0, unsplit_rule};
  t[size_t(O::index_select)] = {in_(2), [](C c) {
    return Tensors{op(O::index_add, zeros_of(c, 0), c.a.i64(1), c.in(2), c.g(), Scalar(1))}; }};
  t[size_t(O::gather)] = {in_(2), [](C c) {
    return Tensors{op(O::scatter_add, zeros_of(c, 0), c.a.i64(1), c.in(2), c.g())}; }};
  t[size_t(O::index_copy)] = {in_(2), [](C c) {
    int64_t d = c.a.i64(1);
    return c.grads([&] { return op(O::index_copy, c.g(), d, c.in(2), zeros_of(c, 3)); }, nullptr, nullptr,
                   [&] { return index_select(c.g(), d, c.in(2)); }); }};
  t[size_t(O::tril)] = {0, [](C c) { return Tensors{op(O::tril, c.g(), c.a.i64(1))}; }};
  t[size_t(O::triu)] = {0, [](C c) { return Tensors{op(O::triu, c.g(), c.a.i64(1))}; }};
  t[size_t(O::embedding)] = {in_(0), [](C c) {
    Tensor idx = c.in(0).reshape({-1}), g = rows(c.g(), c.sizes(1)[1]);
    if (!c.a.is_none(2)) {  // the padding row gets no gradient; negative padding_idx and indices count from the end
      const int64_t n = c.sizes(1)[0], pad = c.a.i64(2) < 0 ? c.a.i64(2) + n : c.a.i64(2);
      Tensor row = where(lt(idx, Scalar(int64_t(0))), add(idx, Tensor::scalar(Scalar(n), DType::int64).to(idx.device())), idx);
      g = where(eq(row, pad).unsqueeze(1), num(0), g);
    }
    return c.grads(nullptr, [&] { return op(O::index_add, zeros_of(c, 1), 0, idx, g, Scalar(1)); }); }};
  t[size_t(O::index_add)] = {in_(2), [](C c) {
    return c.grads([&] { return c.g(); }, nullptr, nullptr, [&] {
      Tensor g = index_select(c.g(), c.a.i64(1), c.in(2));
      return c.a.scalar(4).to_double() == 1.0 ? g : mul(g, wrap_number(c.a.scalar(4))); }); }};
  t[size_t(O::scatter_add)] = {in_(2), [](C c) {
    return c.grads([&] { return c.g(); }, nullptr, nullptr, [&] { return scattered_source_grad(c); }); }};
  t[size_t(O::scatter)] = {in_(2), [](C c) {  // the written positions take src's gradient, not input's
    return c.grads([&] { return op(O::scatter, c.g(), c.a.i64(1), c.in(2), num(0)); }, nullptr, nullptr,
                   [&] { return scattered_source_grad(c); }); }};
  t[size_t(O::diagonal)] = {0, [](C c) {
    return Tensors{op(O::diagonal_backward, c.g(), c.sizes(0), c.a.i64(1), c.a.i64(2), c.a.i64(3))}; }};
  t[size_t(O::unfold)] = {0, [](C c) {
    return Tensors{op(O::unfold_backward, c.g(), c.sizes(0), c.a.i64(1), c.a.i64(2), c.a.i64(3))}; }};
  t[size_t(O::diagonal_backward)] = {0, [](C c) {
    return Tensors{op(O::diagonal, c.g(), c.a.i64(2), c.a.i64(3), c.a.i64(4))}; }};
  t[size_t(O::slice_backward)] = {0, [](C c) {
    return Tensors{c.g().slice(c.a.i64(2), c.a.opt_i64(3), c.a.opt_i64(4), c.a.i64(5))}; }};
  t[size_t(O::select_backward)] = {0, [](C c) { return Tensors{c.g().select(c.a.i64(2), c.a.i64(3))}; }};
}

void nn_rules(Table& t) {
  t[size_t(O::matmul)] = {in_(0) | in_(1), matmul_rule};
  t[size_t(O::mm)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return mm(c.g(), c.in(1).t()); }, [&] { return mm(c.in(0).t(), c.g()); }); }};
  t[size_t(O::bmm)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return bmm(c.g(), mT(c.in(1))); }, [&] { return bmm(mT(c.in(0)), c.g()); }); }};
  t[size_t(O::addmm)] = {in_(1) | in_(2), [](C c) {
    return addprod(c, [&] { return mm(c.g(), c.in(2).t()); }, [&] { return mm(c.in(1).t(), c.g()); }); }};
  t[size_t(O::addbmm)] = {in_(1) | in_(2), [](C c) {
    return addprod(c, [&] { return matmul(c.g(), mT(c.in(2))); }, [&] { return matmul(mT(c.in(1)), c.g()); }); }};
  t[size_t(O::baddbmm)] = {in_(1) | in_(2), [](C c) {
    return addprod(c, [&] { return bmm(c.g(), mT(c.in(2))); }, [&] { return bmm(mT(c.in(1)), c.g()); }); }};
  t[size_t(O::addmv)] = {in_(1) | in_(2), [](C c) {
    return addprod(c, [&] { return op(O::outer, c.g(), c.in(2)); }, [&] { return op(O::mv, c.in(1).t(), c.g()); }); }};
  t[size_t(O::addr)] = {in_(1) | in_(2), [](C c) {
    return addprod(c, [&] { return op(O::mv, c.g(), c.in(2)); }, [&] { return op(O::mv, c.g().t(), c.in(1)); }); }};
  t[size_t(O::dot)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return c.g() * c.in(1); }, [&] { return c.g() * c.in(0); }); }};
  t[size_t(O::mv)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return op(O::outer, c.g(), c.in(1)); }, [&] { return op(O::mv, c.in(0).t(), c.g()); }); }};
  t[size_t(O::outer)] = {in_(0) | in_(1), [](C c) {
    return c.grads([&] { return op(O::mv, c.g(), c.in(1)); }, [&] { return op(O::mv, c.g().t(), c.in(0)); }); }};
  // The implicit composites are recorded op by op through their definitions.
  for (const common::ImplicitComposite& c : common::implicit_composites()) t[size_t(c.op)] = {0, nullptr, c.math};
  t[size_t(O::linear)] = {in_(0) | in_(1), linear_rule};
  for (O id : {O::conv1d, O::conv2d, O::conv3d})
    t[size_t(id)] = {in_(0) | in_(1), [](C c) { return conv_rule(c, false); }};
  for (O id : {O::conv_transpose1d, O::conv_transpose2d, O::conv_transpose3d})
    t[size_t(id)] = {in_(0) | in_(1), [](C c) { return conv_rule(c, true); }};
  t[size_t(O::convolution_backward_input)] = {in_(0) | in_(1), conv_input_grad_rule};
  t[size_t(O::convolution_backward_weight)] = {in_(0) | in_(1), conv_weight_grad_rule};
  t[size_t(O::max_pool2d)] = {in_(0), max_pool_rule};
  t[size_t(O::max_pool2d_with_indices)] = {in_(0), max_pool_rule};
  t[size_t(O::max_pool2d_backward)] = {in_(1), max_pool_backward_rule};
  add_grid_sampler_rules(t);  // grid_sampler_2d, grid_sampler_3d
  add_scatter_extra_rules(t);  // scatter_reduce, as_strided
  add_elementwise_extra_rules(t);  // i0, special_i1, igamma, igammac
  t[size_t(O::avg_pool2d)] = {0, [](C c) {
    return Tensors{op(O::avg_pool2d_backward, c.g(), c.sizes(0), c.a.ints(1, 2), c.a.ints(2), c.a.ints(3, 2),
                      c.a.boolean(4), c.a.boolean(5), c.a.opt_i64(6))}; }};
  t[size_t(O::avg_pool2d_backward)] = {0, [](C c) {
    return Tensors{op(O::avg_pool2d, c.g(), c.a.ints(2, 2), c.a.ints(3), c.a.ints(4, 2), c.a.boolean(5),
                      c.a.boolean(6), c.a.opt_i64(7))}; }};
  t[size_t(O::adaptive_avg_pool2d)] = {0, [](C c) {
    return Tensors{op(O::adaptive_avg_pool2d_backward, c.g(), c.sizes(0))}; }};
  t[size_t(O::adaptive_avg_pool2d_backward)] = {0, [](C c) {
    const Dims& out = c.meta(0).sizes;
    return Tensors{op(O::adaptive_avg_pool2d, c.g(), Dims{out[out.size() - 2], out.back()})}; }};
  t[size_t(O::layer_norm)] = {in_(0) | in_(2), layer_norm_rule};
  t[size_t(O::layer_norm_backward)] = {0, nullptr, common::layer_norm_backward_math};
  t[size_t(O::batch_norm)] = {in_(0) | in_(1) | in_(2) | in_(3), batch_norm_rule};
  t[size_t(O::batch_norm_backward)] = {0, nullptr, common::batch_norm_backward_math};
  t[size_t(O::group_norm)] = {in_(0) | in_(2), group_norm_rule};
  t[size_t(O::group_norm_backward)] = {0, nullptr, common::group_norm_backward_math};
  t[size_t(O::dropout)] = {0, nullptr, decompose_dropout};
  t[size_t(O::native_dropout)] = {out_(1), [](C c) {
    double p = c.a.f64(1), scale = !c.a.boolean(2) ? 1.0 : p >= 1 ? 0.0 : 1.0 / (1.0 - p);
    return Tensors{c.g() * c.out(1) * scale}; }};
}

void loss_rules(Table& t) {
  t[size_t(O::cross_entropy)] = {0, nullptr, decompose_cross_entropy};
  add_softmax_rules(t);  // softmax, log_softmax, nll_loss and their gradient ops
  t[size_t(O::mse_loss)] = {in_(0) | in_(1), [](C c) {
    Tensor d = (c.in(0) - c.in(1)) * loss_grad(c, 2, pair_shape(c)) * 2.0;
    return c.grads([&] { return d; }, [&] { return neg(d); }); }};
  t[size_t(O::l1_loss)] = {in_(0) | in_(1), [](C c) {
    Tensor d = sign(c.in(0) - c.in(1)) * loss_grad(c, 2, pair_shape(c));
    return c.grads([&] { return d; }, [&] { return neg(d); }); }};
  t[size_t(O::smooth_l1_loss)] = {in_(0) | in_(1), smooth_l1_rule};
  t[size_t(O::binary_cross_entropy)] = {in_(0) | in_(1) | in_(2), bce_rule};
  t[size_t(O::binary_cross_entropy_with_logits)] = {in_(0) | in_(1) | in_(2) | in_(4), bce_logits_rule};
  t[size_t(O::cosine_embedding_loss)] = {0, nullptr, decompose_cosine_embedding_loss};
  t[size_t(O::cosine_similarity)] = {0, nullptr, decompose_cosine_similarity};
}

void linalg_rules(Table& t) {
  t[size_t(O::cdist)] = {in_(0) | in_(1) | out_(0), cdist_rule};
  t[size_t(O::trace)] = {0, [](C c) {
    const TensorMeta& m = c.meta(0);
    return Tensors{c.g() * eye(m.sizes[0], m.sizes[1], m.dtype, m.device)}; }};
  add_factorization_rules(t);  // cholesky, inverse, qr, svd
  add_linalg_solve_rules(t);  // det, slogdet, solve, solve_triangular, eigh
}

const Table& table() {
  static const Table t = [] {
    Table r{};
    elementwise_rules(r);
    reduction_rules(r);
    shape_rules(r);
    nn_rules(r);
    loss_rules(r);
    linalg_rules(r);
    return r;
  }();
  return t;
}

}  // namespace

const Rule* rule_for(OpId op) {
  // Resolved once per op (the autograd layer asks on every dispatch): in-place ops use their
  // out-of-place op's rule, found by name.
  static const std::array<const Rule*, size_t(op_count)> rules = [] {
    std::array<const Rule*, size_t(op_count)> t{};
    for (int i = 0; i < op_count; ++i) {
      OpId op = OpId(i);
      if (!op_has(op, opflag::diff)) continue;
      if (std::optional<OpId> base = common::inplace_base(op)) op = *base;
      const Rule& r = table()[size_t(op)];
      t[size_t(i)] = r.backward || r.decompose ? &r : nullptr;
    }
    return t;
  }();
  return rules[size_t(op)];
}

}  // namespace amps::rt::autograd
