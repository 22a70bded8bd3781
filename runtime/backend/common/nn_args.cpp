// Device-independent argument handling of nn ops (see nn_args.hpp).
#include "runtime/backend/common/nn_args.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {

int64_t layer_norm_width(const Tensor& x, const Dims& shape) {
  bool ok = int64_t(shape.size()) <= x.dim() && std::equal(shape.begin(), shape.end(), x.sizes().end() - int64_t(shape.size()));
  AMPS_CHECK(ok, "Given normalized_shape=[{}], expected input with shape [*, {}], but got input of size[{}]",
             fmt::join(shape, ", "), fmt::join(shape, ", "), fmt::join(x.sizes(), ", "));
  return numel_of(shape);
}

}  // namespace amps::rt::common
