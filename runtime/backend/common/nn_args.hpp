// Device-independent argument handling of nn ops without a family file of their own: layer_norm's shape check.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// The number of elements layer_norm normalises together: [x] must end in [normalized_shape] (checked).
int64_t layer_norm_width(const Tensor& x, const Dims& normalized_shape);

}  // namespace amps::rt::common
