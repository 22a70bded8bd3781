// Typed wrappers over dispatch(): argument order and defaults mirror the schemas in ops.def.
#include "runtime/functions.hpp"

#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt {

using O = OpId;
using std::nullopt;

Tensor zeros(const Dims& s, DType dt, Device d) { return call_op(O::zeros, s, dt, d); }
Tensor ones(const Dims& s, DType dt, Device d) { return call_op(O::ones, s, dt, d); }
Tensor full(const Dims& s, Scalar v, std::optional<DType> dt, Device d) { return call_op(O::full, s, v, dt, d); }
Tensor arange(Scalar start, std::optional<Scalar> end, Scalar step, std::optional<DType> dt, Device d) {
  return call_op(O::arange, start, end, step, dt, d);
}
Tensor eye(int64_t n, std::optional<int64_t> m, DType dt, Device d) { return call_op(O::eye, n, m, dt, d); }
Tensor rand(const Dims& s, DType dt, Device d) { return call_op(O::rand, s, dt, d); }
Tensor randn(const Dims& s, DType dt, Device d) { return call_op(O::randn, s, dt, d); }
Tensor randint(int64_t lo, int64_t hi, const Dims& s, DType dt, Device d) {
  return call_op(O::randint, lo, hi, s, dt, d);
}
Tensor randperm(int64_t n, DType dt, Device d) { return call_op(O::randperm, n, dt, d); }
Tensor zeros_like(const Tensor& t) { return call_op(O::zeros_like, t); }
Tensor ones_like(const Tensor& t) { return call_op(O::ones_like, t); }
Tensor full_like(const Tensor& t, Scalar v) { return call_op(O::full_like, t, v); }
void manual_seed(uint64_t seed) { current_context().manual_seed(seed); }

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha) { return call_op(O::add, a, b, alpha); }
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha) { return call_op(O::sub, a, b, alpha); }
Tensor mul(const Tensor& a, const Tensor& b) { return call_op(O::mul, a, b); }
Tensor div(const Tensor& a, const Tensor& b, std::optional<std::string> mode) { return call_op(O::div, a, b, mode); }
Tensor pow(const Tensor& a, const Tensor& e) { return call_op(O::pow, a, e); }
Tensor maximum(const Tensor& a, const Tensor& b) { return call_op(O::maximum, a, b); }
Tensor minimum(const Tensor& a, const Tensor& b) { return call_op(O::minimum, a, b); }
Tensor eq(const Tensor& a, const Tensor& b) { return call_op(O::eq, a, b); }
Tensor ne(const Tensor& a, const Tensor& b) { return call_op(O::ne, a, b); }
Tensor lt(const Tensor& a, const Tensor& b) { return call_op(O::lt, a, b); }
Tensor le(const Tensor& a, const Tensor& b) { return call_op(O::le, a, b); }
Tensor gt(const Tensor& a, const Tensor& b) { return call_op(O::gt, a, b); }
Tensor ge(const Tensor& a, const Tensor& b) { return call_op(O::ge, a, b); }
Tensor eq(const Tensor& a, Scalar b) { return call_op(O::eq, a, b); }
Tensor ne(const Tensor& a, Scalar b) { return call_op(O::ne, a, b); }
Tensor lt(const Tensor& a, Scalar b) { return call_op(O::lt, a, b); }
Tensor le(const Tensor& a, Scalar b) { return call_op(O::le, a, b); }
Tensor gt(const Tensor& a, Scalar b) { return call_op(O::gt, a, b); }
Tensor ge(const Tensor& a, Scalar b) { return call_op(O::ge, a, b); }
Tensor neg(const Tensor& a) { return call_op(O::neg, a); }
Tensor abs(const Tensor& a) { return call_op(O::abs, a); }
Tensor sqrt(const Tensor& a) { return call_op(O::sqrt, a); }
Tensor rsqrt(const Tensor& a) { return call_op(O::rsqrt, a); }
Tensor exp(const Tensor& a) { return call_op(O::exp, a); }
Tensor log(const Tensor& a) { return call_op(O::log, a); }
Tensor tanh(const Tensor& a) { return call_op(O::tanh, a); }
Tensor sigmoid(const Tensor& a) { return call_op(O::sigmoid, a); }
Tensor relu(const Tensor& a) { return call_op(O::relu, a); }
Tensor gelu(const Tensor& a, const std::string& approximate) { return call_op(O::gelu, a, approximate); }
Tensor silu(const Tensor& a) { return call_op(O::silu, a); }
Tensor clamp(const Tensor& a, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  return call_op(O::clamp, a, lo, hi);
}
Tensor where(const Tensor& c, const Tensor& a, const Tensor& b) { return call_op(O::where, c, a, b); }
Tensor masked_fill(const Tensor& a, const Tensor& m, Scalar v) { return call_op(O::masked_fill, a, m, v); }
Tensor isfinite(const Tensor& a) { return call_op(O::isfinite, a); }
Tensor addcmul(const Tensor& a, const Tensor& t1, const Tensor& t2, Scalar v) {
  return call_op(O::addcmul, a, t1, t2, v);
}
Tensor addcdiv(const Tensor& a, const Tensor& t1, const Tensor& t2, Scalar v) {
  return call_op(O::addcdiv, a, t1, t2, v);
}
Tensor lerp(const Tensor& a, const Tensor& e, const Tensor& w) { return call_op(O::lerp, a, e, w); }

Tensor& add_(Tensor& a, const Tensor& b, Scalar alpha) { call_op(O::add_, a, b, alpha); return a; }
Tensor& sub_(Tensor& a, const Tensor& b, Scalar alpha) { call_op(O::sub_, a, b, alpha); return a; }
Tensor& mul_(Tensor& a, const Tensor& b) { call_op(O::mul_, a, b); return a; }
Tensor& div_(Tensor& a, const Tensor& b) { call_op(O::div_, a, b); return a; }
Tensor& addcmul_(Tensor& a, const Tensor& t1, const Tensor& t2, Scalar v) {
  call_op(O::addcmul_, a, t1, t2, v);
  return a;
}
Tensor& addcdiv_(Tensor& a, const Tensor& t1, const Tensor& t2, Scalar v) {
  call_op(O::addcdiv_, a, t1, t2, v);
  return a;
}
Tensor& lerp_(Tensor& a, const Tensor& e, const Tensor& w) { call_op(O::lerp_, a, e, w); return a; }
Tensor& clamp_(Tensor& a, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  call_op(O::clamp_, a, lo, hi);
  return a;
}

Tensor sum(const Tensor& a, std::optional<Dims> dim, bool keepdim, std::optional<DType> dt) {
  return call_op(O::sum, a, dim, keepdim, dt);
}
Tensor mean(const Tensor& a, std::optional<Dims> dim, bool keepdim) { return call_op(O::mean, a, dim, keepdim); }
Tensor prod(const Tensor& a, std::optional<int64_t> dim, bool keepdim) { return call_op(O::prod, a, dim, keepdim); }
Tensor max(const Tensor& a) { return call_op(O::max, a); }
Tensor min(const Tensor& a) { return call_op(O::min, a); }
std::pair<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim) {
  Tensors r = dispatch(O::max_dim, Args{a, dim, keepdim});
  return {r[0], r[1]};
}
std::pair<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim) {
  Tensors r = dispatch(O::min_dim, Args{a, dim, keepdim});
  return {r[0], r[1]};
}
Tensor argmax(const Tensor& a, std::optional<int64_t> d, bool k) { return call_op(O::argmax, a, d, k); }
Tensor argmin(const Tensor& a, std::optional<int64_t> d, bool k) { return call_op(O::argmin, a, d, k); }
Tensor var(const Tensor& a, std::optional<Dims> dim, int64_t correction, bool keepdim) {
  return call_op(O::var, a, dim, correction, keepdim);
}
Tensor std(const Tensor& a, std::optional<Dims> dim, int64_t correction, bool keepdim) {
  return call_op(O::std, a, dim, correction, keepdim);
}
Tensor norm(const Tensor& a, Scalar p, std::optional<Dims> dim, bool keepdim) {
  return call_op(O::norm, a, p, dim, keepdim);
}
Tensor all(const Tensor& a) { return call_op(O::all, a); }
Tensor any(const Tensor& a) { return call_op(O::any, a); }

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) { return call_op(O::cat, ts, dim); }
Tensor stack(const std::vector<Tensor>& ts, int64_t dim) { return call_op(O::stack, ts, dim); }
Tensor index_select(const Tensor& a, int64_t d, const Tensor& i) { return call_op(O::index_select, a, d, i); }
Tensor index_copy(const Tensor& a, int64_t d, const Tensor& i, const Tensor& s) {
  return call_op(O::index_copy, a, d, i, s);
}
Tensor embedding(const Tensor& input, const Tensor& weight) { return call_op(O::embedding, input, weight); }
Tensor one_hot(const Tensor& input, int64_t n) { return call_op(O::one_hot, input, n); }

Tensor matmul(const Tensor& a, const Tensor& b) { return call_op(O::matmul, a, b); }
Tensor mm(const Tensor& a, const Tensor& b) { return call_op(O::mm, a, b); }
Tensor bmm(const Tensor& a, const Tensor& b) { return call_op(O::bmm, a, b); }
Tensor addmm(const Tensor& in, const Tensor& m1, const Tensor& m2, Scalar beta, Scalar alpha) {
  return call_op(O::addmm, in, m1, m2, beta, alpha);
}
Tensor linear(const Tensor& in, const Tensor& w, const Tensor& b) {
  return call_op(O::linear, in, w, b.defined() ? IValue(b) : IValue());
}
Tensor conv2d(const Tensor& in, const Tensor& w, const Tensor& b, Dims stride, Dims padding, Dims dilation,
              int64_t groups) {
  return call_op(O::conv2d, in, w, b.defined() ? IValue(b) : IValue(), stride, padding, dilation, groups);
}
Tensor max_pool2d(const Tensor& in, Dims k, Dims s, Dims p) { return call_op(O::max_pool2d, in, k, s, p); }
Tensor avg_pool2d(const Tensor& in, Dims k, Dims s, Dims p) { return call_op(O::avg_pool2d, in, k, s, p); }
Tensor softmax(const Tensor& a, int64_t dim) { return call_op(O::softmax, a, dim); }
Tensor log_softmax(const Tensor& a, int64_t dim) { return call_op(O::log_softmax, a, dim); }
Tensor layer_norm(const Tensor& in, Dims shape, const Tensor& w, const Tensor& b, double eps) {
  return call_op(O::layer_norm, in, shape, w.defined() ? IValue(w) : IValue(), b.defined() ? IValue(b) : IValue(),
                 eps);
}
Tensor dropout(const Tensor& in, double p, bool training) { return call_op(O::dropout, in, p, training); }
Tensor cross_entropy(const Tensor& in, const Tensor& target, const std::string& reduction, double smoothing) {
  return call_op(O::cross_entropy, in, target, IValue(), int64_t(-100), reduction, smoothing);
}
Tensor mse_loss(const Tensor& in, const Tensor& target, const std::string& reduction) {
  return call_op(O::mse_loss, in, target, reduction);
}

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor operator-(const Tensor& a) { return neg(a); }
Tensor operator+(const Tensor& a, Scalar b) { return call_op(O::add, a, b); }
Tensor operator-(const Tensor& a, Scalar b) { return call_op(O::sub, a, b); }
Tensor operator*(const Tensor& a, Scalar b) { return call_op(O::mul, a, b); }
Tensor operator/(const Tensor& a, Scalar b) { return call_op(O::div, a, b); }

}  // namespace amps::rt
