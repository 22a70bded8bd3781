// The window functions, scalar_tensor, vander, combinations and the trapezoid rules defined by their math (see
// util_composites.hpp).
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

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
constexpr double kPi = std::numbers::pi;

// The symmetric window's value at n of N points (N > 1), for each window kind.
using WindowFormula = double (*)(int64_t n, int64_t N, const ArgReader& a);

double bartlett(int64_t n, int64_t N, const ArgReader&) { return 1.0 - std::abs(2.0 * double(n) / double(N - 1) - 1.0); }
double blackman(int64_t n, int64_t N, const ArgReader&) {
  const double t = 2.0 * kPi * double(n) / double(N - 1);
  return 0.42 - 0.5 * std::cos(t) + 0.08 * std::cos(2.0 * t);
}
double hamming(int64_t n, int64_t N, const ArgReader& a) {
  return a.f64(2) - a.f64(3) * std::cos(2.0 * kPi * double(n) / double(N - 1));
}
double hann(int64_t n, int64_t N, const ArgReader&) { return 0.5 - 0.5 * std::cos(2.0 * kPi * double(n) / double(N - 1)); }
// The modified Bessel function I0 (even in x; NaN for NaN, infinite where it overflows).
double bessel_i0(double x) {
  if (std::isnan(x)) return x;
  try {
    return std::cyl_bessel_i(0.0, std::abs(x));
  } catch (const std::exception&) {
    return INFINITY;
  }
}
double kaiser(int64_t n, int64_t N, const ArgReader& a) {
  const double beta = a.f64(2), half = double(N - 1) / 2.0, r = (double(n) - half) / half;
  return bessel_i0(beta * std::sqrt(std::max(0.0, 1.0 - r * r))) / bessel_i0(beta);
}

// A window of window_length points (args: window_length, periodic, [the kind's parameters], dtype, device,
// requires_grad, the last three found from the end): computed in double on the host, as PyTorch's window functions
// define it (periodic: the symmetric window of window_length + 1 points without its last).
Tensors window(Args& args, OpId op, const char* name, WindowFormula f) {
  ArgReader a(op, args);
  const size_t n_args = args.size();
  const int64_t length = a.i64(0);
  AMPS_CHECK(length >= 0, "{} requires non-negative window_length, got window_length={}", name, length);
  const DType dt = a.opt_dtype(n_args - 3).value_or(default_dtype());
  AMPS_CHECK(is_floating(dt), "{} expects floating point dtypes, got: {}", name, dtype_name(dt));
  const Device dev = a.opt_device(n_args - 2).value_or(Device::cpu());
  const int64_t N = a.boolean(1) ? length + 1 : length;
  std::vector<double> values(size_t(length), 1.0);
  if (length > 1)
    for (int64_t n = 0; n < length; ++n) values[size_t(n)] = f(n, N, a);
  Tensor t = Tensor::from_doubles(values, {length}, dt, dev);
  if (a.boolean(n_args - 1)) t.set_requires_grad(true);
  return {t};
}

// y with dim [d] removed, zero-filled (the integral over no samples).
Tensor zeros_without(const Tensor& y, int64_t d) {
  Dims sizes = y.sizes();
  sizes.erase(sizes.begin() + d);
  return zeros(sizes, y.dtype(), y.device());
}

void check_not_bool(const Tensor& y, const Tensor* x, const char* name) {
  const bool bx = x && x->dtype() == DType::bool_, by = y.dtype() == DType::bool_;
  AMPS_CHECK(!bx && !by, "{}: received a bool input for `{}`, but bool is not supported", name,
             bx && by ? "x` or `y" : bx ? "x" : "y");
}

// The spacings x[i+1] - x[i] along [d] of y, with 1-D x laid along d and a shorter x padded with leading dims.
Tensor spacings(const Tensor& y, const Tensor& x, int64_t d, const char* name) {
  Tensor xv = x;
  if (x.dim() == 1) {
    AMPS_CHECK(x.size(0) == y.size(d), "{}: There must be one `x` value for each sample point", name);
    Dims sizes(size_t(y.dim()), 1);
    sizes[size_t(d)] = x.size(0);
    xv = x.reshape(sizes);
  } else if (x.dim() < y.dim()) {
    Dims sizes(size_t(y.dim() - x.dim()), 1);
    sizes.insert(sizes.end(), x.sizes().begin(), x.sizes().end());
    xv = x.reshape(sizes);
  }
  return sub(xv.slice(d, 1, std::nullopt), xv.slice(d, 0, -1));
}

// [s] as a 0-dim tensor that promotes as a Python number (PyTorch's formulas use Python numbers there).
Tensor number(Scalar s) {
  Tensor t = Tensor::scalar(s);
  t.impl()->is_wrapped_number = true;
  return t;
}

// The trapezoids' areas along [d]: (y[i] + y[i+1]) * dx / 2 (dx a tensor or a number).
Tensor areas(const Tensor& y, const Tensor& dx, int64_t d) {
  return div(mul(add(y.slice(d, 1, std::nullopt), y.slice(d, 0, -1)), dx), number(Scalar(2.0)));
}

// The Vandermonde columns' dtype: x's promoted with int64 (bool and int32 give int64).
DType vander_dtype(DType t) { return promote(t, DType::int64); }

// How many r-element combinations n elements have (with repetition: those of n + r - 1 elements), as a double.
double combination_count(int64_t n, int64_t r, bool repeat) {
  const int64_t m = repeat ? n + r - 1 : n;
  if (r > m) return 0;
  double count = 1;
  for (int64_t i = 0; i < r; ++i) count = count * double(m - i) / double(i + 1);
  return count;
}

// The r-element index tuples of n elements in itertools order (with_replacement: indices may repeat), flattened.
void index_tuples(int64_t n, int64_t r, bool repeat, std::vector<int64_t>& cur, std::vector<double>& out) {
  if (int64_t(cur.size()) == r) {
    out.insert(out.end(), cur.begin(), cur.end());
    return;
  }
  const int64_t from = cur.empty() ? 0 : cur.back() + (repeat ? 0 : 1);
  for (int64_t i = from; i < n; ++i) {
    cur.push_back(i);
    index_tuples(n, r, repeat, cur, out);
    cur.pop_back();
  }
}

}  // namespace

Tensors bartlett_window_math(Args& args) { return window(args, O::bartlett_window, "bartlett_window", bartlett); }
Tensors blackman_window_math(Args& args) { return window(args, O::blackman_window, "blackman_window", blackman); }
Tensors hamming_window_math(Args& args) { return window(args, O::hamming_window, "hamming_window", hamming); }
Tensors hann_window_math(Args& args) { return window(args, O::hann_window, "hann_window", hann); }
Tensors kaiser_window_math(Args& args) { return window(args, O::kaiser_window, "kaiser_window", kaiser); }

// scalar_tensor(s, dtype=None): a 0-dim tensor of s, of the default dtype unless dtype says otherwise (not s's own
// type).
Tensors scalar_tensor_math(Args& args) {
  ArgReader a(O::scalar_tensor, args);
  Tensor t = full({}, a.scalar(0), a.opt_dtype(1).value_or(default_dtype()), a.opt_device(2).value_or(Device::cpu()));
  if (a.boolean(3)) t.set_requires_grad(true);
  return {t};
}

// vander(x, N=None, increasing=False): columns 1, x, x^2, ... as running products (PyTorch's cumprod form, so the
// gradient follows), reversed unless increasing.
Tensors vander_math(Args& args) {
  ArgReader a(O::vander, args);
  const Tensor& x = a.tensor(0);
  AMPS_CHECK(x.dim() == 1, "x must be a one-dimensional tensor.");
  const int64_t n = a.opt_i64(1).value_or(x.size(0));
  AMPS_CHECK(n >= 0, "N must be non-negative.");
  const DType dt = vander_dtype(x.dtype());
  Tensor result = ones({x.size(0), std::min<int64_t>(n, 1)}, dt, x.device());
  if (n > 1) {
    const Tensor cols = x.to(dt).unsqueeze(1).expand({x.size(0), n - 1});
    result = cat({result, call_op(O::cumprod, cols, int64_t(1))}, 1);
  }
  return {a.boolean(2) ? result : call_op(O::flip, result, Dims{1})};
}

// combinations(input, r=2, with_replacement=False): the r-element combinations of 1-D input's elements, one per
// row, in itertools.combinations(_with_replacement) order; selected from input, so the gradient follows.
Tensors combinations_math(Args& args) {
  ArgReader a(O::combinations, args);
  const Tensor& x = a.tensor(0);
  const int64_t r = a.i64(1);
  AMPS_CHECK(x.dim() == 1, "Expect a 1D vector, but got shape {}", list_shape(x.sizes()));
  AMPS_CHECK(r >= 0, "Expect a non-negative number, but got {}", r);
  if (r == 0) return {Tensor::empty({0}, x.dtype(), x.device())};
  const double rows_wanted = combination_count(x.size(0), r, a.boolean(2));
  AMPS_CHECK(rows_wanted * double(r) <= 1e9, "combinations: {} combinations of {} elements would not fit in memory",
             rows_wanted, r);
  std::vector<int64_t> cur;
  std::vector<double> flat;
  index_tuples(x.size(0), r, a.boolean(2), cur, flat);
  const int64_t rows = int64_t(flat.size()) / r;
  const Tensor index = Tensor::from_doubles(flat, {int64_t(flat.size())}, DType::int64, x.device());
  return {index_select(x, 0, index).reshape({rows, r})};
}

// trapezoid(y, x, dim=-1): the sum of the trapezoids between consecutive samples at the points x.
Tensors trapezoid_math(Args& args) {
  ArgReader a(O::trapezoid, args);
  const Tensor &y = a.tensor(0), &x = a.tensor(1);
  const int64_t d = wrap_dim(a.i64(2), y.dim());
  if (y.size(d) == 0) return {zeros_without(y, d)};
  check_not_bool(y, &x, "trapezoid");
  return {sum(areas(y, spacings(y, x, d, "trapezoid"), d), Dims{d})};
}

// trapezoid(y, dx=1, dim=-1): PyTorch's form for even spacing, (sum(y) - (y[0] + y[-1]) / 2) * dx.
Tensors trapezoid_dx_math(Args& args) {
  ArgReader a(O::trapezoid_dx, args);
  const Tensor& y = a.tensor(0);
  const int64_t d = wrap_dim(a.i64(2), y.dim());
  if (y.size(d) == 0) return {zeros_without(y, d)};
  check_not_bool(y, nullptr, "trapezoid");
  const Tensor ends = mul(add(y.select(d, 0), y.select(d, -1)), number(Scalar(0.5)));
  return {mul(sub(sum(y, Dims{d}), ends), number(a.scalar(1)))};
}

// cumulative_trapezoid(y, x, dim=-1): the running sums of the trapezoids at the points x (one fewer along dim).
Tensors cumulative_trapezoid_math(Args& args) {
  ArgReader a(O::cumulative_trapezoid, args);
  const Tensor &y = a.tensor(0), &x = a.tensor(1);
  const int64_t d = wrap_dim(a.i64(2), y.dim());
  check_not_bool(y, &x, "cumulative_trapezoid");
  return {call_op(O::cumsum, areas(y, spacings(y, x, d, "cumulative_trapezoid"), d), d)};
}

// cumulative_trapezoid(y, dx=1, dim=-1): the running sums of dx / 2 * (y[i] + y[i+1]).
Tensors cumulative_trapezoid_dx_math(Args& args) {
  ArgReader a(O::cumulative_trapezoid_dx, args);
  const Tensor& y = a.tensor(0);
  const int64_t d = wrap_dim(a.i64(2), y.dim());
  check_not_bool(y, nullptr, "cumulative_trapezoid");
  const Tensor half_dx = number(Scalar(a.scalar(1).to_double() / 2.0));
  const Tensor pairs = add(y.slice(d, 1, std::nullopt), y.slice(d, 0, -1));
  return {call_op(O::cumsum, mul(half_dx, pairs), d)};
}

}  // namespace amps::rt::common
