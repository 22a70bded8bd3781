// Device-independent argument handling of layer_norm and dropout (see nn_args.hpp).
#include "runtime/backend/common/nn_args.hpp"

#include <algorithm>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {

void check_softmax_dtype(DType dt, int64_t dim, int64_t ndim, bool log) {
  if (is_floating(dt)) return;
  const bool last = ndim <= 1 || dim == ndim - 1;
  // PyTorch names its kernel: log_softmax_lastdim_kernel_impl, softmax_lastdim_kernel_impl, and softmax_kernel_impl
  // for both along another dim
  AMPS_FAIL("\"{}softmax_{}kernel_impl\" not implemented for '{}'", log && last ? "log_" : "", last ? "lastdim_" : "",
            torch_type_name(dt));
}

int64_t layer_norm_width(const Tensor& x, const Dims& shape, const Tensor& weight, const Tensor& bias) {
  bool ok = int64_t(shape.size()) <= x.dim() && std::equal(shape.begin(), shape.end(), x.sizes().end() - int64_t(shape.size()));
  AMPS_CHECK(ok, "Given normalized_shape=[{}], expected input with shape [*, {}], but got input of size[{}]",
             fmt::join(shape, ", "), fmt::join(shape, ", "), fmt::join(x.sizes(), ", "));
  for (const auto& [p, name] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}})
    AMPS_CHECK(!p->defined() || p->sizes() == shape, "Expected {} to be of same shape as normalized_shape, but got {} "
               "of shape [{}] and normalized_shape = [{}]", name, name, fmt::join(p->sizes(), ", "), fmt::join(shape, ", "));
  return numel_of(shape);
}

double dropout_scale(double p) {
  AMPS_CHECK_VALUE(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got {}", p);
  return p == 1 ? 0.0 : 1.0 / (1.0 - p);
}

void draw_dropout_mask(const Tensor& mask, double p, Generator& g) {
  AMPS_ASSERT(mask.device().is_host() && mask.dtype() == DType::bool_ && mask.is_contiguous(), "draw_dropout_mask");
  bool* m = mask.data<bool>();
  for (int64_t i = 0; i < mask.numel(); ++i) m[i] = g.uniform_double() >= p;
}

Reduction parse_reduction(const std::string& r) {
  if (r == "none") return Reduction::none;
  if (r == "mean") return Reduction::mean;
  if (r == "sum") return Reduction::sum;
  AMPS_CHECK_VALUE(false, "{} is not a valid value for reduction", r);
  return Reduction::none;
}

void check_cdist(const Tensor& x1, const Tensor& x2, double p) {
  AMPS_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: {}D", x1.dim());
  AMPS_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: {}D", x2.dim());
  AMPS_CHECK(is_floating(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: {}", dtype_name(x1.dtype()));
  AMPS_CHECK(is_floating(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: {}", dtype_name(x2.dtype()));
  AMPS_CHECK(x1.size(-1) == x2.size(-1), "X1 and X2 must have the same number of columns. X1: {} X2: {}", x1.size(-1),
             x2.size(-1));
  AMPS_CHECK(p >= 0, "cdist only supports non-negative p values");
}

}  // namespace amps::rt::common
