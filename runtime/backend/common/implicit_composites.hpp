// Ops defined by their math, as PyTorch's CompositeImplicitAutograd ops: scaled_dot_product_attention (its math
// backend), kl_div, huber_loss, roll, flip, repeat_interleave, diag and masked_select here, einsum (einsum.hpp), pad
// and its padding ops (pad_composites.hpp), interpolate and the upsample ops (upsample_composites.hpp),
// affine_grid_generator and grid_sampler (grid_composites.hpp), the activations (activation_composites.hpp), the
// recurrent cells (rnn_composites.hpp), 1-D pooling (pool1d_composites.hpp), 3-D pooling (pool3d_composites.hpp),
// adaptive max pooling and unpooling (adaptive_max_composites.hpp), the composed losses (loss_composites.hpp),
// reductions such as median and nansum (reduction_composites.hpp), dist, pdist, renorm and rms_norm
// (norm_composites.hpp), elementwise formulas such as logaddexp and xlogy (math_composites.hpp), vdot, cross, bilinear,
// tensordot, matrix_power and the matrix chains (product_composites.hpp), det, the decompositions' linalg spellings,
// the solves and the pseudo-inverse family (linalg_composites.hpp), the linalg norms (linalg_norm_composites.hpp), the
// shape, indexing and statistics ops such as hstack, kron, take, diff and cov (shape_composites.hpp), and frac, clamp
// with tensor bounds, where(condition), tile and bernoulli (elementwise_composites.hpp).
// Each is written with the dispatching functions, so the one definition serves as the kernel of every backend (run
// below the autograd layer: nothing is recorded) and as the op's differentiable decomposition
// (runtime/autograd/rules.cpp: recorded op by op, so gradients of any order follow). implicit_composites() lists
// them all, for both uses.
#pragma once

#include <span>

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// A loss per element reduced as reduction says ("none", "sum" or "mean"; [op] names the op in the error).
Tensor reduce_loss(const Tensor& loss, const std::string& reduction, std::string_view op);

// Each takes the op's complete, schema-ordered arguments.
Tensors sdpa_math(Args& args);
Tensors kl_div_math(Args& args);
Tensors huber_loss_math(Args& args);
Tensors roll_math(Args& args);
Tensors flip_math(Args& args);
Tensors repeat_interleave_math(Args& args);

struct ImplicitComposite {
  OpId op;
  Tensors (*math)(Args& args);    // the definition, on the op's complete, schema-ordered arguments
  uint32_t dtypes;                // the input dtypes its kernel takes
};
// Every implicit composite, once.
std::span<const ImplicitComposite> implicit_composites();

// Registers each implicit composite as a kernel in [t] (the CPU and CUDA tables alike).
void register_implicit_composites(cpu::KernelTable& t);

}  // namespace amps::rt::common
