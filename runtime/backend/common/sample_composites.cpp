// torch.normal's overloads, randint_like and the in-place samplers random_, cauchy_, exponential_, geometric_ and
// log_normal_ defined by their math on rand/randn/randint draws (see util_composites.hpp).
#include <cmath>
#include <limits>
#include <numbers>

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/common/util_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// The dtype uniform/normal draws for [t] are made in: float64 for float64, float32 for the rest.
DType draw_dtype(const Tensor& t) { return t.dtype() == DType::float64 ? DType::float64 : DType::float32; }

// [name]'s refusal of a non-floating tensor, as PyTorch's kernel dispatch words it.
void check_floating(DType dt, const char* name) {
  AMPS_CHECK(is_floating(dt), "\"{}_cpu\" not implemented for '{}'", name, torch_type_name(dt));
}
void check_floating(const Tensor& t, const char* name) { check_floating(t.dtype(), name); }

// Uniform [0, 1) draws shaped like [t], in draw_dtype(t).
Tensor uniform_like(const Tensor& t) { return rand(t.sizes(), draw_dtype(t), t.device()); }

// [t] overwritten with [values] (converted to its dtype); t comes back.
Tensors overwrite(const Tensor& t, const Tensor& values) {
  call_op(O::copy_, t, values);
  return {t};
}

// Draws of mean + std * N(0, 1) of the broadcast shape, in [dt], on [dev].
Tensor normal_draws(const Tensor& mean, const Tensor& std, DType dt, Device dev) {
  const Dims shape = infer_size(mean.sizes(), std.sizes());
  const Tensor eps = randn(shape, dt, dev);
  return add(mean.to(dt), mul(std.to(dt), eps));
}

// The largest integer random_() draws for [t]'s dtype: 2^digits for floats (every integer up to it is exact), the
// dtype's maximum for integers (int64's is drawn up to max - 1, a range of 2^63 draws).
int64_t random_top(DType dt) {
  switch (dt) {
    case DType::float64: return int64_t(1) << 53;
    case DType::float32: return int64_t(1) << 24;
    case DType::float16: return int64_t(1) << 11;
    case DType::bfloat16: return int64_t(1) << 8;
    case DType::int32: return std::numeric_limits<int32_t>::max();
    case DType::int16: return std::numeric_limits<int16_t>::max();
    case DType::int8: return std::numeric_limits<int8_t>::max();
    case DType::uint8: return std::numeric_limits<uint8_t>::max();
    case DType::bool_: return 1;
    default: return std::numeric_limits<int64_t>::max() - 1;
  }
}

// [t] filled with uniform integers in [from, to) (drawn as int64, converted to t's dtype).
Tensors fill_integers(const Tensor& t, int64_t from, int64_t to) {
  AMPS_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, to);
  int64_t width = 0;
  AMPS_CHECK(!__builtin_sub_overflow(to, from, &width), "random_: the range [{}, {}) is wider than int64 can count",
             from, to);
  return overwrite(t, randint(from, to, t.sizes(), DType::int64, t.device()));
}

}  // namespace

// normal(mean, std) with tensors (or one number): mean + std * N(0, 1) per element of the broadcast shape, in mean's
// dtype (std's when mean is a number); both numbers is torch's refusal (a size is needed then).
Tensors normal_tensor_tensor_math(Args& args) {
  ArgReader a(O::normal_tensor_tensor, args);
  const Tensor mean = a.tensor(0), std = a.tensor(1);
  const bool mean_number = mean.impl()->is_wrapped_number, std_number = std.impl()->is_wrapped_number;
  AMPS_CHECK_TYPE(!mean_number || !std_number, "normal() received an invalid combination of arguments - got "
                  "(float, float), but expected one of:\n * (Tensor mean, Tensor std)\n * (Tensor mean, float std)\n"
                  " * (float mean, Tensor std)\n * (float mean, float std, tuple of ints size, *, dtype, device, "
                  "requires_grad)");
  const Tensor& like = mean_number ? std : mean;
  check_floating(like, "normal_kernel");
  if (std_number) AMPS_CHECK(std.item<double>() >= 0, "normal expects std >= 0.0, but found std {}", std.item<double>());
  else AMPS_CHECK(!any(lt(std, Scalar(0.0))).item<bool>(), "normal expects all elements of std >= 0.0");
  return {normal_draws(mean, std, like.dtype(), like.device())};
}

// normal(mean, std=1.0) with a tensor mean and a number std.
Tensors normal_tensor_float_math(Args& args) {
  ArgReader a(O::normal_tensor_float, args);
  const Tensor mean = a.tensor(0);
  const double std = a.f64(1);
  check_floating(mean, "normal_kernel");
  AMPS_CHECK(std >= 0, "normal expects std >= 0.0, but found std {}", std);
  return {normal_draws(mean, Tensor::scalar(Scalar(std), mean.dtype(), mean.device()), mean.dtype(), mean.device())};
}

// normal(mean, std, size, dtype=None, device=None, requires_grad=False): draws of the given size.
Tensors normal_float_float_math(Args& args) {
  ArgReader a(O::normal_float_float, args);
  const double mean = a.f64(0), std = a.f64(1);
  AMPS_CHECK(std >= 0, "normal expects std >= 0.0, but found std {}", std);
  const DType dt = a.opt_dtype(3).value_or(default_dtype());
  check_floating(dt, "normal_kernel");
  Tensor t = randn(a.ints(2), dt, a.opt_device(4).value_or(Device::cpu()));
  t = add(mul(t, Tensor::scalar(Scalar(std), dt)), Tensor::scalar(Scalar(mean), dt));
  if (a.boolean(5)) t.set_requires_grad(true);
  return {t};
}

// randint_like(input, [low,] high, dtype=None, device=None, requires_grad=False).
Tensors randint_like_math(Args& args) {
  const bool low = args.size() == 6;
  ArgReader a(low ? O::randint_like_low : O::randint_like, args);
  const Tensor& x = a.tensor(0);
  const size_t o = low ? 1 : 0;
  const int64_t from = low ? a.i64(1) : 0, to = a.i64(1 + o);
  AMPS_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, to);
  const DType dt = a.opt_dtype(2 + o).value_or(x.dtype());
  Tensor t = randint(from, to, x.sizes(), DType::int64, a.opt_device(3 + o).value_or(x.device())).to(dt);
  if (a.boolean(4 + o)) t.set_requires_grad(true);
  return {t};
}

// randint(high, size, dtype=None, device=None): randint(0, high, size), PyTorch's two-argument form.
Tensors randint_high_math(Args& args) {
  ArgReader a(O::randint_high, args);
  const int64_t high = a.i64(0);
  AMPS_CHECK(high > 0, "random_ expects 'from' to be less than 'to', but got from=0 >= to={}", high);
  return {randint(0, high, a.ints(1), a.opt_dtype(2).value_or(DType::int64), a.opt_device(3).value_or(Device::cpu()))};
}

Tensors random__math(Args& args) {
  ArgReader a(O::random_, args);
  const Tensor& t = a.tensor(0);
  return fill_integers(t, 0, random_top(t.dtype()) + 1);
}

Tensors random__to_math(Args& args) {
  ArgReader a(O::random__to, args);
  return fill_integers(a.tensor(0), 0, a.i64(1));
}

Tensors random__from_math(Args& args) {
  ArgReader a(O::random__from, args);
  const Tensor& t = a.tensor(0);
  return fill_integers(t, a.i64(1), a.opt_i64(2).value_or(random_top(t.dtype()) + 1));
}

// cauchy_(median=0, sigma=1): median + sigma * tan(pi * (u - 1/2)).
Tensors cauchy__math(Args& args) {
  ArgReader a(O::cauchy_, args);
  const Tensor& t = a.tensor(0);
  const double median = a.f64(1), sigma = a.f64(2);
  check_floating(t, "cauchy");
  const Tensor angle = (uniform_like(t) - Scalar(0.5)) * Scalar(std::numbers::pi);
  return overwrite(t, call_op(O::tan, angle) * Scalar(sigma) + Scalar(median));
}

// exponential_(lambd=1): -log(1 - u) / lambd.
Tensors exponential__math(Args& args) {
  ArgReader a(O::exponential_, args);
  const Tensor& t = a.tensor(0);
  const double lambd = a.f64(1);
  check_floating(t, "exponential");
  AMPS_CHECK(lambd >= 0.0, "exponential_ expects lambda >= 0.0, but found lambda={}", lambd);
  return overwrite(t, call_op(O::log1p, neg(uniform_like(t))) / Scalar(-lambd));
}

// geometric_(p): ceil(log(1 - u) / log(1 - p)), at least 1 (the trial of the first success); integer tensors too.
Tensors geometric__math(Args& args) {
  ArgReader a(O::geometric_, args);
  const Tensor& t = a.tensor(0);
  const double p = a.f64(1);
  AMPS_CHECK(p > 0.0 && p < 1.0, "geometric_ expects p to be in (0, 1), but got p={}", p);
  const Tensor u = rand(t.sizes(), DType::float64, t.device());
  const Tensor trials = call_op(O::ceil, call_op(O::log1p, neg(u)) / Scalar(std::log1p(-p)));
  return overwrite(t, clamp(trials, Scalar(1.0), std::nullopt));
}

// log_normal_(mean=1, std=2): exp(mean + std * N(0, 1)).
Tensors log_normal__math(Args& args) {
  ArgReader a(O::log_normal_, args);
  const Tensor& t = a.tensor(0);
  const double mean = a.f64(1), std = a.f64(2);
  check_floating(t, "log_normal");
  AMPS_CHECK(std > 0.0, "log_normal_ expects std > 0.0, but found std={}", std);
  return overwrite(t, exp(randn(t.sizes(), draw_dtype(t), t.device()) * Scalar(std) + Scalar(mean)));
}

}  // namespace amps::rt::common
