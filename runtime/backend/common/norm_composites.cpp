#include "runtime/backend/common/norm_composites.hpp"

#include <limits>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// The row pairs (i, j), i < j, of [n] rows in row-major order, as two int64 index vectors on [dev].
std::pair<Tensor, Tensor> upper_pairs(int64_t n, Device dev) {
  const int64_t count = n * (n - 1) / 2;
  Tensor first = Tensor::empty({count}, DType::int64), second = Tensor::empty({count}, DType::int64);
  int64_t* f = first.data<int64_t>();
  int64_t* s = second.data<int64_t>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) *f++ = i, *s++ = j;
  return {first.to(dev), second.to(dev)};
}

std::string dims_text(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace

// dist(input, other, p=2): the p-norm of input - other (broadcast), a 0-dim tensor.
Tensors dist_math(Args& args) {
  ArgReader a(O::dist, args);
  return {norm(sub(a.tensor(0), a.tensor(1)), a.scalar(2))};
}

// pdist(input [N, M], p=2): the p-norm distance of every row pair i < j, [N (N - 1) / 2] in row-major pair order.
Tensors pdist_math(Args& args) {
  ArgReader a(O::pdist, args);
  const Tensor& x = a.tensor(0);
  const double p = a.f64(1);
  AMPS_CHECK(x.dim() == 2, "pdist only supports 2D tensors, got: {}D", x.dim());
  AMPS_CHECK(x.is_floating_point(), "pdist only supports floating-point dtypes");
  AMPS_CHECK(p >= 0, "pdist only supports non-negative p values");
  auto [i, j] = upper_pairs(x.size(0), x.device());
  const Tensor diff = sub(index_select(x, 0, i), index_select(x, 0, j));
  return {norm(diff, Scalar(p), Dims{1})};
}

// renorm(input, p, dim, maxnorm): each slice along dim whose p-norm (over the other dims) exceeds maxnorm is scaled
// by maxnorm / (norm + 1e-7), PyTorch's formula; the others are left as they are.
Tensors renorm_math(Args& args) {
  ArgReader a(O::renorm, args);
  const Tensor& x = a.tensor(0);
  const double p = a.scalar(1).to_double(), maxnorm = a.scalar(3).to_double();
  AMPS_CHECK(p > 0, "renorm: non-positive-norm not supported");
  AMPS_CHECK(maxnorm >= 0, "renorm: expected maxnorm to be >= 0 but got {}", maxnorm);
  AMPS_CHECK(x.dim() > 1, "renorm: input needs at least 2 dimensions, got {} dimensions", x.dim());
  const int64_t d = wrap_dim(a.i64(2), x.dim());
  Dims others;
  for (int64_t k = 0; k < x.dim(); ++k)
    if (k != d) others.push_back(k);
  const Tensor n = norm(x, Scalar(p), others, true);
  const Tensor factor = where(gt(n, Scalar(maxnorm)), div(full({}, Scalar(maxnorm), n.dtype(), n.device()),
                                                          add(n, full({}, Scalar(1e-7), n.dtype(), n.device()))),
                              ones({}, n.dtype(), n.device()));
  return {mul(x, factor)};
}

// rms_norm(input, normalized_shape, weight=None, eps=None): input * rsqrt(mean(input^2 over the normalized dims) +
// eps), computed in float32 for half types (float64 stays), cast back, then times weight. eps defaults to the machine
// epsilon of that compute type, as PyTorch's.
Tensors rms_norm_math(Args& args) {
  ArgReader a(O::rms_norm, args);
  const Tensor& x = a.tensor(0);
  const Dims shape = a.ints(1);
  const Tensor weight = a.opt_tensor(2);
  const int64_t k = int64_t(shape.size());
  AMPS_CHECK(k > 0, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
             "but got normalized_shape = []");
  bool fits = k <= x.dim();
  for (int64_t i = 0; fits && i < k; ++i) fits = x.size(x.dim() - k + i) == shape[size_t(i)];
  AMPS_CHECK(fits, "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
             dims_text(shape), dims_text(shape).substr(1, dims_text(shape).size() - 2), dims_text(x.sizes()));
  AMPS_CHECK(!weight.defined() || weight.sizes() == shape, "Expected weight to be of same shape as normalized_shape, "
             "but got weight of shape {} and normalized_shape = {}", dims_text(weight.sizes()), dims_text(shape));
  AMPS_CHECK(x.is_floating_point(), "rms_norm: expected a floating point input, got {}", dtype_name(x.dtype()));
  const DType acc = x.dtype() == DType::float64 ? DType::float64 : DType::float32;
  const double eps = a.opt_f64(3).value_or(acc == DType::float64 ? std::numeric_limits<double>::epsilon()
                                                                 : double(std::numeric_limits<float>::epsilon()));
  Dims dims;
  for (int64_t i = x.dim() - k; i < x.dim(); ++i) dims.push_back(i);
  const Tensor up = x.to(acc);
  const Tensor ms = mean(mul(up, up), dims, true);
  Tensor out = mul(up, rsqrt(add(ms, full({}, Scalar(eps), acc, x.device())))).to(x.dtype());
  if (weight.defined()) out = mul(out, weight);
  return {out};
}

}  // namespace amps::rt::common
