// Norm-based ops defined by their math (implicit composites, see implicit_composites.hpp): dist, pdist, renorm and
// rms_norm, with PyTorch's formulas, checks and messages. All four are on PyTorch's fp32 autocast list for cuda.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors dist_math(Args& args);
Tensors pdist_math(Args& args);
Tensors renorm_math(Args& args);
Tensors rms_norm_math(Args& args);

}  // namespace amps::rt::common
