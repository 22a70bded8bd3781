// Composite kernels (see composite_kernels.hpp): each a short sequence of backend-level op calls.
#include "runtime/backend/common/composite_kernels.hpp"

#include <cmath>

#include "runtime/backend/common/derived_inplace.hpp"
#include "runtime/backend/common/implicit_composites.hpp"
#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/common/unique_kernel.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {
namespace {

// One op on the backend that owns its tensors (no autograd, no autocast); its first result.
Tensor call(OpId op, Args args) {
  complete_args(op, args);
  return dispatch_backend(op, args)[0];
}

IValue num(double v) { return IValue(wrap_number(Scalar(v))); }
IValue dims_or_none(const std::optional<Dims>& d) { return d ? IValue(*d) : IValue(); }

Tensor as_dtype(const Tensor& t, DType dt) { return t.dtype() == dt ? t : call(OpId::to, {t, dt}); }

// zeros of [sizes] like [g] with [g] written into the view [region_of](zeros).
template <typename Region> Tensor scatter_into_zeros(const Tensor& g, const Dims& sizes, Region&& region_of) {
  Tensor out = Tensor::empty(sizes, g.dtype(), g.device());
  call(OpId::fill_, {out, Scalar(0.0)});
  call(OpId::copy_, {region_of(out), g});
  return out;
}

Tensors k_slice_backward(const ArgReader& a, const KernelContext&) {
  const Tensor g = a.tensor(0);
  const int64_t dim = a.i64(2), step = a.i64(5);
  const IValue start = a.at(3), end = a.at(4);
  return {scatter_into_zeros(g, a.ints(1), [&](const Tensor& z) { return call(OpId::slice, {z, dim, start, end, step}); })};
}

Tensors k_select_backward(const ArgReader& a, const KernelContext&) {
  const Tensor g = a.tensor(0);
  const int64_t dim = a.i64(2), index = a.i64(3);
  return {scatter_into_zeros(g, a.ints(1), [&](const Tensor& z) { return call(OpId::select, {z, dim, index}); })};
}

Tensors k_diagonal_backward(const ArgReader& a, const KernelContext&) {
  const Tensor g = a.tensor(0);
  const int64_t offset = a.i64(2), dim1 = a.i64(3), dim2 = a.i64(4);
  return {scatter_into_zeros(g, a.ints(1), [&](const Tensor& z) { return call(OpId::diagonal, {z, offset, dim1, dim2}); })};
}

// norm(input, p=2, dim=None, keepdim=False, dtype=None): PyTorch's vector norm; p may be inf, -inf or 0.
Tensors k_norm(const ArgReader& a, const KernelContext&) {
  Tensor x = a.tensor(0);
  if (std::optional<DType> dt = a.opt_dtype(4)) x = as_dtype(x, *dt);
  AMPS_CHECK(is_floating(x.dtype()), "linalg.vector_norm: Expected a floating point or complex tensor as input. "
             "Got {}", dtype_name(x.dtype()));
  const double ord = a.opt_scalar(1).value_or(Scalar(2.0)).to_double();
  std::optional<Dims> dims = a.opt_ints(2);
  if (dims && dims->empty()) dims.reset();  // dim=[] reduces every dim, as dim=None
  const bool keep = a.boolean(3);
  const DType out = x.dtype();
  const Tensor v = call(OpId::abs, {as_dtype(x, compute_dtype(out))});
  Dims all_dims;
  for (int64_t d = 0; d < x.dim(); ++d) all_dims.push_back(d);
  Tensor r;
  if (std::isinf(ord)) r = call(ord > 0 ? OpId::amax : OpId::amin, {v, dims.value_or(all_dims), keep});
  else if (ord == 0) r = call(OpId::sum, {call(OpId::to, {call(OpId::ne, {v, num(0)}), v.dtype()}), dims_or_none(dims), keep});
  else if (ord == 1) r = call(OpId::sum, {v, dims_or_none(dims), keep});
  else if (ord == 2) r = call(OpId::sqrt, {call(OpId::sum, {call(OpId::mul, {v, v}), dims_or_none(dims), keep})});
  else r = call(OpId::pow, {call(OpId::sum, {call(OpId::pow, {v, num(ord)}), dims_or_none(dims), keep}), num(1.0 / ord)});
  return {as_dtype(r, out)};
}

// logsumexp(input, dim, keepdim): max + log(sum(exp(x - max))), an infinite max taken as is (PyTorch's form).
Tensors k_logsumexp(const ArgReader& a, const KernelContext&) {
  Tensor x = a.tensor(0);
  if (!is_floating(x.dtype())) x = as_dtype(x, default_dtype());
  const Dims dims = a.ints(1);
  const bool keep = a.boolean(2);
  const DType out = x.dtype();
  x = as_dtype(x, compute_dtype(out));
  Tensor m = call(OpId::amax, {x, dims, true});
  m = call(OpId::where, {call(OpId::isinf, {m}), num(0), m});
  Tensor s = call(OpId::sum, {call(OpId::exp, {call(OpId::sub, {x, m})}), dims, true});
  Tensor r = call(OpId::add, {call(OpId::log, {s}), m});
  if (!keep) r = call(OpId::squeeze, {r, dims.empty() ? IValue() : IValue(dims)});
  return {as_dtype(r, out)};
}

// all/any(input, dim=None, keepdim=False): counts the zero (all) or nonzero (any) elements; NaN is nonzero.
Tensors bool_reduce(const ArgReader& a, bool want_all) {
  const Tensor x = a.tensor(0);
  const std::optional<int64_t> d = a.opt_i64(1);
  const Tensor hits = call(want_all ? OpId::eq : OpId::ne, {x, num(0)});
  const Tensor count = call(OpId::sum, {call(OpId::to, {hits, DType::int64}), d ? IValue(Dims{*d}) : IValue(),
                                        a.boolean(2)});
  const Tensor result = call(want_all ? OpId::eq : OpId::ne, {count, IValue(wrap_number(Scalar(int64_t(0))))});
  return {x.dtype() == DType::uint8 ? call(OpId::to, {result, DType::uint8}) : result};  // uint8 stays uint8 (1.13)
}
Tensors k_all(const ArgReader& a, const KernelContext&) { return bool_reduce(a, true); }
Tensors k_any(const ArgReader& a, const KernelContext&) { return bool_reduce(a, false); }

// A loss's reduction of the elementwise losses [l].
Tensor reduce_loss(const Tensor& l, const std::string& reduction) {
  switch (parse_reduction(reduction)) {
    case Reduction::none: return l;
    case Reduction::sum: return call(OpId::sum, {l});
    default: return call(OpId::mean, {l});
  }
}

// input - target, broadcast with the CPU's check and message, in the promoted dtype.
Tensor difference(const ArgReader& a) {
  const Tensor x = a.tensor(0), y = a.tensor(1);
  cpu::broadcast_pair(x, y, op_name(a.op()));
  return call(OpId::sub, {x, y});
}

Tensors k_mse_loss(const ArgReader& a, const KernelContext&) {
  const Tensor d = difference(a);
  return {reduce_loss(call(OpId::mul, {d, d}), a.str(2))};
}

Tensors k_l1_loss(const ArgReader& a, const KernelContext&) {
  return {reduce_loss(call(OpId::abs, {difference(a)}), a.str(2))};
}

// 0.5 d^2 / beta where d = |input - target| < beta, else d - 0.5 beta (beta 0: the l1 loss).
Tensors k_smooth_l1_loss(const ArgReader& a, const KernelContext&) {
  const double beta = a.f64(3);
  AMPS_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  const Tensor d = call(OpId::abs, {difference(a)});
  if (beta == 0) return {reduce_loss(d, a.str(2))};
  const Tensor quad = call(OpId::mul, {call(OpId::mul, {d, d}), num(0.5 / beta)});
  const Tensor lin = call(OpId::sub, {d, num(0.5 * beta)});
  return {reduce_loss(call(OpId::where, {call(OpId::lt, {d, num(beta)}), quad, lin}), a.str(2))};
}

Tensor weighted(const Tensor& l, const Tensor& w) { return w.defined() ? call(OpId::mul, {l, w}) : l; }

// -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100)). Inputs outside [0, 1] give NaN here: the CPU's range
// check would read every element on the host.
Tensors k_bce(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0), y = a.tensor(1);
  AMPS_CHECK(x.sizes() == y.sizes(), "Using a target size ({}) that is different to the input size ({}) is "
             "deprecated. Please ensure they have the same size.", format_shape(y.sizes()), format_shape(x.sizes()));
  const Tensor log_x = call(OpId::clamp, {call(OpId::log, {x}), Scalar(-100.0)});
  const Tensor log_1mx = call(OpId::clamp, {call(OpId::log1p, {call(OpId::neg, {x})}), Scalar(-100.0)});
  const Tensor one_my = call(OpId::sub, {num(1), y});
  const Tensor pos = call(OpId::add, {call(OpId::mul, {y, log_x}), call(OpId::mul, {one_my, log_1mx})});
  return {reduce_loss(weighted(call(OpId::neg, {pos}), a.opt_tensor(2)), a.str(3))};
}

// w ((1 - y) x + (1 + (pw - 1) y) (log1p(exp(-|x|)) + max(-x, 0))), PyTorch's stable form.
Tensors k_bce_logits(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0), y = a.tensor(1), pw = a.opt_tensor(4);
  AMPS_CHECK(x.sizes() == y.sizes(), "Target size ({}) must be the same as input size ({})", format_shape(y.sizes()),
             format_shape(x.sizes()));
  const Tensor soft = call(OpId::add, {call(OpId::log1p, {call(OpId::exp, {call(OpId::neg, {call(OpId::abs, {x})})})}),
                                       call(OpId::clamp, {call(OpId::neg, {x}), Scalar(0.0)})});
  const Tensor lw = pw.defined() ? call(OpId::add, {call(OpId::mul, {call(OpId::sub, {pw, num(1)}), y}), num(1)}) : Tensor();
  const Tensor l = call(OpId::add, {call(OpId::mul, {call(OpId::sub, {num(1), y}), x}), weighted(soft, lw)});
  return {reduce_loss(weighted(l, a.opt_tensor(2)), a.str(3))};
}

// prelu(input, weight): input where it is > 0, else input * weight (one slope, or one per channel along dim 1).
Tensors k_prelu(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0), w = a.tensor(1);
  const int64_t channels = x.dim() >= 2 ? x.size(1) : 1;
  AMPS_CHECK(w.numel() == 1 || w.numel() == channels, "Mismatch of parameter numbers and input channel size. Found "
             "parameter numbers = {} and channel size = {}.", w.numel(), channels);
  Dims per_channel(size_t(std::max<int64_t>(x.dim() - 1, 0)), 1);
  if (!per_channel.empty()) per_channel[0] = w.numel();
  const Tensor slope = call(OpId::reshape, {w, w.numel() == 1 ? Dims{} : per_channel});
  return {call(OpId::where, {call(OpId::gt, {x, num(0)}), x, call(OpId::mul, {x, slope})})};
}

// sqrt(sum(t * t, dim)), keeping dim.
Tensor norm_along(const Tensor& t, int64_t dim) {
  return call(OpId::sqrt, {call(OpId::sum, {call(OpId::mul, {t, t}), Dims{dim}, true})});
}

// cosine_similarity(x1, x2, dim, eps): x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along dim, broadcast first.
Tensors k_cosine_similarity(const ArgReader& a, const KernelContext&) {
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const Dims shape = cpu::broadcast_pair(x1, x2, "cosine_similarity");
  const int64_t dim = wrap_dim(a.i64(2), int64_t(shape.size()));
  const DType out = promote(x1.dtype(), x2.dtype()), acc = compute_dtype(out);
  const Tensor p = as_dtype(native::expand(x1, shape), acc), q = as_dtype(native::expand(x2, shape), acc);
  const Tensor dot = call(OpId::sum, {call(OpId::mul, {p, q}), Dims{dim}, true});
  const Tensor denom = call(OpId::mul, {call(OpId::clamp, {norm_along(p, dim), Scalar(a.f64(3))}),
                                        call(OpId::clamp, {norm_along(q, dim), Scalar(a.f64(3))})});
  return {as_dtype(call(OpId::squeeze, {call(OpId::div, {dot, denom}), Dims{dim}}), out)};
}

// cosine_embedding_loss(x1, x2, y, margin, reduction): 1 - cos where y > 0, else max(0, cos - margin), per row;
// cos = x1 . x2 / sqrt((|x1|^2 + 1e-12)(|x2|^2 + 1e-12)) (PyTorch's EPSILON).
Tensors k_cosine_embedding_loss(const ArgReader& a, const KernelContext&) {
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1), y = a.tensor(2);
  AMPS_CHECK(x1.sizes() == x2.sizes() && x1.dim() >= 1 && x1.dim() <= 2, "cosine_embedding_loss: expected input1 "
             "and input2 of equal 1-D or 2-D shape, got {} and {}", format_shape(x1.sizes()), format_shape(x2.sizes()));
  const int64_t rows = x1.dim() == 1 ? 1 : x1.size(0), d = x1.dim() - 1;
  AMPS_CHECK(y.numel() == rows, "cosine_embedding_loss: target must have {} elements, got {}", rows, y.numel());
  const Tensor p = as_dtype(x1, compute_dtype(x1.dtype())), q = as_dtype(x2, compute_dtype(x1.dtype()));
  auto sum_d = [&](const Tensor& t) { return call(OpId::sum, {t, Dims{d}}); };
  const Tensor aa = call(OpId::add, {sum_d(call(OpId::mul, {p, p})), num(1e-12)});
  const Tensor bb = call(OpId::add, {sum_d(call(OpId::mul, {q, q})), num(1e-12)});
  const Tensor cos = call(OpId::div, {sum_d(call(OpId::mul, {p, q})), call(OpId::sqrt, {call(OpId::mul, {aa, bb})})});
  const Tensor pos = call(OpId::sub, {num(1), cos});
  const Tensor neg = call(OpId::clamp, {call(OpId::sub, {cos, num(a.f64(3))}), Scalar(0.0)});
  const Tensor target = call(OpId::reshape, {y, cos.sizes()});
  const Tensor l = call(OpId::where, {call(OpId::gt, {target, num(0)}), pos, neg});
  return {as_dtype(reduce_loss(l, a.str(4)), x1.dtype())};
}

// group_norm(input, num_groups, weight, bias, eps): each group of channels of each sample normalised by its mean
// and biased variance, then the per-channel affine.
Tensors k_group_norm(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0), w = a.opt_tensor(2), b = a.opt_tensor(3);
  const int64_t G = a.i64(1);
  AMPS_CHECK(x.dim() >= 2, "group_norm: expected at least 2D input, got {}D", x.dim());
  const int64_t N = x.size(0), C = x.size(1);
  AMPS_CHECK(G > 0 && C % G == 0, "Expected number of channels in input to be divisible by num_groups, but got "
             "input of shape {} and num_groups={}", format_shape(x.sizes()), G);
  for (const auto& [p, name] : {std::pair{&w, "weight"}, std::pair{&b, "bias"}})
    AMPS_CHECK(!p->defined() || p->numel() == C, "group_norm: {} should contain {} elements not {}", name, C,
               p->numel());
  const Tensor g = call(OpId::reshape, {as_dtype(x, compute_dtype(x.dtype())), Dims{N, G, -1}});
  const Tensor mean = call(OpId::mean, {g, Dims{2}, true});
  const Tensor var = call(OpId::var, {g, Dims{2}, Scalar(int64_t(0)), true});
  const Tensor inv = call(OpId::rsqrt, {call(OpId::add, {var, num(a.f64(4))})});
  Tensor y = call(OpId::reshape, {call(OpId::mul, {call(OpId::sub, {g, mean}), inv}), x.sizes()});
  Dims per_channel(size_t(x.dim() - 1), 1);
  per_channel[0] = C;
  if (w.defined()) y = call(OpId::mul, {y, call(OpId::reshape, {w, per_channel})});
  if (b.defined()) y = call(OpId::add, {y, call(OpId::reshape, {b, per_channel})});
  return {as_dtype(y, x.dtype())};
}

// trace(input): the sum of a matrix's main diagonal (a strided view of it), int64 for integer inputs.
Tensors k_trace(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0);
  AMPS_CHECK(x.dim() == 2, "trace: expected a matrix, but got tensor with dim {}", x.dim());
  const Tensor diag = native::as_strided(x, {std::min(x.size(0), x.size(1))}, {x.stride(0) + x.stride(1)},
                                         x.storage_offset());
  return {call(OpId::sum, {diag})};
}

// index_copy(input, dim, index, source): where index points, source's slices; elsewhere input. Written with index_add
// (no index value is read on the host): a slice is replaced where the count of copies into it is nonzero, so an index
// out of range is skipped and a repeated index sums its sources (PyTorch leaves which one wins unspecified).
Tensor index_copied(const ArgReader& a) {
  const Tensor& x = a.tensor(0);
  const Tensor index = a.tensor(2), source = a.tensor(3);
  const int64_t dim = check_index_copy(x, a.i64(1), index, source);
  const DType acc = compute_dtype(x.dtype());
  auto zeros_like_x = [&] {
    Tensor z = Tensor::empty(x.sizes(), acc, x.device());
    call(OpId::fill_, {z, Scalar(0.0)});
    return z;
  };
  Tensor ones = Tensor::empty(source.sizes(), acc, x.device());
  call(OpId::fill_, {ones, Scalar(1.0)});
  const Tensor hit = call(OpId::gt, {call(OpId::index_add, {zeros_like_x(), dim, index, ones, Scalar(1)}), num(0)});
  const Tensor sums = call(OpId::index_add, {zeros_like_x(), dim, index, as_dtype(source, acc), Scalar(1)});
  return call(OpId::where, {hit, as_dtype(sums, x.dtype()), x});
}
Tensors k_index_copy(const ArgReader& a, const KernelContext&) { return {index_copied(a)}; }
Tensors k_index_copy_(const ArgReader& a, const KernelContext&) {
  const Tensor out = index_copied(a);
  return {call(OpId::copy_, {a.tensor(0), out})};
}

// index_add_(input, dim, index, source, alpha): index_add's result written back into input.
Tensors k_index_add_(const ArgReader& a, const KernelContext&) {
  Args args(a.args().begin(), a.args().end());
  const Tensor out = dispatch(OpId::index_add, args)[0];
  return {call(OpId::copy_, {a.tensor(0), out})};
}

// cdist(x1 [*, P, M], x2 [*, R, M], p): the p-norm of every row difference, [*, P, R], batch dims broadcast; in
// float (double for float64) through a [*, P, R, M] difference tensor, as the CPU's linalg dtype.
Tensors k_cdist(const ArgReader& a, const KernelContext&) {
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double p = a.f64(2);
  check_cdist(x1, x2, p);
  const DType out = promote(x1.dtype(), x2.dtype()), acc = out == DType::float64 ? out : DType::float32;
  const Tensor diff = call(OpId::sub, {call(OpId::unsqueeze, {as_dtype(x1, acc), int64_t(-2)}),
                                       call(OpId::unsqueeze, {as_dtype(x2, acc), int64_t(-3)})});
  return {as_dtype(call(OpId::norm, {diff, Scalar(p), Dims{-1}}), out)};
}

// isclose(input, other, rtol, atol, equal_nan): PyTorch's definition. Equal values (infinities included) are close;
// NaNs only with equal_nan; otherwise |input - other| <= atol + rtol * |other| where that error is finite.
Tensors k_isclose(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0), y = a.tensor(1);
  const double rtol = a.f64(2), atol = a.f64(3);
  AMPS_CHECK(x.dtype() == y.dtype(), "isclose(): expected both tensors to have same dtype, got {} and {}",
             dtype_name(x.dtype()), dtype_name(y.dtype()));
  AMPS_CHECK_VALUE(rtol >= 0, "rtol must be greater than or equal to zero, but got {}", rtol);
  AMPS_CHECK_VALUE(atol >= 0, "atol must be greater than or equal to zero, but got {}", atol);
  Tensor close = call(OpId::eq, {x, y});
  if (!is_floating(x.dtype())) return {close};
  if (a.boolean(4))
    close = call(OpId::logical_or, {close, call(OpId::logical_and, {call(OpId::isnan, {x}), call(OpId::isnan, {y})})});
  const Tensor err = call(OpId::abs, {call(OpId::sub, {x, y})});
  const Tensor allowed = call(OpId::add, {call(OpId::abs, {call(OpId::mul, {y, num(rtol)})}), num(atol)});
  const Tensor within = call(OpId::logical_and, {call(OpId::isfinite, {err}), call(OpId::le, {err, allowed})});
  return {call(OpId::logical_or, {close, within})};
}

// nonzero(input), argwhere(input): the coordinates of input's nonzero elements (NaN counts) in row-major order, an
// int64 [n, input.dim()] tensor on input's device. The values are read on the host: a sync on a device, as PyTorch's.
Tensors k_nonzero(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  if (x.device() != Device::cpu()) current_context().count_host_sync();
  const std::vector<double> v = x.to_doubles();
  const Dims st = contiguous_strides(x.sizes());
  std::vector<double> coords;
  int64_t n = 0;
  for (size_t p = 0; p < v.size(); ++p) {
    if (v[p] == 0) continue;
    ++n;
    for (int64_t d = 0; d < x.dim(); ++d) coords.push_back(double((int64_t(p) / st[size_t(d)]) % x.size(d)));
  }
  const Tensor host = Tensor::from_doubles(coords, {n, x.dim()}, DType::int64);
  return {kc.device == Device::cpu() ? host : call(OpId::to, {host, IValue(), kc.device})};
}

}  // namespace

void register_portable_kernels(cpu::KernelTable& t) {
  t.add(OpId::isclose, k_isclose);
  t.add(OpId::diagonal_backward, k_diagonal_backward);
  t.add(OpId::nonzero, k_nonzero);
  t.add(OpId::argwhere, k_nonzero);
  t.add(OpId::index_add_, k_index_add_, cpu::kNumericDTypes);
  register_unique_kernel(t);
  register_implicit_composites(t);
  register_derived_inplace_kernels(t);  // sin_, eq_, atan2_, ...: the op, then a copy into input
}

void register_composite_kernels(cpu::KernelTable& t) {
  t.add(OpId::slice_backward, k_slice_backward, cpu::kFloatDTypes);
  t.add(OpId::select_backward, k_select_backward, cpu::kFloatDTypes);
  t.add(OpId::norm, k_norm);
  t.add(OpId::logsumexp, k_logsumexp);
  t.add(OpId::all, k_all);
  t.add(OpId::any, k_any);
  t.add(OpId::mse_loss, k_mse_loss, cpu::kFloatDTypes);
  t.add(OpId::l1_loss, k_l1_loss, cpu::kFloatDTypes);
  t.add(OpId::smooth_l1_loss, k_smooth_l1_loss, cpu::kFloatDTypes);
  t.add(OpId::binary_cross_entropy, k_bce, cpu::kFloatDTypes);
  t.add(OpId::binary_cross_entropy_with_logits, k_bce_logits, cpu::kFloatDTypes);
  t.add(OpId::prelu, k_prelu, cpu::kFloatDTypes);
  t.add(OpId::cosine_similarity, k_cosine_similarity, cpu::kFloatDTypes);
  t.add(OpId::cosine_embedding_loss, k_cosine_embedding_loss, cpu::kFloatDTypes);
  t.add(OpId::group_norm, k_group_norm, cpu::kFloatDTypes);
  t.add(OpId::trace, k_trace);
  t.add(OpId::index_copy, k_index_copy, cpu::kFloatDTypes);
  t.add(OpId::index_copy_, k_index_copy_, cpu::kFloatDTypes);
  t.add(OpId::cdist, k_cdist, cpu::kFloatDTypes);
}

}  // namespace amps::rt::common
