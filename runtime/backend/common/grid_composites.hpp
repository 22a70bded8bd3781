// affine_grid_generator (F.affine_grid's op) and grid_sampler (F.grid_sample's op), as PyTorch's composites:
// the base grid of linspace points times theta^T by bmm (theta's gradient follows from bmm's), and grid_sampler
// choosing grid_sampler_2d for a 4-D input, else grid_sampler_3d (CPU kernels: grid_sampler_kernels.cpp). Implicit
// composites (implicit_composites.hpp): every backend's kernel and the differentiable decomposition.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

Tensors affine_grid_generator_math(Args& args);
Tensors grid_sampler_math(Args& args);

}  // namespace amps::rt::common
