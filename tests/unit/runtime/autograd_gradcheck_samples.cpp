// The gradcheck samples: each differentiable op called on float64 arguments shaped to exercise broadcasting, batching
// and the op's options; arguments chosen away from kinks and singular points.
#include "autograd_gradcheck_samples.hpp"

#include <cmath>
#include <limits>

#include "runtime/functions.hpp"

namespace amps::rt::gradcheck {
namespace {

using O = OpId;
using test::Rand;

Tensor spd_input(Rand& r) { return r.uniform({3, 3}); }
Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }

// [..., m, n] matrices with well-separated singular values (near k + 0.5, ..., 1.5 for k = min(m, n)): a scaled
// diagonal plus noise, so the QR and SVD derivatives (R^{-1}, 1 / (s_j^2 - s_k^2)) are well conditioned.
Tensor distinct_sv(Rand& r, const Dims& shape) {
  const int64_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
  std::vector<double> d(size_t(n), 0.0);
  for (int64_t j = 0; j < k; ++j) d[size_t(j)] = double(k - j) + 0.5;
  return eye(m, n, DType::float64) * Tensor::from_doubles(d, {n}, DType::float64) + r.uniform(shape, -0.3, 0.3);
}

// Functions of torch.svd's (U, S, V) that a joint sign flip of (u_k, v_k) leaves unchanged (the loss may not
// depend on the sign convention of the kernel); together they need gU, gS and gV. Only the first k = min(m, n)
// columns of U and V are determined (some=False gives more).
Tensors svd_invariants(Args& a) {
  Tensors usv = dispatch(O::svd, a);
  const Tensor& S = usv[1];
  Tensor U = usv[0].narrow(-1, 0, S.size(-1)), V = usv[2].narrow(-1, 0, S.size(-1));
  return {matmul(U * (S * S).unsqueeze(-2), mT(V)), matmul(U * S.unsqueeze(-2), mT(U)),
          matmul(V * exp(S).unsqueeze(-2), mT(V)), S};
}
// The projector on the column space of a tall input (U U^T: only gU flows) or on the row space of a wide one
// (V V^T: only gV flows).
Tensors svd_projector(Args& a) {
  Tensors usv = dispatch(O::svd, a);
  const Tensor& W = a[0].tensor().size(-2) > a[0].tensor().size(-1) ? usv[0] : usv[2];
  return {matmul(W, mT(W))};
}

// [..., n, n] matrices with 4 added on the diagonal: diagonally dominant, so invertible with a positive determinant.
Tensor dominant(Rand& r, const Dims& shape) { return r.uniform(shape) + eye(shape.back(), std::nullopt, DType::float64) * 4.0; }
Tensor symmetric(const Tensor& a) { return (a + mT(a)) * 0.5; }

// [..., m, n] with a clear partial-pivoting order that swaps rows: 4 on the diagonal plus noise, the rows reversed
// (so finite differences never change the pivots).
Tensor pivoted(Rand& r, const Dims& shape) {
  const int64_t m = shape[shape.size() - 2], n = shape.back();
  std::vector<double> rev(size_t(m * m), 0.0);
  for (int64_t i = 0; i < m; ++i) rev[size_t(i * m + m - 1 - i)] = 1;
  return matmul(Tensor::from_doubles(rev, {m, m}, DType::float64), eye(m, n, DType::float64) * 4.0 + r.uniform(shape));
}
// getrf-style 1-based int32 pivots.
Tensor pivots(const std::vector<double>& p, const Dims& shape) {
  return Tensor::from_doubles(p, shape, DType::float64).to(DType::int32);
}

// Functions of linalg.eigh's (L, V) of the symmetrized input that no eigenvector sign convention changes.
Tensors eigh_invariants(Args& a) {
  Tensors lv = dispatch(O::linalg_eigh, Args{symmetric(a[0].tensor()), a[1]});
  return {lv[0], matmul(lv[1] * exp(lv[0]).unsqueeze(-2), mT(lv[1])), lv[1] * lv[1]};
}

}  // namespace

std::vector<Sample> samples() {
  const IValue none;
  auto T = [](Rand& r, Dims s) { return r.uniform(s); };
  auto P = [](Rand& r, Dims s) { return r.uniform(s, 0.5, 1.5); };
  std::vector<Sample> v = {
      {"add", O::add, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}), 2.0}; }},
      {"sub", O::sub, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2, 1}), 0.5}; }},
      {"mul", O::mul, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"mul_scalar", O::mul, [=](Rand& r) { return Args{T(r, {2, 3}), 1.5}; }},
      {"div", O::div, [=](Rand& r) { return Args{T(r, {2, 3}), P(r, {3})}; }},
      {"pow", O::pow, [=](Rand& r) { return Args{P(r, {2, 3}), T(r, {3})}; }},
      {"pow_scalar", O::pow, [=](Rand& r) { return Args{T(r, {2, 3}), 3.0}; }},
      {"atan2", O::atan2, [=](Rand& r) { return Args{T(r, {2, 3}), P(r, {3})}; }},
      {"maximum", O::maximum, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"minimum", O::minimum, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"neg", O::neg, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"abs", O::abs, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"square", O::square, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"sqrt", O::sqrt, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"rsqrt", O::rsqrt, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"exp", O::exp, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"log", O::log, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"log2", O::log2, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"log1p", O::log1p, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"expm1", O::expm1, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"sin", O::sin, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"cos", O::cos, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"tanh", O::tanh, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"sigmoid", O::sigmoid, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"relu", O::relu, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"gelu", O::gelu, [=](Rand& r) { return Args{T(r, {2, 3}), "none"}; }},
      {"gelu_tanh", O::gelu, [=](Rand& r) { return Args{T(r, {2, 3}), "tanh"}; }},
      {"silu", O::silu, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"leaky_relu", O::leaky_relu, [=](Rand& r) { return Args{T(r, {2, 3}), 0.2}; }},
      {"softplus", O::softplus, [=](Rand& r) { return Args{T(r, {2, 3}), 2.0, 1.0}; }},
      {"prelu", O::prelu, [=](Rand& r) { return Args{T(r, {2, 3, 2}), T(r, {3})}; }},
      {"erf", O::erf, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"erfinv", O::erfinv, [=](Rand& r) { return Args{r.uniform({2, 3}, -0.8, 0.8)}; }},
      {"asinh", O::asinh, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"acosh", O::acosh, [=](Rand& r) { return Args{r.uniform({2, 3}, 1.2, 4)}; }},
      {"atanh", O::atanh, [=](Rand& r) { return Args{r.uniform({2, 3}, -0.8, 0.8)}; }},
      {"erfc", O::erfc, [=](Rand& r) { return Args{r.uniform({2, 3}, -2, 2)}; }},
      {"exp2", O::exp2, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"lgamma", O::lgamma, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.3, 4)}; }},
      {"digamma", O::digamma, [=](Rand& r) { return Args{r.uniform({2, 3}, -2.7, -2.2)}; }},
      {"polygamma", O::polygamma, [=](Rand& r) { return Args{int64_t(2), r.uniform({2, 3}, 0.5, 3)}; }},
      {"special_entr", O::special_entr, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.2, 3)}; }},
      {"special_ndtr", O::special_ndtr, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"special_ndtri", O::special_ndtri, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.1, 0.9)}; }},
      {"special_xlog1py", O::special_xlog1py, [=](Rand& r) { return Args{T(r, {2, 3}), P(r, {3})}; }},
      {"mvlgamma", O::mvlgamma, [=](Rand& r) { return Args{r.uniform({2, 3}, 1.6, 4), int64_t(3)}; }},
      {"logaddexp", O::logaddexp, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"logaddexp2", O::logaddexp2, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2, 1})}; }},
      {"hypot", O::hypot, [=](Rand& r) { return Args{T(r, {2, 3}), P(r, {3})}; }},
      {"sinc", O::sinc, [=](Rand& r) { return Args{r.uniform({2, 3}, -2, 2)}; }},
      {"deg2rad", O::deg2rad, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"rad2deg", O::rad2deg, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"xlogy", O::xlogy, [=](Rand& r) { return Args{T(r, {2, 3}), P(r, {3})}; }},
      {"logit", O::logit, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.1, 0.9)}; }},
      {"logit_eps", O::logit, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.1, 0.9), 0.3}; }},
      {"float_power", O::float_power, [=](Rand& r) { return Args{P(r, {2, 3}), T(r, {3})}; }},
      {"hardshrink", O::hardshrink, [=](Rand& r) { return Args{r.uniform({2, 3}, -2, 2), 0.6}; }},
      {"softshrink", O::softshrink, [=](Rand& r) { return Args{r.uniform({2, 3}, -2, 2), 0.6}; }},
      {"threshold", O::threshold, [=](Rand& r) { return Args{T(r, {2, 3}), 0.1, -3.0}; }},
      {"tan", O::tan, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"sinh", O::sinh, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"cosh", O::cosh, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"asin", O::asin, [=](Rand& r) { return Args{r.uniform({2, 3}, -0.8, 0.8)}; }},
      {"acos", O::acos, [=](Rand& r) { return Args{r.uniform({2, 3}, -0.8, 0.8)}; }},
      {"atan", O::atan, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"log10", O::log10, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"reciprocal", O::reciprocal, [=](Rand& r) { return Args{P(r, {2, 3})}; }},
      {"floor", O::floor, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"ceil", O::ceil, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"round", O::round, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"trunc", O::trunc, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"sign", O::sign, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"remainder", O::remainder, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3), P(r, {3})}; }},
      {"remainder_scalar", O::remainder, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3), 0.7}; }},
      {"nan_to_num", O::nan_to_num, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"clamp", O::clamp, [=](Rand& r) { return Args{T(r, {2, 3}), -0.5, 0.5}; }},
      {"where", O::where, [=](Rand& r) { return Args{r.bools({2, 3}), T(r, {2, 3}), T(r, {3})}; }},
      {"masked_fill", O::masked_fill, [=](Rand& r) { return Args{T(r, {2, 3}), r.bools({3}), 0.5}; }},
      {"addcmul", O::addcmul, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}), T(r, {2, 3}), 0.5}; }},
      {"addcdiv", O::addcdiv, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}), P(r, {2, 3}), 0.5}; }},
      {"lerp", O::lerp, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}), T(r, {2, 3})}; }},
      {"sum", O::sum, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{1, 2}, false}; }},
      {"sum_all", O::sum, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"mean", O::mean, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{0}, true}; }},
      {"prod", O::prod, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), false}; }},
      {"prod_with_zero", O::prod, [=](Rand& r) {
         Tensor x = T(r, {2, 3});
         x.data<double>()[1] = 0;
         return Args{x};
       }},
      {"max", O::max, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"min", O::min, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"max_dim", O::max_dim, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), false}; }},
      {"min_dim", O::min_dim, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(0), true}; }},
      {"amax", O::amax, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1}, true}; }},
      {"amin", O::amin, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{0}, false}; }},
      {"var", O::var, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1}, none, false}; }},
      {"std", O::std, [=](Rand& r) { return Args{T(r, {3, 4}), none, 0, true}; }},
      {"norm", O::norm, [=](Rand& r) { return Args{T(r, {3, 4}), 2.0, Dims{1}, false}; }},
      {"norm_p3", O::norm, [=](Rand& r) { return Args{T(r, {3, 4}), 3.0}; }},
      {"norm_p1", O::norm, [=](Rand& r) { return Args{T(r, {3, 4}), 1.0, Dims{0}, true}; }},
      {"logsumexp", O::logsumexp, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1}, false}; }},
      {"sort", O::sort, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), true}; }},
      {"topk", O::topk, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(2), int64_t(0)}; }},
      {"cumsum", O::cumsum, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      {"cumprod", O::cumprod, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      // exact zeros: one, two, and none in a slice (the gradient at and after the first zero)
      {"cumprod_zeros", O::cumprod, [=](Rand&) {
         return Args{Tensor::from_doubles({0.5, 0, 1.2, 0, 0.7, -1.1, 0.9, 0, 1.3, 0.4, 0.8, -0.6, 1.5, 0.3, 1.1},
                                          {3, 5}, DType::float64), int64_t(-1)}; }},
      {"flip", O::flip, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{0, -1}}; }},
      {"view", O::view, [=](Rand& r) { return Args{T(r, {2, 6}), Dims{3, 4}}; }},
      {"reshape", O::reshape, [=](Rand& r) { return Args{T(r, {2, 6}), Dims{4, -1}}; }},
      {"transpose", O::transpose, [=](Rand& r) { return Args{T(r, {2, 3, 4}), int64_t(0), int64_t(2)}; }},
      {"t", O::t, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"permute", O::permute, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{2, 0, 1}}; }},
      {"slice", O::slice, [=](Rand& r) { return Args{T(r, {5, 4}), int64_t(0), int64_t(1), int64_t(5), int64_t(2)}; }},
      {"select", O::select, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), int64_t(-2)}; }},
      {"expand", O::expand, [=](Rand& r) { return Args{T(r, {3, 1}), Dims{2, 3, 4}}; }},
      {"unsqueeze", O::unsqueeze, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      {"squeeze", O::squeeze, [=](Rand& r) { return Args{T(r, {3, 1, 4})}; }},
      {"narrow", O::narrow, [=](Rand& r) { return Args{T(r, {5, 4}), int64_t(0), int64_t(-4), int64_t(3)}; }},
      {"flatten", O::flatten, [=](Rand& r) { return Args{T(r, {2, 3, 4}), int64_t(1), int64_t(2)}; }},
      {"contiguous", O::contiguous, [=](Rand& r) { return Args{T(r, {4, 3}).t()}; }},
      {"clone", O::clone, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"to", O::to, [=](Rand& r) { return Args{T(r, {3, 4}), DType::float64, none, false, true}; }},
      {"copy_", O::copy_, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {4})}; }},
      {"cat", O::cat, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {3, 3})}, int64_t(0)}; }},
      {"stack", O::stack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {2, 3})}, int64_t(-1)}; }},
      {"split", O::split, [=](Rand& r) { return Args{T(r, {5, 3}), int64_t(2), int64_t(0)}; }},
      {"split_sizes", O::split_sizes, [=](Rand& r) { return Args{T(r, {3, 5}), Dims{1, 0, 4}, int64_t(1)}; }},
      {"chunk", O::chunk, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(2), int64_t(1)}; }},
      {"index_select", O::index_select, [=](Rand& r) { return Args{T(r, {4, 3}), int64_t(0), r.ints({6}, 4)}; }},
      {"gather", O::gather, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), r.ints({3, 5}, 4)}; }},
      {"index_copy", O::index_copy, [=](Rand& r) {
         return Args{T(r, {5, 3}), int64_t(0), Tensor::from_doubles({3, 0}, {2}, DType::int64), T(r, {2, 3})};
       }},
      {"tril", O::tril, [=](Rand& r) { return Args{T(r, {4, 4}), int64_t(0)}; }},
      {"triu", O::triu, [=](Rand& r) { return Args{T(r, {4, 4}), int64_t(1)}; }},
      {"embedding", O::embedding, [=](Rand& r) { return Args{r.ints({2, 3}, 5), T(r, {5, 4})}; }},
      {"embedding_padding", O::embedding, [=](Rand& r) { return Args{r.ints({4, 3}, 3), T(r, {4, 2}), int64_t(3)}; }},
      {"zero_", O::zero_, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"fill_", O::fill_, [=](Rand& r) { return Args{T(r, {3, 4}), 2.0}; }},
      {"normal_", O::normal_, [=](Rand& r) { return Args{T(r, {3, 4}), 0.5, 2.0}; }},
      {"uniform_", O::uniform_, [=](Rand& r) { return Args{T(r, {3, 4}), -1.0, 1.0}; }},
      {"bernoulli_", O::bernoulli_, [=](Rand& r) { return Args{T(r, {3, 4}), 0.3}; }},
      {"dropout", O::dropout, [=](Rand& r) { return Args{T(r, {4, 5}), 0.3, true}; }},
      {"native_dropout", O::native_dropout, [=](Rand& r) { return Args{T(r, {4, 5}), 0.3, true}; }},
      {"matmul", O::matmul, [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {4, 5})}; }},
      {"matmul_vv", O::matmul, [=](Rand& r) { return Args{T(r, {4}), T(r, {4})}; }},
      {"matmul_mv", O::matmul, [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {4})}; }},
      {"matmul_vm", O::matmul, [=](Rand& r) { return Args{T(r, {3}), T(r, {2, 3, 4})}; }},
      {"mm", O::mm, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3, 4})}; }},
      {"bmm", O::bmm, [=](Rand& r) { return Args{T(r, {2, 2, 3}), T(r, {2, 3, 4})}; }},
      {"addmm", O::addmm, [=](Rand& r) { return Args{T(r, {2, 4}), T(r, {2, 3}), T(r, {3, 4}), 0.5, 2.0}; }},
      {"addmm_broadcast", O::addmm, [=](Rand& r) { return Args{T(r, {4}), T(r, {2, 3}), T(r, {3, 4}), 1.0, 1.0}; }},
      {"addbmm", O::addbmm, [=](Rand& r) { return Args{T(r, {2, 4}), T(r, {3, 2, 3}), T(r, {3, 3, 4}), 0.5, 2.0}; }},
      {"baddbmm", O::baddbmm, [=](Rand& r) { return Args{T(r, {3, 2, 4}), T(r, {3, 2, 3}), T(r, {3, 3, 4}), 0.5, 2.0}; }},
      {"addmv", O::addmv, [=](Rand& r) { return Args{T(r, {2}), T(r, {2, 3}), T(r, {3}), 0.5, 2.0}; }},
      {"addr", O::addr, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2}), T(r, {3}), 0.5, 2.0}; }},
      {"dot", O::dot, [=](Rand& r) { return Args{T(r, {4}), T(r, {4})}; }},
      {"mv", O::mv, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"outer", O::outer, [=](Rand& r) { return Args{T(r, {2}), T(r, {3})}; }},
      {"sdpa", O::scaled_dot_product_attention, [=](Rand& r) {
        return Args{T(r, {2, 3, 4}), T(r, {2, 5, 4}), T(r, {2, 5, 3})}; }},
      {"sdpa_causal_gqa", O::scaled_dot_product_attention, [=](Rand& r) {
        return Args{T(r, {1, 4, 3, 2}), T(r, {1, 2, 3, 2}), T(r, {1, 2, 3, 2}), IValue(), 0.0, true, 0.7, true}; }},
      {"sdpa_float_mask", O::scaled_dot_product_attention, [=](Rand& r) {
        return Args{T(r, {3, 4}), T(r, {5, 4}), T(r, {5, 2}), T(r, {3, 5})}; }},
      {"pad_constant", O::pad, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{1, 2, -1, 1}, "constant", 0.5}; }},
      {"pad_circular", O::pad, [=](Rand& r) { return Args{T(r, {1, 2, 3, 4}), Dims{1, 2, 3, 0}, "circular"}; }},
      {"constant_pad_nd", O::constant_pad_nd, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{2, 0, 1, 1}}; }},
      {"reflection_pad1d", O::reflection_pad1d, [=](Rand& r) { return Args{T(r, {2, 2, 5}), Dims{2, 3}}; }},
      {"reflection_pad2d", O::reflection_pad2d, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{1, 2, 2, 0}}; }},
      {"reflection_pad3d", O::reflection_pad3d, [=](Rand& r) { return Args{T(r, {1, 1, 2, 3, 3}), Dims{1, 1, 0, 2, 1, 0}}; }},
      {"replication_pad1d", O::replication_pad1d, [=](Rand& r) { return Args{T(r, {2, 3}), Dims{3, 1}}; }},
      {"replication_pad2d", O::replication_pad2d, [=](Rand& r) { return Args{T(r, {1, 2, 3, 2}), Dims{2, 1, 0, 3}}; }},
      {"replication_pad3d", O::replication_pad3d, [=](Rand& r) { return Args{T(r, {1, 2, 2, 2}), Dims{1, 0, 0, 1, 2, 1}}; }},
      {"einsum", O::einsum, [=](Rand& r) {
        return Args{"bij,bjk,k->bi", std::vector<Tensor>{T(r, {2, 3, 4}), T(r, {1, 4, 2}), T(r, {2})}}; }},
      {"roll", O::roll, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1, -3}, Dims{0, 1}}; }},
      {"repeat_interleave", O::repeat_interleave, [=](Rand& r) { return Args{T(r, {2, 3}), int64_t(2), int64_t(1)}; }},
      {"interpolate", O::interpolate, [=](Rand& r) { return Args{T(r, {1, 2, 3, 2}), Dims{4, 3}, IValue(), "bilinear"}; }},
      {"upsample_nearest1d", O::upsample_nearest1d, [=](Rand& r) { return Args{T(r, {1, 2, 3}), Dims{5}}; }},
      {"upsample_nearest2d", O::upsample_nearest2d, [=](Rand& r) { return Args{T(r, {1, 1, 2, 3}), Dims{3, 5}, 1.5}; }},
      {"upsample_nearest3d", O::upsample_nearest3d, [=](Rand& r) { return Args{T(r, {1, 1, 2, 2, 2}), Dims{3, 3, 4}}; }},
      {"upsample_linear1d", O::upsample_linear1d, [=](Rand& r) { return Args{T(r, {1, 2, 3}), Dims{5}, true}; }},
      {"upsample_bilinear2d", O::upsample_bilinear2d, [=](Rand& r) { return Args{T(r, {1, 1, 3, 2}), Dims{4, 5}, false}; }},
      {"upsample_trilinear3d", O::upsample_trilinear3d, [=](Rand& r) { return Args{T(r, {1, 1, 2, 2, 2}), Dims{3, 2, 4}, false, 2.0}; }},
      // grid points spread beyond [-1, 1], so the padding modes' clip and reflect rules are exercised
      {"grid_sampler_2d_bilinear_zeros", O::grid_sampler_2d, [=](Rand& r) {
        return Args{T(r, {2, 2, 3, 4}), r.uniform({2, 3, 2, 2}, -1.4, 1.4), int64_t(0), int64_t(0), false}; }},
      {"grid_sampler_2d_bilinear_border", O::grid_sampler_2d, [=](Rand& r) {
        return Args{T(r, {1, 2, 3, 4}), r.uniform({1, 3, 2, 2}, -1.4, 1.4), int64_t(0), int64_t(1), true}; }},
      {"grid_sampler_2d_nearest_reflection", O::grid_sampler_2d, [=](Rand& r) {
        return Args{T(r, {1, 2, 3, 4}), r.uniform({1, 3, 2, 2}, -2.5, 2.5), int64_t(1), int64_t(2), false}; }},
      {"grid_sampler_2d_bicubic_reflection", O::grid_sampler_2d, [=](Rand& r) {
        return Args{T(r, {2, 1, 4, 3}), r.uniform({2, 2, 3, 2}, -2.5, 2.5), int64_t(2), int64_t(2), true}; }},
      {"grid_sampler_2d_bicubic_border", O::grid_sampler_2d, [=](Rand& r) {
        return Args{T(r, {1, 2, 4, 5}), r.uniform({1, 2, 2, 2}, -1.4, 1.4), int64_t(2), int64_t(1), false}; }},
      {"grid_sampler_3d_trilinear_reflection", O::grid_sampler_3d, [=](Rand& r) {
        return Args{T(r, {1, 2, 2, 3, 3}), r.uniform({1, 2, 2, 2, 3}, -2.5, 2.5), int64_t(0), int64_t(2), false}; }},
      {"grid_sampler_3d_trilinear_zeros", O::grid_sampler_3d, [=](Rand& r) {
        return Args{T(r, {2, 1, 3, 2, 3}), r.uniform({2, 1, 2, 2, 3}, -1.4, 1.4), int64_t(0), int64_t(0), true}; }},
      {"grid_sampler_3d_nearest_border", O::grid_sampler_3d, [=](Rand& r) {
        return Args{T(r, {1, 2, 2, 3, 3}), r.uniform({1, 2, 1, 2, 3}, -1.4, 1.4), int64_t(1), int64_t(1), true}; }},
      {"grid_sampler", O::grid_sampler, [=](Rand& r) {
        return Args{T(r, {1, 2, 3, 4}), r.uniform({1, 2, 3, 2}, -1.4, 1.4), int64_t(0), int64_t(2), false}; }},
      {"affine_grid_generator", O::affine_grid_generator, [=](Rand& r) {
        return Args{T(r, {2, 2, 3}), Dims{2, 1, 3, 4}, false}; }},
      {"affine_grid_generator_3d", O::affine_grid_generator, [=](Rand& r) {
        return Args{T(r, {1, 3, 4}), Dims{1, 2, 2, 3, 2}, true}; }},
      {"linear", O::linear, [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {5, 4}), T(r, {5})}; }},
      {"conv1d", O::conv1d, [=](Rand& r) {
         return Args{T(r, {2, 4, 7}), T(r, {6, 2, 3}), T(r, {6}), Dims{2}, Dims{1}, Dims{1}, int64_t(2)};
       }},
      {"conv2d", O::conv2d, [=](Rand& r) {
         return Args{T(r, {2, 2, 6, 5}), T(r, {3, 2, 3, 2}), T(r, {3}), Dims{1, 2}, Dims{1, 0}, Dims{2, 1}, int64_t(1)};
       }},
      {"conv3d", O::conv3d, [=](Rand& r) {
         return Args{T(r, {1, 2, 4, 3, 4}), T(r, {2, 2, 2, 2, 2}), none, Dims{1}, Dims{1}, Dims{1}, int64_t(1)};
       }},
      {"conv_transpose1d", O::conv_transpose1d, [=](Rand& r) {
         return Args{T(r, {2, 4, 5}), T(r, {4, 3, 3}), T(r, {6}), Dims{2}, Dims{1}, Dims{1}, int64_t(2), Dims{1}};
       }},
      {"conv_transpose2d", O::conv_transpose2d, [=](Rand& r) {
         return Args{T(r, {1, 2, 3, 4}), T(r, {2, 3, 2, 3}), T(r, {3}), Dims{2, 1}, Dims{0, 1}, Dims{1, 0}, int64_t(1),
                     Dims{1, 2}};
       }},
      {"conv_transpose3d", O::conv_transpose3d, [=](Rand& r) {
         return Args{T(r, {1, 2, 2, 3, 2}), T(r, {2, 2, 2, 2, 2}), none, Dims{1}, Dims{0}, Dims{0}, int64_t(1), Dims{1}};
       }},
      {"max_pool2d", O::max_pool2d, [=](Rand& r) { return Args{T(r, {1, 2, 5, 5}), Dims{2, 2}, Dims{}, Dims{0}}; }},
      {"max_pool2d_with_indices", O::max_pool2d_with_indices, [=](Rand& r) {
         return Args{T(r, {2, 5, 6}), Dims{3, 2}, Dims{2, 2}, Dims{1, 0}, Dims{1}, true};
       }},
      {"avg_pool2d", O::avg_pool2d, [=](Rand& r) {
         return Args{T(r, {1, 2, 5, 5}), Dims{3, 3}, Dims{2, 2}, Dims{1, 1}, true, false};
       }},
      {"adaptive_avg_pool2d", O::adaptive_avg_pool2d, [=](Rand& r) { return Args{T(r, {1, 2, 5, 7}), Dims{3, 4}}; }},
      {"layer_norm", O::layer_norm, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{4}, T(r, {4}), T(r, {4}), 1e-5}; }},
      {"layer_norm_2d", O::layer_norm, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{3, 4}}; }},
      {"layer_norm_backward", O::layer_norm_backward,
       [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {2, 3, 4}), Dims{4}, T(r, {4}), 1e-5, true}; }},
      {"batch_norm", O::batch_norm, [=](Rand& r) {
         return Args{T(r, {4, 3, 2}), none, none, T(r, {3}), T(r, {3}), true, 0.1, 1e-5};
       }},
      {"batch_norm_eval", O::batch_norm, [=](Rand& r) {
         return Args{T(r, {4, 3}), T(r, {3}), P(r, {3}), T(r, {3}), T(r, {3}), false, 0.1, 1e-5};
       }, {1, 2}},
      {"batch_norm_backward", O::batch_norm_backward, [=](Rand& r) {
         return Args{T(r, {4, 3, 2}), T(r, {4, 3, 2}), none, none, T(r, {3}), true, 1e-5, true};
       }},
      {"batch_norm_backward_eval", O::batch_norm_backward, [=](Rand& r) {
         return Args{T(r, {4, 3}), T(r, {4, 3}), T(r, {3}), P(r, {3}), T(r, {3}), false, 1e-5, true};
       }, {2, 3}},
      {"group_norm", O::group_norm, [=](Rand& r) { return Args{T(r, {2, 4, 3}), int64_t(2), T(r, {4}), T(r, {4}), 1e-5}; }},
      {"group_norm_backward", O::group_norm_backward,
       [=](Rand& r) { return Args{T(r, {2, 4, 3}), T(r, {2, 4, 3}), int64_t(2), T(r, {4}), 1e-5, true}; }},
      {"softmax", O::softmax, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      {"log_softmax", O::log_softmax, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(0)}; }},
      {"cross_entropy", O::cross_entropy, [=](Rand& r) {
         return Args{T(r, {4, 5}), r.ints({4}, 5), P(r, {5}), int64_t(2), "mean", 0.1};
       }, {2}},
      {"cross_entropy_probs", O::cross_entropy, [=](Rand& r) {
         return Args{T(r, {3, 4, 2}), softmax(T(r, {3, 4, 2}), 1), none, int64_t(-100), "sum", 0.2};
       }},
      {"nll_loss", O::nll_loss, [=](Rand& r) { return Args{T(r, {4, 5}), r.ints({4}, 5), P(r, {5}), int64_t(1), "mean"}; },
       {2}},
      {"nll_loss_2d", O::nll_loss, [=](Rand& r) { return Args{T(r, {2, 3, 2}), r.ints({2, 2}, 3), none, int64_t(-100), "none"}; }},
      // the gradient ops softmax, log_softmax and nll_loss record (their decompositions under create_graph)
      {"_softmax_backward_data", O::_softmax_backward_data, [=](Rand& r) {
         return Args{T(r, {3, 4}), softmax(T(r, {3, 4}), 1), int64_t(-1), DType::float64};
       }},
      {"_log_softmax_backward_data", O::_log_softmax_backward_data, [=](Rand& r) {
         return Args{T(r, {3, 4, 2}), log_softmax(T(r, {3, 4, 2}), 1), int64_t(1), DType::float64};
       }},
      {"nll_loss_backward", O::nll_loss_backward, [=](Rand& r) {
         return Args{T(r, {}), r.ints({4}, 5), P(r, {5}), Dims{4, 5}, int64_t(1), "mean"};
       }},
      {"nll_loss_backward_2d", O::nll_loss_backward, [=](Rand& r) {
         return Args{T(r, {2, 2}), r.ints({2, 2}, 3), none, Dims{2, 3, 2}, int64_t(-100), "none"};
       }},
      {"mse_loss", O::mse_loss, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 4}), "mean"}; }},
      {"l1_loss", O::l1_loss, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 4}), "sum"}; }},
      {"huber_loss", O::huber_loss, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 4}), "mean", 0.5}; }},
      {"elu", O::elu, [=](Rand& r) { return Args{r.uniform({3, 4}, -3, 3), 0.7}; }},
      {"selu", O::selu, [=](Rand& r) { return Args{r.uniform({3, 4}, -3, 3)}; }},
      {"celu", O::celu, [=](Rand& r) { return Args{r.uniform({3, 4}, -3, 3), 2.0}; }},
      {"hardtanh", O::hardtanh, [=](Rand& r) { return Args{r.uniform({3, 4}, -3, 3), -1.5, 2.0}; }},
      {"relu6", O::relu6, [=](Rand& r) { return Args{r.uniform({3, 4}, -2, 8)}; }},
      {"hardsigmoid", O::hardsigmoid, [=](Rand& r) { return Args{r.uniform({3, 4}, -5, 5)}; }},
      {"hardswish", O::hardswish, [=](Rand& r) { return Args{r.uniform({3, 4}, -5, 5)}; }},
      {"mish", O::mish, [=](Rand& r) { return Args{r.uniform({3, 4}, -4, 4)}; }},
      {"logsigmoid", O::logsigmoid, [=](Rand& r) { return Args{r.uniform({3, 4}, -4, 4)}; }},
      {"softsign", O::softsign, [=](Rand& r) { return Args{r.uniform({3, 4}, -4, 4)}; }},
      {"normalize", O::normalize, [=](Rand& r) { return Args{T(r, {3, 4}), 2.0, int64_t(1), 1e-12}; }},
      {"normalize_p1_dim0", O::normalize, [=](Rand& r) { return Args{T(r, {3, 4}), 1.0, int64_t(0), 1e-12}; }},
      {"margin_ranking_loss", O::margin_ranking_loss, [=](Rand& r) {
         return Args{T(r, {6}), T(r, {6}), Tensor::from_doubles({1, -1, 1, 1, -1, -1}, {6}, DType::float64), 0.1, "sum"};
       }},
      {"hinge_embedding_loss", O::hinge_embedding_loss, [=](Rand& r) {
         return Args{T(r, {2, 3}), Tensor::from_doubles({1, -1, -1, 1, -1, 1}, {2, 3}, DType::float64), 0.5, "mean"};
       }},
      {"soft_margin_loss", O::soft_margin_loss, [=](Rand& r) {
         return Args{T(r, {2, 3}), Tensor::from_doubles({1, -1, -1, 1, -1, 1}, {2, 3}, DType::float64), "none"};
       }},
      {"triplet_margin_loss", O::triplet_margin_loss, [=](Rand& r) {
         return Args{T(r, {3, 4}), T(r, {3, 4}), T(r, {3, 4}), 2.0, 2.0, 1e-6, true, "mean"};
       }},
      {"poisson_nll_loss", O::poisson_nll_loss, [=](Rand& r) {
         return Args{r.uniform({2, 3}, 0.5, 2), r.uniform({2, 3}, 0, 4), false, true, 1e-8, "mean"};
       }},
      {"multi_margin_loss", O::multi_margin_loss, [=](Rand& r) {
         return Args{T(r, {3, 4}), Tensor::from_doubles({3, 0, 2}, {3}, DType::int64), int64_t(2), 0.9, T(r, {4}), "sum"};
       }},
      {"max_pool1d", O::max_pool1d, [=](Rand& r) { return Args{T(r, {2, 3, 9}), Dims{3}, Dims{2}, Dims{1}}; }},
      {"avg_pool1d", O::avg_pool1d, [=](Rand& r) { return Args{T(r, {3, 8}), Dims{3}, Dims{2}, Dims{1}, true, false}; }},
      {"adaptive_avg_pool1d", O::adaptive_avg_pool1d, [=](Rand& r) { return Args{T(r, {2, 3, 7}), Dims{3}}; }},
      {"max_pool3d", O::max_pool3d, [=](Rand& r) {
         return Args{T(r, {1, 2, 4, 5, 4}), Dims{2, 3, 2}, Dims{2, 1, 2}, Dims{1, 1, 0}, Dims{1}, true};
       }},
      {"max_pool3d_with_indices", O::max_pool3d_with_indices, [=](Rand& r) {
         return Args{T(r, {2, 3, 5, 4}), Dims{2}, Dims{1}, Dims{0}, Dims{1, 2, 1}};
       }},
      {"avg_pool3d", O::avg_pool3d, [=](Rand& r) {
         return Args{T(r, {1, 2, 4, 5, 4}), Dims{3, 2, 2}, Dims{2, 1, 2}, Dims{1, 1, 0}, true, false};
       }},
      {"avg_pool3d_divisor", O::avg_pool3d, [=](Rand& r) {
         return Args{T(r, {2, 4, 4, 3}), Dims{2}, Dims{}, Dims{0}, false, true, int64_t(3)};
       }},
      {"adaptive_avg_pool3d", O::adaptive_avg_pool3d, [=](Rand& r) { return Args{T(r, {1, 2, 5, 4, 6}), Dims{3, 2, 4}}; }},
      {"adaptive_max_pool1d", O::adaptive_max_pool1d, [=](Rand& r) { return Args{T(r, {2, 3, 7}), Dims{3}}; }},
      {"adaptive_max_pool2d", O::adaptive_max_pool2d, [=](Rand& r) { return Args{T(r, {2, 5, 7}), Dims{3, 4}}; }},
      {"adaptive_max_pool3d", O::adaptive_max_pool3d, [=](Rand& r) { return Args{T(r, {1, 2, 4, 5, 3}), Dims{3, 2, 2}}; }},
      {"max_unpool2d", O::max_unpool2d, [=](Rand& r) {
         return Args{T(r, {2, 2, 3}), Tensor::from_doubles({0, 3, 7, 9, 14, 19, 1, 2, 5, 11, 12, 18}, {2, 2, 3},
                                                           DType::int64), Dims{4, 5}};
       }, {1}},  // the indices only place values
      {"max_unpool3d", O::max_unpool3d, [=](Rand& r) {
         return Args{T(r, {1, 1, 2, 1, 2}), Tensor::from_doubles({0, 5, 17, 23}, {1, 1, 2, 1, 2}, DType::int64),
                     Dims{2, 3, 4}};
       }, {1}},
      {"lstm_cell", O::lstm_cell, [=](Rand& r) {
         return Args{T(r, {2, 3}), std::vector<Tensor>{T(r, {2, 4}), T(r, {2, 4})}, T(r, {16, 3}), T(r, {16, 4}),
                     T(r, {16}), T(r, {16})};
       }},
      {"gru_cell", O::gru_cell, [=](Rand& r) {
         return Args{T(r, {2, 3}), T(r, {2, 4}), T(r, {12, 3}), T(r, {12, 4}), T(r, {12}), T(r, {12})};
       }},
      {"rnn_tanh_cell", O::rnn_tanh_cell, [=](Rand& r) {
         return Args{T(r, {3}), T(r, {4}), T(r, {4, 3}), T(r, {4, 4}), T(r, {4}), T(r, {4})};
       }},
      {"rnn_relu_cell_no_bias", O::rnn_relu_cell, [=](Rand& r) {
         return Args{T(r, {2, 3}), T(r, {2, 4}), T(r, {4, 3}), T(r, {4, 4})};
       }},
      {"kl_div", O::kl_div, [=](Rand& r) { return Args{T(r, {3, 4}), P(r, {3, 4}), "batchmean"}; }},
      {"kl_div_log_target", O::kl_div, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 4}), "sum", true}; }},
      {"smooth_l1_loss", O::smooth_l1_loss, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 4}), "mean", 0.5}; }},
      {"binary_cross_entropy", O::binary_cross_entropy, [=](Rand& r) {
         return Args{r.uniform({3, 4}, 0.1, 0.9), r.uniform({3, 4}, 0, 1), P(r, {3, 4}), "mean"};
       }, {2}},
      {"binary_cross_entropy_with_logits", O::binary_cross_entropy_with_logits, [=](Rand& r) {
         return Args{T(r, {3, 4}), r.uniform({3, 4}, 0, 1), P(r, {3, 4}), "sum", P(r, {4})};
       }, {2}},
      {"cosine_embedding_loss", O::cosine_embedding_loss, [=](Rand& r) {
         return Args{T(r, {3, 4}), T(r, {3, 4}), Tensor::from_doubles({1, -1, -1}, {3}, DType::int64), -0.5, "mean"};
       }},
      {"cosine_similarity", O::cosine_similarity, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {1, 4}), int64_t(1), 1e-8}; }},
      {"cdist", O::cdist, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {2, 4}), 2.0}; }},
      {"dist", O::dist, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {4}), 3.0}; }},
      {"pdist", O::pdist, [=](Rand& r) { return Args{T(r, {4, 3}), 2.0}; }},
      {"pdist_p1", O::pdist, [=](Rand& r) { return Args{T(r, {3, 2}), 1.0}; }},
      {"renorm", O::renorm, [=](Rand& r) { return Args{T(r, {3, 4}), 2.0, int64_t(0), 0.8}; }},
      {"rms_norm", O::rms_norm, [=](Rand& r) { return Args{T(r, {2, 3, 4}), Dims{3, 4}, T(r, {3, 4}), 0.01}; }},
      {"vdot", O::vdot, [=](Rand& r) { return Args{T(r, {4}), T(r, {4})}; }},
      {"cross", O::cross, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {1, 3}), int64_t(1)}; }},
      {"bilinear", O::bilinear, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2, 2}), T(r, {4, 3, 2}), T(r, {4})}; }},
      {"median", O::median, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"median_dim", O::median_dim, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), true}; }},
      {"kthvalue", O::kthvalue, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(2), int64_t(0)}; }},
      {"nansum", O::nansum, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1}}; }},
      {"nanmean", O::nanmean, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{0}, true}; }},
      {"aminmax", O::aminmax, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      {"frac", O::frac, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.1, 0.9) + r.ints({2, 3}, 4).to(DType::float64)}; }},
      {"fmod", O::fmod, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3), P(r, {3})}; }},
      {"clamp_tensor", O::clamp_tensor, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}) - 0.5, T(r, {2, 1}) + 0.5}; }},
      {"tile", O::tile, [=](Rand& r) { return Args{T(r, {2, 3}), Dims{2, 1, 2}}; }},
      {"quantile", O::quantile, [=](Rand& r) {
         return Args{T(r, {3, 5}), Tensor::from_doubles({0.2, 0.7}, {2}, DType::float64), int64_t(1), true};
       }, {1}},  // q, the levels, is not differentiated (as PyTorch's)
      {"nanquantile", O::nanquantile, [=](Rand& r) { return Args{T(r, {7}), Tensor::scalar(0.4, DType::float64)}; }, {1}},
      {"meshgrid", O::meshgrid, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {3}), T(r, {2})}, "xy"}; }},
      {"index_add_alpha", O::index_add, [=](Rand& r) {
         return Args{T(r, {5, 3}), int64_t(0), r.ints({4}, 5), T(r, {4, 3}), Scalar(-1.5)};
       }},
      {"cdist_p1", O::cdist, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {2, 4}), 1.0}; }},
      {"cdist_p3", O::cdist, [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {2, 2, 4}), 3.0}; }},
      {"trace", O::trace, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"cholesky", O::cholesky, [=](Rand& r) { return Args{spd_input(r), false}; }, {}, [](Args& a) {
         Tensor x = a[0].tensor(), spd = mm(x, x.t()) + eye(3, std::nullopt, x.dtype()) * 3.0;
         return dispatch(O::cholesky, Args{spd, a[1]});
       }},
      {"cholesky_upper", O::cholesky, [=](Rand& r) { return Args{spd_input(r), true}; }, {}, [](Args& a) {
         Tensor x = a[0].tensor(), spd = mm(x, x.t()) + eye(3, std::nullopt, x.dtype()) * 3.0;
         return dispatch(O::cholesky, Args{spd, a[1]});
       }},
      {"inverse", O::inverse, [=](Rand& r) { return Args{T(r, {2, 3, 3}) + eye(3, std::nullopt, DType::float64) * 3.0}; }},
      {"qr", O::qr, [=](Rand& r) { return Args{distinct_sv(r, {4, 3}), true}; }},
      {"qr_square_batched", O::qr, [=](Rand& r) { return Args{distinct_sv(r, {2, 3, 3}), true}; }},
      {"qr_wide", O::qr, [=](Rand& r) { return Args{distinct_sv(r, {3, 5}), true}; }},
      {"qr_complete_wide", O::qr, [=](Rand& r) { return Args{distinct_sv(r, {2, 4}), false}; }},
      {"svd", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {4, 3}), true, true}; }, {}, svd_invariants},
      {"svd_wide", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {3, 5}), true, true}; }, {}, svd_invariants},
      {"svd_square_batched", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {2, 3, 3}), true, true}; }, {},
       svd_invariants},
      {"svd_full", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {4, 2}), false, true}; }, {}, svd_invariants},
      {"svd_projector_tall", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {4, 2}), true, true}; }, {},
       svd_projector},
      {"svd_projector_wide", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {2, 4}), true, true}; }, {},
       svd_projector},
      {"svd_values", O::svd, [=](Rand& r) { return Args{distinct_sv(r, {3, 4}), true, false}; }},
      {"det", O::det, [=](Rand& r) { return Args{dominant(r, {2, 3, 3})}; }},
      {"linalg_det", O::linalg_det, [=](Rand& r) { return Args{T(r, {3, 3})}; }},
      {"logdet", O::logdet, [=](Rand& r) { return Args{dominant(r, {3, 3})}; }},
      {"slogdet", O::slogdet, [=](Rand& r) { return Args{dominant(r, {2, 3, 3})}; }},
      {"linalg_slogdet", O::linalg_slogdet, [=](Rand& r) { return Args{T(r, {3, 3})}; }},
      {"linalg_solve", O::linalg_solve, [=](Rand& r) { return Args{dominant(r, {2, 3, 3}), T(r, {3, 2})}; }},
      {"linalg_solve_vector", O::linalg_solve, [=](Rand& r) { return Args{dominant(r, {2, 3, 3}), T(r, {3})}; }},
      {"linalg_solve_right", O::linalg_solve, [=](Rand& r) { return Args{dominant(r, {3, 3}), T(r, {2, 2, 3}), false}; }},
      {"linalg_solve_triangular", O::linalg_solve_triangular, [=](Rand& r) {
         return Args{dominant(r, {3, 3}), T(r, {2, 3, 2}), true};
       }},
      {"linalg_solve_triangular_right_unit", O::linalg_solve_triangular, [=](Rand& r) {
         return Args{dominant(r, {3, 3}), T(r, {2, 3}), false, false, true};
       }},
      {"linalg_lu_factor_ex", O::linalg_lu_factor_ex, [=](Rand& r) { return Args{pivoted(r, {2, 3, 3})}; }},
      {"linalg_lu_factor_ex_wide", O::linalg_lu_factor_ex, [=](Rand& r) { return Args{pivoted(r, {3, 5})}; }},
      {"linalg_lu_factor_tall", O::linalg_lu_factor, [=](Rand& r) { return Args{pivoted(r, {2, 4, 2})}; }},
      {"linalg_lu", O::linalg_lu, [=](Rand& r) { return Args{pivoted(r, {2, 3, 3})}; }},
      {"linalg_lu_wide", O::linalg_lu, [=](Rand& r) { return Args{pivoted(r, {2, 4})}; }},
      {"linalg_lu_tall", O::linalg_lu, [=](Rand& r) { return Args{pivoted(r, {4, 3})}; }},
      {"_lu_with_info", O::_lu_with_info, [=](Rand& r) { return Args{pivoted(r, {3, 3})}; }},
      {"lu_unpack", O::lu_unpack, [=](Rand& r) { return Args{T(r, {2, 3, 4}), pivots({2, 3, 3, 3, 2, 3}, {2, 3})}; }},
      {"lu_unpack_tall", O::lu_unpack, [=](Rand& r) { return Args{T(r, {4, 2}), pivots({4, 3}, {2})}; }},
      {"linalg_lu_solve", O::linalg_lu_solve, [=](Rand& r) {
         return Args{dominant(r, {2, 3, 3}), pivots({3, 2, 3, 2, 2, 3}, {2, 3}), T(r, {3, 2})};
       }},
      {"linalg_lu_solve_adjoint", O::linalg_lu_solve, [=](Rand& r) {
         return Args{dominant(r, {3, 3}), pivots({3, 3, 3}, {3}), T(r, {2, 3, 2}), true, true};
       }},
      {"linalg_lu_solve_right", O::linalg_lu_solve, [=](Rand& r) {
         return Args{dominant(r, {3, 3}), pivots({2, 3, 3}, {3}), T(r, {2, 3}), false};
       }},
      {"linalg_lu_solve_right_adjoint", O::linalg_lu_solve, [=](Rand& r) {
         return Args{dominant(r, {3, 3}), pivots({3, 2, 3}, {3}), T(r, {2, 3}), false, true};
       }},
      {"lu_solve", O::lu_solve, [=](Rand& r) {
         return Args{T(r, {3, 2}), dominant(r, {3, 3}), pivots({2, 2, 3}, {3})};
       }},
      {"linalg_matrix_exp", O::linalg_matrix_exp, [=](Rand& r) { return Args{T(r, {2, 3, 3})}; }},
      {"linalg_matrix_exp_scaled", O::linalg_matrix_exp, [=](Rand& r) { return Args{r.uniform({3, 3}, 1.0, 2.0)}; }},
      {"matrix_exp", O::matrix_exp, [=](Rand& r) { return Args{r.uniform({2, 2}, -0.1, 0.1)}; }},
      {"linalg_eigh", O::linalg_eigh, [=](Rand& r) { return Args{distinct_sv(r, {2, 3, 3}), "L"}; }, {}, eigh_invariants},
      {"linalg_eigh_upper", O::linalg_eigh, [=](Rand& r) { return Args{distinct_sv(r, {4, 4}), "U"}; }, {}, eigh_invariants},
      {"linalg_eigvalsh", O::linalg_eigvalsh, [=](Rand& r) { return Args{distinct_sv(r, {3, 3}), "L"}; }, {},
       [](Args& a) { return dispatch(O::linalg_eigvalsh, Args{symmetric(a[0].tensor()), a[1]}); }},
      {"linalg_qr", O::linalg_qr, [=](Rand& r) { return Args{distinct_sv(r, {4, 3}), "reduced"}; }},
      {"linalg_qr_r", O::linalg_qr, [=](Rand& r) { return Args{distinct_sv(r, {3, 3}), "r"}; }},
      {"linalg_svd", O::linalg_svd, [=](Rand& r) { return Args{distinct_sv(r, {4, 3}), false}; }, {}, [](Args& a) {
         Tensors usv = dispatch(O::linalg_svd, a);
         return Tensors{matmul(usv[0] * (usv[1] * usv[1]).unsqueeze(-2), usv[2]), usv[1]};
       }},
      {"linalg_svdvals", O::linalg_svdvals, [=](Rand& r) { return Args{distinct_sv(r, {2, 3, 4})}; }},
      {"linalg_vector_norm", O::linalg_vector_norm, [=](Rand& r) { return Args{T(r, {2, 3}), 3.0, Dims{1}, true}; }},
      {"linalg_matrix_norm", O::linalg_matrix_norm, [=](Rand& r) { return Args{distinct_sv(r, {2, 3, 3}), -2.0}; }},
      {"linalg_matrix_norm_inf", O::linalg_matrix_norm, [=](Rand& r) {
         return Args{T(r, {2, 3, 4}), INFINITY, Dims{0, 2}, true};
       }},
      {"linalg_matrix_norm_nuc", O::linalg_matrix_norm_str_ord, [=](Rand& r) { return Args{distinct_sv(r, {3, 4}), "nuc"}; }},
      {"linalg_norm", O::linalg_norm, [=](Rand& r) { return Args{T(r, {3, 4}), 1.0}; }},
      {"linalg_norm_ord_str", O::linalg_norm_ord_str, [=](Rand& r) { return Args{T(r, {2, 3, 4}), "fro", Dims{0, 2}}; }},
      {"linalg_multi_dot", O::linalg_multi_dot, [=](Rand& r) {
         return Args{std::vector<Tensor>{T(r, {3}), T(r, {3, 4}), T(r, {4, 2}), T(r, {2, 5})}};
       }},
      {"chain_matmul", O::chain_matmul, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {3, 4}), T(r, {4, 2})}}; }},
      {"linalg_vecdot", O::linalg_vecdot, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"linalg_cross", O::linalg_cross, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {1, 3})}; }},
      {"atleast_1d", O::atleast_1d, [=](Rand& r) { return Args{T(r, {})}; }},
      {"atleast_2d", O::atleast_2d, [=](Rand& r) { return Args{T(r, {3})}; }},
      {"atleast_3d", O::atleast_3d, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"hstack", O::hstack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {2, 2})}}; }},
      {"vstack", O::vstack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {3}), T(r, {2, 3})}}; }},
      {"row_stack", O::row_stack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {3})}}; }},
      {"dstack", O::dstack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {2, 3, 2})}}; }},
      {"column_stack", O::column_stack, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {3}), T(r, {3, 2})}}; }},
      {"broadcast_to", O::broadcast_to, [=](Rand& r) { return Args{T(r, {3, 1}), Dims{2, 3, 4}}; }},
      {"broadcast_tensors", O::broadcast_tensors, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {3, 1}), T(r, {4})}}; }},
      {"rot90", O::rot90, [=](Rand& r) { return Args{T(r, {2, 3, 4}), int64_t(1), Dims{0, 2}}; }},
      {"rot90_back", O::rot90, [=](Rand& r) { return Args{T(r, {2, 3}), int64_t(-1), Dims{1, 0}}; }},
      {"fliplr", O::fliplr, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"flipud", O::flipud, [=](Rand& r) { return Args{T(r, {3, 2})}; }},
      {"kron", O::kron, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3, 2})}; }},
      {"block_diag", O::block_diag, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {2, 3}), T(r, {3}), T(r, {})}}; }},
      {"cartesian_prod", O::cartesian_prod, [=](Rand& r) { return Args{std::vector<Tensor>{T(r, {3}), T(r, {2})}}; }},
      {"take", O::take, [=](Rand& r) {
         return Args{T(r, {3, 4}), Tensor::from_doubles({0, -1, 5, 11, 5}, {5}, DType::int64)};
       }},
      {"take_along_dim", O::take_along_dim, [=](Rand& r) { return Args{T(r, {3, 4}), r.ints({1, 2}, 4), int64_t(1)}; }},
      {"take_along_dim_flat", O::take_along_dim, [=](Rand& r) { return Args{T(r, {3, 4}), r.ints({5}, 12)}; }},
      {"index_fill", O::index_fill, [=](Rand& r) {
         return Args{T(r, {3, 4}), int64_t(1), Tensor::from_doubles({0, 2, 2}, {3}, DType::int64), Scalar(1.5)};
       }},
      {"diag_embed", O::diag_embed, [=](Rand& r) { return Args{T(r, {2, 3}), int64_t(1), int64_t(0), int64_t(2)}; }},
      {"unfold", O::unfold, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(1), int64_t(3), int64_t(1)}; }},
      {"unfold_backward", O::unfold_backward, [=](Rand& r) {
         return Args{T(r, {2, 3, 3}), Dims{2, 7}, int64_t(1), int64_t(3), int64_t(2)};
       }},
      {"diff", O::diff, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(2), int64_t(1), T(r, {3, 1}), T(r, {3, 2})}; }},
      {"logcumsumexp", O::logcumsumexp, [=](Rand& r) { return Args{T(r, {3, 5}) * 4.0, int64_t(1)}; }},
      {"cummax", O::cummax, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(1)}; }},
      {"cummin", O::cummin, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(0)}; }},
      {"var_mean", O::var_mean, [=](Rand& r) { return Args{T(r, {3, 4}), Dims{1}, none, true}; }},
      {"std_mean", O::std_mean, [=](Rand& r) { return Args{T(r, {3, 4}), none, Scalar(0)}; }},
      {"cov", O::cov, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(1), r.ints({5}, 3) + Scalar(int64_t(1)), P(r, {5})}; }},
      {"corrcoef", O::corrcoef, [=](Rand& r) { return Args{T(r, {3, 5})}; }},
      {"tensordot", O::tensordot, [=](Rand& r) { return Args{T(r, {2, 3, 4}), T(r, {4, 3, 2}), Dims{1, 2}, Dims{1, 0}}; }},
      {"matrix_power", O::matrix_power, [=](Rand& r) { return Args{T(r, {2, 3, 3}), int64_t(5)}; }},
      {"matrix_power_negative", O::matrix_power, [=](Rand& r) { return Args{dominant(r, {3, 3}), int64_t(-2)}; }},
      {"cholesky_solve", O::cholesky_solve, [=](Rand& r) { return Args{T(r, {3, 2}), dominant(r, {2, 3, 3})}; }},
      {"cholesky_solve_upper", O::cholesky_solve, [=](Rand& r) { return Args{T(r, {3, 2}), dominant(r, {3, 3}), true}; }},
      {"cholesky_inverse", O::cholesky_inverse, [=](Rand& r) { return Args{dominant(r, {3, 3})}; }},
      {"triangular_solve", O::triangular_solve, [=](Rand& r) { return Args{T(r, {3, 2}), dominant(r, {3, 3}), false, true}; }},
      {"pinverse", O::pinverse, [=](Rand& r) { return Args{distinct_sv(r, {4, 3})}; }},
      {"linalg_pinv_hermitian", O::linalg_pinv, [=](Rand& r) { return Args{distinct_sv(r, {3, 3}), none, none, true}; }, {},
       [](Args& a) { return dispatch(O::linalg_pinv, Args{symmetric(a[0].tensor()), a[1], a[2], a[3]}); }},
      {"linalg_lstsq", O::linalg_lstsq, [=](Rand& r) { return Args{distinct_sv(r, {4, 3}), T(r, {4, 2}), none, "gelsd"}; }},
      {"index_add", O::index_add, [=](Rand& r) { return Args{T(r, {5, 3}), int64_t(0), r.ints({4}, 5), T(r, {4, 3})}; }},
      {"scatter_add", O::scatter_add, [=](Rand& r) { return Args{T(r, {3, 5}), int64_t(1), r.ints({3, 4}, 5), T(r, {3, 4})}; }},
      {"scatter_add_src_larger", O::scatter_add, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(0), r.ints({2, 4}, 3), T(r, {4, 6})};
       }},
      {"scatter", O::scatter, [=](Rand& r) {  // distinct indices per column: no position is written twice
         return Args{T(r, {4, 3}), int64_t(0), Tensor::from_doubles({3, 0, 1, 1, 2, 0}, {2, 3}, DType::int64), T(r, {2, 5})};
       }},
      {"scatter_value", O::scatter, [=](Rand& r) {
         return Args{T(r, {2, 4}), int64_t(1), Tensor::from_doubles({2, 0, 3, 1}, {2, 2}, DType::int64), T(r, {})};
       }},
      // the scatter family beyond scatter/scatter_add (in-place forms reuse these); written positions are distinct
      // unless accumulate, index ties with amax/amin improbable
      {"select_scatter", O::select_scatter, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {4}), int64_t(0), int64_t(-1)}; }},
      {"slice_scatter", O::slice_scatter, [=](Rand& r) {
         return Args{T(r, {3, 5}), T(r, {3, 2}), int64_t(1), int64_t(1), none, int64_t(2)};
       }},
      {"diagonal_scatter", O::diagonal_scatter, [=](Rand& r) {
         return Args{T(r, {3, 4}), T(r, {3}), int64_t(1), int64_t(0), int64_t(1)};
       }},
      {"index_put", O::index_put, [=](Rand& r) {
         return Args{T(r, {4, 3}), std::vector<Tensor>{Tensor::from_doubles({2, 0}, {2}, DType::int64)}, T(r, {2, 3}), false};
       }, {1}},  // the index list is not differentiated
      {"index_put_accumulate", O::index_put, [=](Rand& r) {
         return Args{T(r, {4, 3}), std::vector<Tensor>{Tensor::from_doubles({1, 1, 3}, {3}, DType::int64),
                                           Tensor::from_doubles({0, 0, 2}, {3}, DType::int64)}, T(r, {3}), true};
       }, {1}},
      {"masked_scatter", O::masked_scatter, [=](Rand& r) {
         return Args{T(r, {2, 3}), Tensor::from_doubles({1, 0, 1}, {3}, DType::bool_), T(r, {5})};
       }},
      {"put", O::put, [=](Rand& r) {
         return Args{T(r, {3, 2}), Tensor::from_doubles({5, 0, -2}, {3}, DType::int64), T(r, {3}), false};
       }},
      {"put_accumulate", O::put, [=](Rand& r) {
         return Args{T(r, {3, 2}), Tensor::from_doubles({1, 1, 4}, {3}, DType::int64), T(r, {3}), true};
       }},
      {"scatter_reduce_sum", O::scatter_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(1), r.ints({3, 4}, 5), T(r, {3, 4}), "sum", true};
       }},
      {"scatter_reduce_mean", O::scatter_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(1), r.ints({3, 4}, 5), T(r, {3, 4}), "mean", false};
       }},
      {"scatter_reduce_prod", O::scatter_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(1), r.ints({3, 4}, 5), T(r, {3, 4}), "prod", true};
       }},
      {"scatter_reduce_amax", O::scatter_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(0), r.ints({2, 5}, 3), T(r, {2, 5}), "amax", true};
       }},
      {"scatter_reduce_amin", O::scatter_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(1), r.ints({3, 4}, 5), T(r, {3, 4}), "amin", false};
       }},
      {"index_reduce_mean", O::index_reduce, [=](Rand& r) {
         return Args{T(r, {5, 3}), int64_t(0), Tensor::from_doubles({0, 4, 2, 0}, {4}, DType::int64), T(r, {4, 3}), "mean", true};
       }},
      {"index_reduce_amax", O::index_reduce, [=](Rand& r) {
         return Args{T(r, {3, 5}), int64_t(1), Tensor::from_doubles({1, 3, 1}, {3}, DType::int64), T(r, {3, 3}), "amax", false};
       }},
      {"as_strided", O::as_strided, [=](Rand& r) { return Args{T(r, {6}), Dims{2, 2}, Dims{1, 2}, int64_t(1)}; }},
      {"as_strided_overlapping", O::as_strided, [=](Rand& r) { return Args{T(r, {2, 3}), Dims{3, 2}, Dims{1, 1}, none}; }},
      {"as_strided_scatter", O::as_strided_scatter, [=](Rand& r) {
         return Args{T(r, {2, 3}), T(r, {2, 2}), Dims{2, 2}, Dims{1, 2}, int64_t(1)};
       }},
      {"diagonal", O::diagonal, [=](Rand& r) { return Args{T(r, {3, 4, 5}), int64_t(1), int64_t(2), int64_t(0)}; }},
      {"diagonal_backward", O::diagonal_backward, [=](Rand& r) {
         return Args{T(r, {4, 3}), Dims{3, 4, 5}, int64_t(-1), int64_t(2), int64_t(0)};
       }},
      {"masked_select", O::masked_select, [=](Rand& r) {
         return Args{T(r, {2, 3}), Tensor::from_doubles({1, 0, 1}, {3}, DType::bool_)};
       }},
      {"diag_vector", O::diag, [=](Rand& r) { return Args{T(r, {3}), int64_t(-2)}; }},
      {"diag_matrix", O::diag, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1)}; }},
      {"slice_backward", O::slice_backward, [=](Rand& r) {
         return Args{T(r, {2, 3}), Dims{5, 3}, int64_t(0), int64_t(1), int64_t(5), int64_t(2)};
       }},
      {"select_backward", O::select_backward, [=](Rand& r) { return Args{T(r, {3}), Dims{4, 3}, int64_t(0), int64_t(2)}; }},
      {"threshold_backward", O::threshold_backward, [=](Rand& r) {
         return Args{T(r, {2, 3}), T(r, {2, 3}), 0.25};
       }, {1}},
      {"gelu_backward", O::gelu_backward, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2, 3}), "none"}; }},
      {"gelu_backward_tanh", O::gelu_backward, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {2, 3}), "tanh"}; }},
      {"avg_pool2d_backward", O::avg_pool2d_backward, [=](Rand& r) {
         return Args{T(r, {1, 2, 3, 3}), Dims{1, 2, 5, 5}, Dims{3, 3}, Dims{2, 2}, Dims{1, 1}, true, false, none};
       }},
      {"adaptive_avg_pool2d_backward", O::adaptive_avg_pool2d_backward, [=](Rand& r) {
         return Args{T(r, {1, 2, 3, 4}), Dims{1, 2, 5, 7}};
       }},
      {"max_pool2d_backward", O::max_pool2d_backward, [=](Rand& r) {
         return Args{T(r, {1, 2, 3, 2}), T(r, {1, 2, 6, 5}), Dims{2, 2}, Dims{}, Dims{0}, Dims{1}, false};
       }},
      {"max_pool2d_backward_overlap", O::max_pool2d_backward, [=](Rand& r) {
         return Args{T(r, {2, 3, 3}), T(r, {2, 5, 6}), Dims{3, 2}, Dims{2, 2}, Dims{1, 0}, Dims{1}, true};
       }},
      {"convolution_backward_input", O::convolution_backward_input, [=](Rand& r) {
         return Args{T(r, {2, 3, 4, 2}), T(r, {3, 2, 3, 2}), Dims{2, 2, 6, 5}, Dims{1, 2}, Dims{1, 0}, Dims{2, 1}, false,
                     Dims{}, int64_t(1)};
       }},
      {"convolution_backward_input_transposed", O::convolution_backward_input, [=](Rand& r) {
         return Args{T(r, {1, 3, 7, 6}), T(r, {2, 3, 2, 3}), Dims{1, 2, 3, 4}, Dims{2, 1}, Dims{0, 1}, Dims{1, 2}, true,
                     Dims{1, 0}, int64_t(1)};
       }},
      {"convolution_backward_weight", O::convolution_backward_weight, [=](Rand& r) {
         return Args{T(r, {2, 3, 4, 2}), T(r, {2, 2, 6, 5}), Dims{3, 2, 3, 2}, Dims{1, 2}, Dims{1, 0}, Dims{2, 1}, false,
                     Dims{}, int64_t(1)};
       }},
      {"convolution_backward_weight_grouped", O::convolution_backward_weight, [=](Rand& r) {
         return Args{T(r, {2, 6, 4}), T(r, {2, 4, 7}), Dims{6, 2, 3}, Dims{2}, Dims{1}, Dims{1}, false, Dims{}, int64_t(2)};
       }},
      {"convolution_backward_weight_transposed", O::convolution_backward_weight, [=](Rand& r) {
         return Args{T(r, {1, 3, 7, 6}), T(r, {1, 2, 3, 4}), Dims{2, 3, 2, 3}, Dims{2, 1}, Dims{0, 1}, Dims{1, 2}, true,
                     Dims{1, 0}, int64_t(1)};
       }},
  };
  for (Sample& s : util_samples()) v.push_back(std::move(s));
  for (Sample& s : elementwise_extra_samples()) v.push_back(std::move(s));
  return v;
}

}  // namespace amps::rt::gradcheck
