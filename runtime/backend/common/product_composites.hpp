// Products defined by their math (implicit composites, see implicit_composites.hpp): vdot, cross and bilinear, with
// PyTorch's shapes, checks and messages. All three are on PyTorch's promote autocast list for cuda.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors vdot_math(Args& args);
Tensors cross_math(Args& args);
Tensors bilinear_math(Args& args);

}  // namespace amps::rt::common
