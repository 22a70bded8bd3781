// Products defined by their math (implicit composites, see implicit_composites.hpp): vdot, cross and bilinear (on
// PyTorch's promote autocast list for cuda), linalg_cross, linalg_vecdot, tensordot, matrix_power, chain_matmul and
// linalg_multi_dot (its cheapest multiplication order, as PyTorch's), with PyTorch's shapes, checks and messages.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors vdot_math(Args& args);
Tensors cross_math(Args& args);
Tensors bilinear_math(Args& args);
Tensors linalg_cross_math(Args& args);
Tensors linalg_vecdot_math(Args& args);
Tensors tensordot_math(Args& args);
Tensors matrix_power_math(Args& args);
Tensors chain_matmul_math(Args& args);
Tensors linalg_multi_dot_math(Args& args);

}  // namespace amps::rt::common
