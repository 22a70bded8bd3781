// max_pool1d, avg_pool1d and adaptive_avg_pool1d as implicit composites (see implicit_composites.hpp): the input
// [N, C, L] (or [C, L]) gets a height of 1, the 2-D op pools with a 1-high window, and the height is dropped, as
// PyTorch's CompositeImplicitAutograd max_pool1d/avg_pool1d/adaptive_avg_pool1d do.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors max_pool1d_math(Args& args);
Tensors avg_pool1d_math(Args& args);
Tensors adaptive_avg_pool1d_math(Args& args);

}  // namespace amps::rt::common
