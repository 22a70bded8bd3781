// Elementwise, shape and factory ops defined by their math (implicit composites, see implicit_composites.hpp): frac,
// clamp with tensor bounds, where(condition), tile, meshgrid and bernoulli.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors frac_math(Args& args);
Tensors clamp_tensor_math(Args& args);
Tensors where_condition_math(Args& args);
Tensors tile_math(Args& args);
Tensors bernoulli_math(Args& args);
Tensors meshgrid_math(Args& args);

}  // namespace amps::rt::common
