// adaptive_max_pool1d/2d/3d and max_unpool2d/3d as implicit composites (see implicit_composites.hpp).
// Adaptive max pooling is separable: the last axis is pooled first (output j takes PyTorch's window
// [floor(j * in / out), ceil((j + 1) * in / out)), gathered with the last index repeated to a common width, whose
// first maximum is the window's), then each earlier axis; first maxima axis by axis are the first maximum in
// PyTorch's row-major scan, and the gradient goes to it alone. Unpooling scatters each value to its flat index in
// a zero output plane.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors adaptive_max_pool1d_math(Args& args);
Tensors adaptive_max_pool2d_math(Args& args);
Tensors adaptive_max_pool3d_math(Args& args);
Tensors max_unpool2d_math(Args& args);
Tensors max_unpool3d_math(Args& args);

}  // namespace amps::rt::common
