// interpolate (torch.nn.functional.interpolate) and the upsample ops it dispatches to, as PyTorch:
// upsample_nearest{1,2,3}d and upsample_linear1d / upsample_bilinear2d / upsample_trilinear3d (float32 in the cuda
// autocast list). Each spatial dim is resampled on its own (both modes are separable): nearest gathers one
// source index per output position, linear blends two with PyTorch's source coordinates (align_corners, a given
// scale_factor). Implicit composites (implicit_composites.hpp): every backend's kernel and the differentiable
// decomposition.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

Tensors interpolate_math(Args& args);
// upsample_nearest{1,2,3}d / upsample_{linear1d,bilinear2d,trilinear3d}: [op] names which.
Tensors upsample_math(OpId op, Args& args);
template <OpId Op> Tensors upsample_op_math(Args& args) { return upsample_math(Op, args); }

}  // namespace amps::rt::common
